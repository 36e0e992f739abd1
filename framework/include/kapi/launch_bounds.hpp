// SPDX-License-Identifier: Apache-2.0
#pragma once
// LaunchBounds: what a register-heavy nd-range kernel promises about its launches, so a
// GPU compiler can budget registers (CUDA's __launch_bounds__, SYCL's
// reqd_work_group_size in spirit). A kernel declares it as a member type:
//
//   struct MyKernel {
//     using launch_bounds = kapi::LaunchBounds<256, 2>;  // <= 256 work-items per group,
//     void operator()(const kapi::NdItem<2>&, ...) const;  // 2 groups resident per SM
//   };
//
// Without it a GPU compiler may give each work-item up to 255 registers, which leaves room
// for one 256-item group per multiprocessor; with it the kernel is compiled to fit
// MinGroupsPerUnit groups of MaxWorkItems. Launching it with a larger work-group throws
// kapi::launch_error on every backend (host backends otherwise ignore the bounds).
#include <type_traits>

namespace kapi {

template <unsigned MaxWorkItems, unsigned MinGroupsPerUnit = 1>
struct LaunchBounds {
  static_assert(MaxWorkItems > 0 && MinGroupsPerUnit > 0, "kapi::LaunchBounds: both bounds must be positive");
  static constexpr unsigned max_work_items = MaxWorkItems;
  static constexpr unsigned min_groups_per_unit = MinGroupsPerUnit;
};

namespace detail {
/// The kernel's declared bounds, or LaunchBounds<0, 0> (none) when it declares none.
template <class Kernel, class = void>
struct launch_bounds_of {
  static constexpr unsigned max_work_items = 0, min_groups_per_unit = 0;
};
template <class Kernel>
struct launch_bounds_of<Kernel, std::void_t<typename Kernel::launch_bounds>> : Kernel::launch_bounds {};
}  // namespace detail

}  // namespace kapi
