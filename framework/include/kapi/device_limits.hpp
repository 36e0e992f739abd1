// SPDX-License-Identifier: Apache-2.0
#pragma once
// What an execution space allows a launch: work-group size and local memory.
#include <algorithm>
#include <cstddef>

#include <kapi/config.hpp>
#include <kapi/execution_space.hpp>
#include <kapi/detail/group_geometry.hpp>
#include <kapi/detail/kernel_args.hpp>

namespace kapi {

/// Largest work-group a host backend runs. Each work-item of a group that reaches a
/// barrier gets its own context (host/detail/stack_pool.hpp: a 128 KiB stack above a
/// 64 KiB guard, a few KiB touched), so 1024 items cost the host thread about 196 MiB of
/// reserved address space and a few MiB of touched memory.
inline constexpr std::size_t host_max_work_group_size = 1024;

/// Most work-items one group may hold on `ExecSpace` (for a device, the hardware limit;
/// a kernel using many registers may get less, which the launch checks).
template <class ExecSpace = Kokkos::DefaultExecutionSpace>
std::size_t max_work_group_size() {
  if constexpr (kapi::is_host_execution_space_v<ExecSpace>) {
    return host_max_work_group_size;
  } else {
    return detail::device_max_group_size;  // CUDA/HIP block limit
  }
}

/// Most bytes of local memory (all LocalAccessor arguments together) per group. Beyond
/// the fast level-0 team scratch, Kokkos places the group's memory in level-1 scratch.
/// (A launch keeps detail::scratch_alignment bytes of the team scratch to align it.)
template <class ExecSpace = Kokkos::DefaultExecutionSpace>
std::size_t max_local_memory_bytes() {
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  const auto bytes = static_cast<std::size_t>(std::max(Policy::scratch_size_max(0), Policy::scratch_size_max(1)));
  return bytes - detail::scratch_alignment;
}

/// Bytes of fast (level-0) local memory per group.
template <class ExecSpace = Kokkos::DefaultExecutionSpace>
std::size_t fast_local_memory_bytes() {
  return static_cast<std::size_t>(Kokkos::TeamPolicy<ExecSpace>::scratch_size_max(0)) - detail::scratch_alignment;
}

}  // namespace kapi
