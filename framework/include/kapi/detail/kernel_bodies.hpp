// SPDX-License-Identifier: Apache-2.0
#pragma once
// What every backend's launcher runs: the user's kernel with its arguments, called for one
// work-item (a range kernel), one work-item of a group (nd-range) or one group (phased).
// A launch with reduction arguments calls the kernel with the calling thread's partials
// (detail/reductions.hpp), which its Reducers combine into.
#include <cstddef>
#include <utility>

#include <kapi/detail/captured_locals.hpp>
#include <kapi/detail/fast_divisor.hpp>
#include <kapi/detail/group_handle.hpp>
#include <kapi/detail/kernel_args.hpp>
#include <kapi/detail/reductions.hpp>
#include <kapi/item.hpp>
#include <kapi/range.hpp>
#include <kapi/work_group.hpp>

namespace kapi::detail {

/// A range kernel and its arguments.
template <class Kernel, int N, class... Args>
struct RangeBody {
  static constexpr int dimensions = N;
  static constexpr bool reduces = reduction_count<Args...> > 0;
  using arg_indices = std::index_sequence_for<Args...>;
  using partials_type = Partials<Args...>;
  Kernel kernel;
  ArgPack<Args...> args;
  Range<N> range;

  /// Called with the work-item's N ids (Kokkos' RangePolicy/MDRangePolicy order).
  template <class... I>
  KAPI_FUNCTION void operator()(I... i) const {
    const std::size_t id[N] = {static_cast<std::size_t>(i)...};
    call(Item<N>(id, range.extent), arg_indices{});
  }
  template <std::size_t... A>
  KAPI_FUNCTION void call(const Item<N>& item, std::index_sequence<A...>) const {
    kernel(item, get<A>(args)...);
  }
  /// With reductions: their Reducers combine into `partials`.
  template <std::size_t... A>
  KAPI_FUNCTION void call(const Item<N>& item, partials_type& partials, std::index_sequence<A...>) const {
    Reducers<Args...> reducers(args, partials);
    kernel(item, reduction_arg<A>(get<A>(args), reducers)...);
  }
};

/// An nd-range or phased kernel, its arguments and the group's local-memory layout.
template <class Kernel, int N, class... Args>
struct NdRangeBody {
  static constexpr int dimensions = N;
  static constexpr bool reduces = reduction_count<Args...> > 0;
  static constexpr bool has_local_memory = local_accessor_count<Args...> > 0;
  using arg_indices = std::index_sequence_for<Args...>;
  using partials_type = Partials<Args...>;
  Kernel kernel;
  ArgPack<Args...> args;
  ScratchLayout<sizeof...(Args)> layout;
  Range<N> group_range;
  Range<N> local_range;
  int scratch_level = 0;  // device backends: the Kokkos scratch level holding local memory
  // The two ranges as divisors (set by the plan): a GPU thread splits its group's and its
  // own linear id without dividing.
  FastExtents<N> group_split, local_split;

  /// Points the kernel's captured LocalAccessors (the plan's `captured`) at the group's
  /// memory: called on a copy of the body by whoever runs groups with that memory. Not a
  /// member: the body is copied per group, and it stays as small as before.
  KAPI_FUNCTION void bind_captured(const CapturedLocals& captured, char* scratch) {
    if constexpr (may_capture_local_memory<Kernel>) captured.bind(kernel, scratch);
    (void)captured, (void)scratch;
  }

  /// The group's local memory (every LocalAccessor argument), from its Kokkos team scratch
  /// at the launch's level (scratch_level). A constant level per call: the launch runs the
  /// kernel under one branch per level, so that the compiler sees which memory a
  /// LocalAccessor points to (level 0 is shared memory: 32-bit shared loads, not generic
  /// ones), and Kokkos keeps its scratch cursors in registers rather than a stack frame.
  template <int Level, class TeamMember>
  KAPI_FUNCTION char* group_scratch(const TeamMember& team) const {
    if (!layout.total) return nullptr;
    return static_cast<char*>(team.team_scratch(Level).get_shmem_aligned(layout.total, scratch_alignment));
  }

  /// One work-item of an nd-range kernel.
  KAPI_FUNCTION void run_item(std::size_t group_linear, std::size_t local_linear, char* scratch,
                              GroupHandle handle) const {
    std::size_t group_id[N];
    group_split.split(group_linear, group_id);
    run_item_of(group_id, local_linear, scratch, handle);
  }
  /// The same, for a launch whose grid gives the group's ids.
  KAPI_FUNCTION void run_item_of(const std::size_t (&group_id)[N], std::size_t local_linear, char* scratch,
                                 GroupHandle handle) const {
    std::size_t local_id[N];
    local_split.split(local_linear, local_id);
    const Group<N> group(group_id, group_range.extent, local_range.extent, local_linear, handle);
    call(NdItem<N>(group, local_id), scratch, arg_indices{});
  }
  /// One work-item of an nd-range kernel with reductions.
  KAPI_FUNCTION void run_item(std::size_t group_linear, std::size_t local_linear, char* scratch, GroupHandle handle,
                              partials_type& partials) const {
    std::size_t group_id[N], local_id[N];
    group_split.split(group_linear, group_id);
    local_split.split(local_linear, local_id);
    const Group<N> group(group_id, group_range.extent, local_range.extent, local_linear, handle);
    call(NdItem<N>(group, local_id), scratch, partials, arg_indices{});
  }
  /// A phased kernel: called once per group (host backends), or by each of the group's
  /// work-items (device backends: with its local linear id).
  KAPI_FUNCTION void run_group(std::size_t group_linear, char* scratch, GroupHandle handle) const {
    std::size_t group_id[N];
    group_split.split(group_linear, group_id);
    call(WorkGroup<N>(group_id, group_range.extent, local_range.extent, handle), scratch, arg_indices{});
  }
  KAPI_FUNCTION void run_group(std::size_t group_linear, std::size_t local_linear, char* scratch,
                               GroupHandle handle) const {
    std::size_t group_id[N];
    group_split.split(group_linear, group_id);
    run_group_of(group_id, local_linear, scratch, handle);
  }
  KAPI_FUNCTION void run_group_of(const std::size_t (&group_id)[N], std::size_t local_linear, char* scratch,
                                  GroupHandle handle) const {
    std::size_t local_id[N];
    local_split.split(local_linear, local_id);
    call(WorkGroup<N>(group_id, group_range.extent, local_range.extent, handle, local_linear, local_id), scratch,
         arg_indices{});
  }
  template <class First, std::size_t... A>
  KAPI_FUNCTION void call(const First& first, char* scratch, std::index_sequence<A...>) const {
    (void)scratch;  // unused for kernels without arguments
    kernel(first, bind_arg(get<A>(args), scratch, layout.offset[A])...);
  }
  template <class First, std::size_t... A>
  KAPI_FUNCTION void call(const First& first, char* scratch, partials_type& partials, std::index_sequence<A...>) const {
    (void)scratch;
    Reducers<Args...> reducers(args, partials);
    kernel(first, bound_arg<A>(get<A>(args), scratch, layout.offset[A], reducers)...);
  }
};

}  // namespace kapi::detail
