// SPDX-License-Identifier: Apache-2.0
#pragma once
// The team backend: launches through Kokkos policies, the fallback every Kokkos device
// backend gets (HIP, and any space kapi has no launcher of its own for; CUDA's own
// launches, cuda/detail/launcher.hpp, fall back to it). A range kernel is a Kokkos
// RangePolicy or MDRangePolicy; a work-group is a Kokkos team, one thread per work-item,
// its local memory the team's scratch.
// Reduction arguments: the same policies in a Kokkos parallel_reduce, every GPU thread
// combining into its own partials; the final hook stores the results in the variables on
// the device. Kokkos writes its copy of the value into a device buffer nobody reads
// (device_reduction_sink), so the launch needs no fence: it stays asynchronous.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <mutex>
#include <type_traits>

#include <kapi/detail/kernel_names.hpp>
#include <kapi/detail/launch_plan.hpp>
#include <kapi/detail/launch_status.hpp>
#include <kapi/detail/reductions.hpp>
#include <kapi/device_limits.hpp>
#include <kapi/team/detail/collectives.hpp>

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

/// Calls run(scratch) with the group's local memory under a constant scratch level, one
/// branch per level (NdRangeBody::group_scratch says why); a kernel without local memory
/// gets no scratch code at all: Kokkos' level-1 scratch set-up (a 64-bit division) would
/// otherwise be hoisted into every team's start. Captured: the kernel captured
/// LocalAccessors (detail/captured_locals.hpp), which the argument types do not show.
template <bool Captured, class Body, class Member, class Run>
KAPI_FUNCTION void with_group_scratch(const Body& body, const Member& team, const Run& run) {
  if constexpr (!Body::has_local_memory && !Captured)
    run(static_cast<char*>(nullptr));
  else if (body.scratch_level == 0)
    run(body.template group_scratch<0>(team));
  else
    run(body.template group_scratch<1>(team));
}

/// Runs call(body, group, me, scratch) for each of the team's groups, league-stride
/// (device_teams says how many teams), so a team's start in Kokkos, which costs far more
/// than a few stores, and the work-item's local ids are paid once per team, not once per
/// group. Groups that share a team's local memory are separated by a team barrier: the
/// next group's first writes wait for the last reads of the one before. With captured
/// LocalAccessors the groups run a copy of the body whose kernel points them at the team's
/// memory.
template <bool Captured, class Body, class Member, class Call>
KAPI_FUNCTION void for_each_team_group(const Body& body, const CapturedLocalsIf<Captured>& captured, const Member& team,
                                       std::size_t groups, const Call& call) {
  with_group_scratch<Captured>(body, team, [&](char* scratch) {
    const auto run_groups = [&](const Body& b) {
      // 32-bit counting, as cuda/detail/group_launch.hpp's loop (why there).
      const unsigned me = team.team_rank(), stride = team.league_size(), count = static_cast<unsigned>(groups);
      for (unsigned group = team.league_rank(); group < count; group += stride) {
        call(b, group, me, scratch);
        if (scratch && group + stride < count) team.team_barrier();
      }
    };
    if constexpr (Captured) {
      Body bound = body;
      bound.bind_captured(captured, scratch);
      run_groups(bound);
    } else {
      (void)captured;
      run_groups(body);
    }
  });
}

/// Work-groups on Kokkos teams, one work-item per team member; a phased kernel's members
/// all run the group's call.
template <class ExecSpace, class Body, bool Phased, bool Captured = false>
struct DeviceGroupFunctor {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Body body;
  std::size_t groups;
  CapturedLocalsIf<Captured> captured;

  KAPI_FUNCTION void operator()(const Member& team) const {
    for_each_team_group<Captured>(body, captured, team, groups,
                                  [&](const Body& b, std::size_t group, std::size_t me, char* scratch) {
                                    if constexpr (Phased)
                                      b.run_group(group, me, scratch, GroupHandle{});
                                    else
                                      b.run_item(group, me, scratch, GroupHandle{});
                                  });
  }
};

/// Nd-range kernels with reductions: each team member combines into its own partials.
template <class ExecSpace, class Body, bool Captured = false>
struct DeviceGroupReduceFunctor {
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Body body;
  std::size_t groups;
  CapturedLocalsIf<Captured> captured;
  KAPI_IMPL_REDUCTION_HOOKS(typename Body::partials_type, body.args)

  KAPI_FUNCTION void operator()(const Member& team, value_type& partials) const {
    for_each_team_group<Captured>(body, captured, team, groups,
                                  [&](const Body& b, std::size_t group, std::size_t me, char* scratch) {
                                    b.run_item(group, me, scratch, GroupHandle{}, partials);
                                  });
  }
};

/// Teams for a work-group launch: about device_groups_per_team groups each, between
/// device_min_group_waves and device_max_group_waves times the teams the device holds at
/// once (never more teams than groups). Many groups want many waves (the last wave's
/// stragglers matter less), but a team that runs only a few groups costs more than it
/// gives: a team's start is paid once for all its groups. The bounds were chosen by
/// measurement (init3d's nd-range kernel; the figures are in results/ and docs/).
inline constexpr std::size_t device_groups_per_team = 32, device_min_group_waves = 8, device_max_group_waves = 128;

inline std::size_t device_teams(std::size_t groups, std::size_t group_size, std::size_t concurrency) {
  const std::size_t wave = std::max<std::size_t>(1, concurrency / group_size);
  const std::size_t teams =
      std::clamp(groups / device_groups_per_team, device_min_group_waves * wave, device_max_group_waves * wave);
  return std::min(groups, teams);
}

/// Range kernels with reductions, one form per rank (the indices Kokkos' RangePolicy or
/// MDRangePolicy passes, then the partials).
template <class Body, int N = Body::dimensions>
struct DeviceRangeReduceFunctor;

template <class Body>
struct DeviceRangeReduceFunctor<Body, 1> {
  Body body;
  KAPI_IMPL_REDUCTION_HOOKS(typename Body::partials_type, body.args)
  KAPI_FUNCTION void operator()(std::int64_t i, value_type& partials) const {
    const std::size_t id[1] = {std::size_t(i)};
    body.call(Item<1>(id, body.range.extent), partials, typename Body::arg_indices());
  }
};
template <class Body>
struct DeviceRangeReduceFunctor<Body, 2> {
  Body body;
  KAPI_IMPL_REDUCTION_HOOKS(typename Body::partials_type, body.args)
  KAPI_FUNCTION void operator()(std::int64_t i, std::int64_t j, value_type& partials) const {
    const std::size_t id[2] = {std::size_t(i), std::size_t(j)};
    body.call(Item<2>(id, body.range.extent), partials, typename Body::arg_indices());
  }
};
template <class Body>
struct DeviceRangeReduceFunctor<Body, 3> {
  Body body;
  KAPI_IMPL_REDUCTION_HOOKS(typename Body::partials_type, body.args)
  KAPI_FUNCTION void operator()(std::int64_t i, std::int64_t j, std::int64_t k, value_type& partials) const {
    const std::size_t id[3] = {std::size_t(i), std::size_t(j), std::size_t(k)};
    body.call(Item<3>(id, body.range.extent), partials, typename Body::arg_indices());
  }
};

/// Where Kokkos writes its copy of a reduction's value: device memory kept for the
/// process (grown when a larger value comes, freed at Kokkos::finalize). Never read;
/// launches on several streams may write it at once. With a result in device memory a
/// Kokkos reduction does not wait for the device.
template <class MemorySpace, class Value>
Kokkos::View<Value, MemorySpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> device_reduction_sink() {
  static std::mutex mutex;
  static void* buffer = nullptr;
  static std::size_t bytes = 0;
  const std::lock_guard<std::mutex> lock(mutex);
  if (bytes < sizeof(Value)) {
    if (!buffer)  // first use since Kokkos was initialised
      Kokkos::push_finalize_hook([] {
        const std::lock_guard<std::mutex> hook_lock(mutex);
        Kokkos::kokkos_free<MemorySpace>(buffer);
        buffer = nullptr;
        bytes = 0;
      });
    else
      Kokkos::kokkos_free<MemorySpace>(buffer);  // waits for launches still writing it
    bytes = std::max<std::size_t>(sizeof(Value), 256);
    buffer = Kokkos::kokkos_malloc<MemorySpace>("kapi::reduction sink", bytes);
  }
  return Kokkos::View<Value, MemorySpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(static_cast<Value*>(buffer));
}

template <class ExecSpace>
struct TeamLauncher {
  template <class Kernel, int N, class... Args>
  static std::shared_ptr<LaunchStatus> run(const ExecSpace& space, const RangePlan<Kernel, N, Args...>& plan) {
    const auto& range = plan.body.range;
    if constexpr (RangePlan<Kernel, N, Args...>::reduces) {
      using Functor = DeviceRangeReduceFunctor<decltype(plan.body)>;
      const auto sink = device_reduction_sink<typename ExecSpace::memory_space, typename Functor::value_type>();
      if constexpr (N == 1) {
        Kokkos::parallel_reduce(plan.label,
                                Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(
                                    space, 0, static_cast<std::int64_t>(range.extent[0])),
                                Functor{plan.body}, sink);
      } else {
        Kokkos::parallel_reduce(plan.label, md_range_policy(space, range), Functor{plan.body}, sink);
      }
    } else {
      if constexpr (N == 1) {
        Kokkos::parallel_for(plan.label,
                             Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(
                                 space, 0, static_cast<std::int64_t>(range.extent[0])),
                             plan.body);
      } else {
        Kokkos::parallel_for(plan.label, md_range_policy(space, range), plan.body);
      }
    }
    return nullptr;
  }

  template <int N>
  static auto md_range_policy(const ExecSpace& space, const Range<N>& range) {
    using Policy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<N, Kokkos::Iterate::Right, Kokkos::Iterate::Right>,
                                         Kokkos::IndexType<std::int64_t>>;
    Kokkos::Array<std::int64_t, N> lower, upper;
    for (int d = 0; d < N; ++d) {
      lower[d] = 0;
      upper[d] = static_cast<std::int64_t>(range.extent[d]);
    }
    return Policy(space, lower, upper, range_tiles<N>(range));
  }

  template <class Kernel, int N, bool Phased, class... Args>
  static std::shared_ptr<LaunchStatus> run(const ExecSpace& space,
                                           const NdRangePlan<Kernel, N, Phased, Args...>& plan) {
    // A kernel that captured LocalAccessors runs a second compiled form, which binds them.
    if constexpr (NdRangePlan<Kernel, N, Phased, Args...>::may_capture)
      if (plan.captured.count) return run_groups<true>(space, plan);
    return run_groups<false>(space, plan);
  }

  template <bool Captured, class Kernel, int N, bool Phased, class... Args>
  static std::shared_ptr<LaunchStatus> run_groups(const ExecSpace& space,
                                                  const NdRangePlan<Kernel, N, Phased, Args...>& plan) {
    using Plan = NdRangePlan<Kernel, N, Phased, Args...>;
    using Bounds = typename Plan::Bounds;
    using Policy = std::conditional_t<
        Bounds::max_work_items == 0, Kokkos::TeamPolicy<ExecSpace>,
        Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<Bounds::max_work_items, Bounds::min_groups_per_unit>>>;
    const std::size_t teams = device_teams(plan.groups, plan.group_size, static_cast<std::size_t>(space.concurrency()));
    using Functor =
        std::conditional_t<Plan::reduces, DeviceGroupReduceFunctor<ExecSpace, decltype(plan.body), Captured>,
                           DeviceGroupFunctor<ExecSpace, decltype(plan.body), Phased, Captured>>;
    using Tag = std::conditional_t<Plan::reduces, Kokkos::ParallelReduceTag, Kokkos::ParallelForTag>;
    Functor functor{plan.body, plan.groups, plan.captured};
    // A kernel that reduces or scans over a group also holds device_collective_bytes of
    // static shared memory (team/detail/collectives.hpp): count them against the fast level.
    const std::size_t local_bytes = plan.body.layout.total;
    functor.body.scratch_level = local_bytes + device_collective_bytes <= fast_local_memory_bytes<ExecSpace>() ? 0 : 1;
    // Room to align the group's memory to scratch_alignment (Kokkos' team scratch may
    // start at any 8-byte boundary; Vec loads need 16).
    const auto scratch =
        Kokkos::PerTeam(static_cast<std::ptrdiff_t>(local_bytes ? local_bytes + scratch_alignment : 0));
    Policy probe(space, static_cast<int>(plan.groups), 1);
    probe.set_scratch_size(functor.body.scratch_level, scratch);
    const auto kernel_max = static_cast<std::size_t>(probe.team_size_max(functor, Tag()));
    validate_group_size(plan.group_size, kernel_max, ExecSpace::name(),
                        " for this kernel's register and local memory use");
    const auto policy = Policy(space, static_cast<int>(teams), static_cast<int>(plan.group_size), 1)
                            .set_scratch_size(functor.body.scratch_level, scratch);
    if constexpr (Plan::reduces)
      Kokkos::parallel_reduce(plan.label, policy, functor,
                              device_reduction_sink<typename ExecSpace::memory_space, typename Functor::value_type>());
    else
      Kokkos::parallel_for(plan.label, policy, functor);
    return nullptr;
  }
};

}  // namespace kapi::detail
