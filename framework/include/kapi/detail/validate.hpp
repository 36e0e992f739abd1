// SPDX-License-Identifier: Apache-2.0
#pragma once
// Checks run before every launch; each failure throws kapi::launch_error naming the
// problem and the values involved. What does not depend on the kernel is compiled in the
// runtime (src/validate.cpp).
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

/// The number of work-items of `extent` (n dimensions; "global", "local" or "work-group"
/// range), or launch_error when it does not fit a launch's 64-bit signed index.
std::size_t checked_size(const std::size_t* extent, int n, const char* what);
template <int N>
std::size_t checked_size(const Range<N>& r, const char* what) {
  return checked_size(r.extent, N, what);
}

/// Every local extent non-zero and dividing the global one.
void validate_nd_range(const std::size_t* global, const std::size_t* local, int n);
template <int N>
void validate_nd_range(const NdRange<N>& r) {
  validate_nd_range(r.global.extent, r.local.extent, N);
}

/// The first LocalAccessor among Args (counted from 1), 0 if none.
template <class... Args>
constexpr std::size_t first_local_accessor() {
  constexpr bool is_accessor[] = {is_local_accessor_v<Args>..., false};
  std::size_t found = 0;
  for (std::size_t i = sizeof...(Args); i > 0; --i)
    if (is_accessor[i - 1]) found = i;
  return found;
}

[[noreturn]] void reject_local_accessor_in_range_kernel(std::size_t argument);
template <class... Args>
void reject_local_accessors_in_range_kernel() {
  if constexpr (first_local_accessor<Args...>() != 0)
    reject_local_accessor_in_range_kernel(first_local_accessor<Args...>());
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

void validate_group_size(std::size_t local, std::size_t max, const char* space, const char* why);
void validate_local_memory(std::size_t bytes, std::size_t max, const char* space);
void validate_group_count(std::size_t groups);

}  // namespace kapi::detail
