// SPDX-License-Identifier: Apache-2.0
#pragma once
// The first step of every launch, the same on every backend: check the kernel, its index
// space and its arguments (each failure a launch_error naming the values and the fix), and
// describe the launch for the backend's launcher (detail/launcher.hpp).
#include <cstddef>
#include <string>
#include <type_traits>

#include <kapi/detail/kernel_bodies.hpp>
#include <kapi/detail/kernel_names.hpp>
#include <kapi/detail/reductions.hpp>
#include <kapi/detail/validate.hpp>
#include <kapi/device_limits.hpp>
#include <kapi/execution_space.hpp>
#include <kapi/host/detail/launch_rules.hpp>
#include <kapi/host/detail/stack_bytes.hpp>
#include <kapi/host/detail/work_group_setting.hpp>
#include <kapi/launch_bounds.hpp>

namespace kapi::detail {

template <class Kernel, int N, class... Args>
struct RangePlan {
  static constexpr bool reduces = reduction_count<Args...> > 0;  // a parallel_reduce (reduction arguments)
  RangeBody<Kernel, N, Args...> body;
  std::size_t items = 0;  // work-items (the range's size)
  const std::string& label;
};

template <class Kernel, int N, bool Phased, class... Args>
struct NdRangePlan {
  static constexpr bool phased = Phased;
  static constexpr bool reduces = reduction_count<Args...> > 0;
  // Whether the launch compiles the form that binds captured LocalAccessors (a second
  // kernel on devices): for a kernel large enough to hold one that takes none as an
  // argument. A kernel uses one form, arguments or captures (capture_local_memory).
  static constexpr bool may_capture = may_capture_local_memory<Kernel> && local_accessor_count<Args...> == 0;
  using Bounds = launch_bounds_of<Kernel>;
  NdRangeBody<Kernel, N, Args...> body;
  std::size_t group_size = 0;  // work-items per group
  std::size_t groups = 0;
  const std::string& label;
  CapturedLocals captured{};  // LocalAccessors the kernel captured
};

/// A kernel taking WorkGroup<N> is phased (phased.hpp): one call per group. One that takes
/// either (a generic kernel) stays flat.
template <int N, class Kernel, class... Args>
inline constexpr bool is_phased_kernel =
    callable_with<N, WorkGroup, Kernel, Args...> && !callable_with<N, NdItem, Kernel, Args...>;

/// Whether the kernel can be launched over Range<N> with these arguments (if not, the
/// static_asserts of plan_range have said why and nothing else is instantiated).
template <int N, class Kernel, class... Args>
inline constexpr bool is_launchable_range_kernel =
    local_accessor_count<Args...> == 0 && callable_with<N, Item, Kernel, Args...>;

template <int N, class Kernel, class... Args>
inline constexpr bool is_launchable_nd_range_kernel =
    is_phased_kernel<N, Kernel, Args...> ? reduction_count<Args...> == 0 : callable_with<N, NdItem, Kernel, Args...>;

/// Places the LocalAccessors the kernel captured after its argument accessors.
template <class Body, class... Args>
CapturedLocals place_captured_local_memory(Body& body, const Args&... args) {
  PlacedAccessor placed[local_accessor_count<Args...> + 1] = {};
  std::size_t count = 0, i = 0;
  auto note = [&](const auto& a) {
    if constexpr (is_local_accessor_v<std::decay_t<decltype(a)>>)
      placed[count++] = {a.impl_tag().id, body.layout.offset[i]};
    ++i;
  };
  (note(args), ...);
  (void)note;
  return capture_local_memory(body.kernel, body.layout.total, placed, count, true, scratch_alignment);
}

template <class ExecSpace, class Kernel, int N, class... Args>
RangePlan<Kernel, N, Args...> plan_range(const ExecSpace& space, const std::string& label, const Kernel& kernel,
                                         const Range<N>& range, const Args&... args) {
  validate_signature<Item, N, Kernel, Args...>();
  reject_local_accessors_in_range_kernel<Args...>();
  validate_reductions<ExecSpace>(args...);
  std::size_t no_local_memory = 0;
  capture_local_memory(kernel, no_local_memory, nullptr, 0, false, scratch_alignment);
  const std::size_t items = checked_size(range, "global");
  check_launching_thread(space, "call_kernel");
  return {{kernel, ArgPack<Args...>(args...), range}, items, label};
}

template <class ExecSpace, class Kernel, int N, class... Args>
NdRangePlan<Kernel, N, is_phased_kernel<N, Kernel, Args...>, Args...> plan_nd_range(const ExecSpace& space,
                                                                                    const std::string& label,
                                                                                    const Kernel& kernel,
                                                                                    const NdRange<N>& range,
                                                                                    const Args&... args) {
  constexpr bool phased = is_phased_kernel<N, Kernel, Args...>;
  static_assert(!phased || reduction_count<Args...> == 0,
                "kapi::reduction: reduction variables are for range and nd-range kernels (as in SYCL 2020); a phased "
                "kernel (WorkGroup) combines with reduce_over_work_items and stores the group's result");
  validate_nd_range(range);
  validate_reductions<ExecSpace>(args...);
  if constexpr (is_host_execution_space_v<ExecSpace>) {
    host_stack_bytes();        // a bad KAPI_HOST_STACK_BYTES throws
    check_host_work_groups();  // and so does a bad KAPI_WORK_GROUPS
  }
  check_launching_thread(space, "call_kernel");
  if constexpr (!phased) validate_signature<NdItem, N, Kernel, Args...>();
  const std::size_t group_size = checked_size(range.local, "local");
  validate_group_size(group_size, max_work_group_size<ExecSpace>(), ExecSpace::name(),
                      is_host_execution_space_v<ExecSpace> ? " on a host backend" : "");
  NdRangePlan<Kernel, N, phased, Args...> plan{
      {kernel, ArgPack<Args...>(args...), scratch_layout(args...), range.get_group_range(), range.local, 0, {}, {}},
      group_size,
      0,
      label};
  plan.captured = place_captured_local_memory(plan.body, args...);
  validate_local_memory(plan.body.layout.total, max_local_memory_bytes<ExecSpace>(), ExecSpace::name());
  plan.groups = checked_size(plan.body.group_range, "work-group");
  validate_group_count(plan.groups);  // below 2^31, and so is every extent: the ids split fast
  plan.body.group_split = FastExtents<N>(plan.body.group_range.extent);
  plan.body.local_split = FastExtents<N>(plan.body.local_range.extent);
  // A kernel's declared LaunchBounds cap its work-groups on every backend (and budget its
  // registers on a device).
  using Bounds = launch_bounds_of<Kernel>;
  if constexpr (Bounds::max_work_items > 0)
    validate_group_size(group_size, Bounds::max_work_items, "the kernel's kapi::LaunchBounds", " work-items");
  return plan;
}

}  // namespace kapi::detail
