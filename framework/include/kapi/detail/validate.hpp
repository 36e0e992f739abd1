#pragma once
// Checks run before every launch; each failure throws kapi::launch_error naming the
// problem and the values involved.
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include <kapi/detail/group_geometry.hpp>
#include <kapi/detail/reductions.hpp>
#include <kapi/errors.hpp>
#include <kapi/item.hpp>
#include <kapi/local_accessor.hpp>
#include <kapi/range.hpp>
#include <kapi/work_group.hpp>

namespace kapi::detail {

template <int N>
std::string text(const Range<N>& r) {
  return format_extents(r.extent);
}

/// The number of work-items in `r` ("global", "local" or "work-group" range), or
/// launch_error when it does not fit a launch's 64-bit signed index.
template <int N>
std::size_t checked_size(const Range<N>& r, const char* what) {
  constexpr std::size_t max = static_cast<std::size_t>(INT64_MAX);
  for (int d = 0; d < N; ++d)
    if (r.extent[d] == 0) return 0;
  std::size_t size = 1;
  for (int d = 0; d < N; ++d)
    if (__builtin_mul_overflow(size, r.extent[d], &size) || size > max)
      throw launch_error(std::string(what) + " range " + text(r) + " holds more than " + std::to_string(max) +
                         " work-items (2^63 - 1, the most a launch indexes): its extents' product overflows");
  return size;
}

template <int N>
void validate_nd_range(const NdRange<N>& r) {
  for (int d = 0; d < N; ++d)
    if (r.local.extent[d] == 0)
      throw launch_error("local range " + text(r.local) + " has a zero extent in dimension " + std::to_string(d) +
                         "; every work-group needs at least one work-item per dimension");
  for (int d = 0; d < N; ++d)
    if (r.global.extent[d] % r.local.extent[d] != 0)
      throw launch_error("global range " + text(r.global) + " is not divisible by local range " + text(r.local) +
                         " in dimension " + std::to_string(d) + " (" + std::to_string(r.global.extent[d]) + " % " +
                         std::to_string(r.local.extent[d]) + " = " +
                         std::to_string(r.global.extent[d] % r.local.extent[d]) +
                         "); pad the global range up to a multiple of the local range");
}

template <class... Args>
void reject_local_accessors_in_range_kernel() {
  constexpr bool is_accessor[] = {is_local_accessor_v<Args>..., false};
  std::size_t found = 0;
  for (std::size_t i = sizeof...(Args); i > 0; --i)
    if (is_accessor[i - 1]) found = i;
  if (found)
    throw launch_error("argument " + std::to_string(found) +
                       " is a LocalAccessor, but the kernel is launched with a Range: local memory "
                       "exists only in nd-range kernels (launch with an NdRange)");
}

/// Whether the kernel takes (ItemT<M>, args...), each argument as the kernel receives it
/// (a reduction as its Reducer).
template <int M, template <int> class ItemT, class Kernel, class... Args>
constexpr bool callable_with = std::is_invocable_v<const Kernel&, ItemT<M>, kernel_param_t<Args>...>;

template <template <int> class ItemT, class Kernel, class... Args>
constexpr int callable_rank() {
  if constexpr (callable_with<1, ItemT, Kernel, Args...>)
    return 1;
  else if constexpr (callable_with<2, ItemT, Kernel, Args...>)
    return 2;
  else if constexpr (callable_with<3, ItemT, Kernel, Args...>)
    return 3;
  else
    return 0;
}

/// The kernel must take ItemT<N> (Item for Range, NdItem or WorkGroup for NdRange) first.
template <template <int> class ItemT, int N, class Kernel, class... Args>
void validate_signature() {
  if constexpr (!callable_with<N, ItemT, Kernel, Args...>) {
    constexpr bool nd = std::is_same_v<ItemT<N>, NdItem<N>>;
    constexpr int item_rank = callable_rank<Item, Kernel, Args...>();
    constexpr int nd_item_rank = callable_rank<NdItem, Kernel, Args...>();
    constexpr int work_group_rank = callable_rank<WorkGroup, Kernel, Args...>();
    static_assert(item_rank != 0 || nd_item_rank != 0 || work_group_rank != 0 || reduction_count<Args...> == 0,
                  "kapi::call_kernel: the kernel cannot be called with (Item<N> or NdItem<N>, args...), where a "
                  "kapi::reduction argument arrives as a kapi::Reducer<T, Op>& (take it as auto& or Reducer&): "
                  "check the argument types and their order");
    static_assert(item_rank != 0 || nd_item_rank != 0 || work_group_rank != 0,
                  "kapi::call_kernel: the kernel cannot be called with (Item<N>, NdItem<N> or WorkGroup<N>, "
                  "args...): check the argument types and their order");
    const std::string launched = std::string(nd ? "NdRange<" : "Range<") + std::to_string(N) + ">";
    if (item_rank == 0 && nd_item_rank == 0) {  // a phased kernel
      const std::string takes = "the kernel takes WorkGroup<" + std::to_string(work_group_rank) + ">";
      if (nd) throw launch_error("rank mismatch: " + takes + " but is launched with " + launched);
      throw launch_error(takes + " but is launched with " + launched + ": launch a phased kernel with an NdRange");
    }
    if (nd ? nd_item_rank != 0 : item_rank != 0)
      throw launch_error("rank mismatch: the kernel takes " + std::string(nd ? "NdItem<" : "Item<") +
                         std::to_string(nd ? nd_item_rank : item_rank) + "> but is launched with " + launched);
    throw launch_error("the kernel takes " + std::string(nd ? "Item<" : "NdItem<") +
                       std::to_string(nd ? item_rank : nd_item_rank) + "> but is launched with " + launched +
                       (nd ? ": launch a range kernel with a Range" : ": launch an nd-range kernel with an NdRange"));
  }
}

inline void validate_group_size(std::size_t local, std::size_t max, const std::string& space, const std::string& why) {
  if (local > max)
    throw launch_error("work-group of " + std::to_string(local) + " work-items is larger than " + space + " allows (" +
                       std::to_string(max) + why + ")");
}

inline void validate_local_memory(std::size_t bytes, std::size_t max, const std::string& space) {
  if (bytes > max)
    throw launch_error("local memory of " + std::to_string(bytes) +
                       " bytes per work-group (all LocalAccessor "
                       "arguments) is more than " +
                       space + " allows (" + std::to_string(max) + " bytes)");
}

inline void validate_group_count(std::size_t groups) {
  if (groups > max_group_count)
    throw launch_error(std::to_string(groups) + " work-groups are more than one launch takes (" +
                       std::to_string(max_group_count) + "); use larger work-groups");
}

}  // namespace kapi::detail
