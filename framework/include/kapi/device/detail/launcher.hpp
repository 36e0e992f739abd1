#pragma once
// Launches on device backends (CUDA, HIP): a range kernel is a Kokkos RangePolicy or
// MDRangePolicy (on CUDA with Kokkos 3.x, kapi's own launch: cuda_range_launch.hpp); a
// work-group is a Kokkos team with one work-item per team member, its local memory the
// team's scratch.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <type_traits>

#include <kapi/detail/kernel_names.hpp>
#include <kapi/detail/launch_plan.hpp>
#include <kapi/detail/launch_status.hpp>
#include <kapi/device/detail/collectives.hpp>
#include <kapi/device/detail/cuda_range_launch.hpp>
#include <kapi/device_limits.hpp>

namespace kapi::detail {

// Tile shapes for 2-d and 3-d MDRange kernels: the last (contiguous) dimension is the
// long side, so GPU lanes touch consecutive elements.
template <int N>
Kokkos::Array<std::int64_t, N> range_tiles(const Range<N>& r) {
  Kokkos::Array<std::int64_t, N> t;
  const std::int64_t inner = 32, middle = 8;
  for (int d = 0; d < N; ++d) t[d] = 1;
  t[N - 1] = inner;
  if (N > 1) t[N - 2] = middle;
  for (int d = 0; d < N; ++d) t[d] = std::max<std::int64_t>(1, std::min<std::int64_t>(t[d], r.extent[d]));
  return t;
}

/// One work-item per team member; a phased kernel's members all run the group's call.
template <class ExecSpace, class Body, bool Phased>
struct DeviceGroupFunctor {
  Body body;

  KAPI_FUNCTION void operator()(const typename Kokkos::TeamPolicy<ExecSpace>::member_type& team) const {
    char* scratch = body.group_scratch(team);
    if constexpr (Phased)
      body.run_group(team.league_rank(), scratch, GroupHandle{&team});
    else
      body.run_item(team.league_rank(), team.team_rank(), scratch, GroupHandle{&team});
  }
};

template <class ExecSpace>
struct Launcher<ExecSpace, false> {
  template <class Kernel, int N, class... Args>
  static std::shared_ptr<LaunchStatus> run(const ExecSpace& space, const RangePlan<Kernel, N, Args...>& plan) {
    const auto& range = plan.body.range;
#if KAPI_HAS_CUDA_RANGE_LAUNCH
    if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>) {
      const ToolsParallelFor region(plan.label, space);
      cuda_launch_range(space, plan.body, range.extent);
    } else
#endif
    if constexpr (N == 1) {
      Kokkos::parallel_for(plan.label,
                           Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(
                               space, 0, static_cast<std::int64_t>(range.extent[0])),
                           plan.body);
    } else {
      using Policy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<N, Kokkos::Iterate::Right, Kokkos::Iterate::Right>,
                                           Kokkos::IndexType<std::int64_t>>;
      Kokkos::Array<std::int64_t, N> lower, upper;
      for (int d = 0; d < N; ++d) {
        lower[d] = 0;
        upper[d] = static_cast<std::int64_t>(range.extent[d]);
      }
      Kokkos::parallel_for(plan.label, Policy(space, lower, upper, range_tiles<N>(range)), plan.body);
    }
    return nullptr;
  }

  template <class Kernel, int N, bool Phased, class... Args>
  static std::shared_ptr<LaunchStatus> run(const ExecSpace& space, const NdRangePlan<Kernel, N, Phased, Args...>& plan) {
    using Plan = NdRangePlan<Kernel, N, Phased, Args...>;
    using Bounds = typename Plan::Bounds;
    using Policy = std::conditional_t<
        Bounds::max_work_items == 0, Kokkos::TeamPolicy<ExecSpace>,
        Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<Bounds::max_work_items, Bounds::min_groups_per_unit>>>;
    DeviceGroupFunctor<ExecSpace, decltype(plan.body), Phased> functor{plan.body};
    // A kernel that scans also holds device_collective_bytes of static shared memory
    // (device/detail/collectives.hpp): count them against the fast level.
    const std::size_t local_bytes = plan.body.layout.total;
    functor.body.scratch_level = local_bytes + device_collective_bytes <= fast_local_memory_bytes<ExecSpace>() ? 0 : 1;
    // Room to align the group's memory to scratch_alignment (Kokkos' team scratch may
    // start at any 8-byte boundary; Vec loads need 16).
    const auto scratch = Kokkos::PerTeam(static_cast<std::ptrdiff_t>(local_bytes ? local_bytes + scratch_alignment : 0));
    Policy probe(space, static_cast<int>(plan.groups), 1);
    probe.set_scratch_size(functor.body.scratch_level, scratch);
    const auto kernel_max = static_cast<std::size_t>(probe.team_size_max(functor, Kokkos::ParallelForTag()));
    validate_group_size(plan.group_size, kernel_max, space_name<ExecSpace>(),
                        " for this kernel's register and local memory use");
    Kokkos::parallel_for(plan.label,
                         Policy(space, static_cast<int>(plan.groups), static_cast<int>(plan.group_size), 1)
                             .set_scratch_size(functor.body.scratch_level, scratch),
                         functor);
    return nullptr;
  }
};

}  // namespace kapi::detail
