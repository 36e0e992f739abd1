// SPDX-License-Identifier: Apache-2.0
#pragma once
// The CUDA backend's launcher: kapi's own launches on the execution space's stream where
// they apply, the team backend's Kokkos launches (team/detail/launcher.hpp) otherwise.
//  - range kernels without reduction arguments: cuda_launch_range (range_launch.hpp),
//    unless built with KAPI_CUDA_RANGE_LAUNCH=0; one-dimensional ones with reduction
//    arguments whose partials fit a block's local memory: cuda_launch_range_reduce
//    (range_reduce.hpp), likewise;
//  - work-group kernels without reduction arguments whose local memory fits the block's
//    shared memory: cuda_launch_groups (group_launch.hpp), unless built with
//    KAPI_CUDA_GROUP_LAUNCH=0;
//  - everything else (reductions, local memory past shared memory): the Kokkos team launch.
// kapi/detail/launcher.hpp selects it for spaces whose space_traits say is_cuda.
#include <memory>

#include <kapi/config.hpp>
#include <kapi/cuda/detail/group_launch.hpp>
#include <kapi/cuda/detail/range_launch.hpp>
#include <kapi/cuda/detail/range_reduce.hpp>
#include <kapi/detail/kernel_names.hpp>
#include <kapi/detail/launch_plan.hpp>
#include <kapi/detail/launch_status.hpp>
#include <kapi/team/detail/launcher.hpp>

#if KAPI_HAS_CUDA_RANGE_LAUNCH || KAPI_HAS_CUDA_GROUP_LAUNCH
#define KAPI_HAS_CUDA_LAUNCHER 1
namespace kapi::detail {

template <class ExecSpace>
struct CudaLauncher {
  template <class Kernel, int N, class... Args>
  static std::shared_ptr<LaunchStatus> run(const ExecSpace& space, const RangePlan<Kernel, N, Args...>& plan) {
#if KAPI_HAS_CUDA_RANGE_LAUNCH
    using Body = RangeBody<Kernel, N, Args...>;
    if constexpr (!RangePlan<Kernel, N, Args...>::reduces) {
      const ToolsParallelFor region(plan.label, space);
      cuda_launch_range(space, plan.label, plan.body, plan.body.range.extent);
      return nullptr;
    } else if constexpr (N == 1 && cuda_range_reduce_fits<typename Body::partials_type>) {
      const ToolsParallelReduce region(plan.label, space);
      cuda_launch_range_reduce(space, DeviceRangeReduceFunctor<Body>{plan.body},
                               std::int64_t(plan.body.range.extent[0]));
      return nullptr;
    } else
#endif
    {
      return TeamLauncher<ExecSpace>::run(space, plan);  // reduction arguments: Kokkos' policies
    }
  }

  template <class Kernel, int N, bool Phased, class... Args>
  static std::shared_ptr<LaunchStatus> run(const ExecSpace& space,
                                           const NdRangePlan<Kernel, N, Phased, Args...>& plan) {
#if KAPI_HAS_CUDA_GROUP_LAUNCH
    if constexpr (!NdRangePlan<Kernel, N, Phased, Args...>::reduces) {
      const std::size_t blocks =
          device_teams(plan.groups, plan.group_size, static_cast<std::size_t>(space.concurrency()));
      if (cuda_launch_groups(space, plan, blocks)) return nullptr;
    }
#endif
    return TeamLauncher<ExecSpace>::run(space, plan);
  }
};

}  // namespace kapi::detail
#else
#define KAPI_HAS_CUDA_LAUNCHER 0
#endif
