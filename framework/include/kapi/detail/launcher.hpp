// SPDX-License-Identifier: Apache-2.0
#pragma once
// The second step of a launch: run a plan (detail/launch_plan.hpp) on a backend, chosen
// here by the execution-space type (space_traits.hpp). Each backend is its own folder:
//   host/detail/launcher.hpp  spaces whose work runs on host threads (Serial, OpenMP,
//                             Threads, HPX): work-groups run by the host engine
//   cuda/detail/launcher.hpp  Kokkos::Cuda: kapi's own CUDA launches where they apply,
//                             else the team backend's
//   team/detail/launcher.hpp  every other space (HIP, any new Kokkos device backend): a
//                             work-group is a Kokkos team
// A launcher has
//   static std::shared_ptr<LaunchStatus> run(const ExecSpace&, const RangePlan<…>&);
//   static std::shared_ptr<LaunchStatus> run(const ExecSpace&, const NdRangePlan<…>&);
// and returns the status failures are recorded in while the launch runs (host), or nullptr.
// Adding a backend: its Launcher in its own folder, selected in device_launcher below
// (docs/architecture.md, "Adding a backend").
#include <memory>

#include <kapi/detail/launch_status.hpp>
#include <kapi/execution_space.hpp>
#include <kapi/space_traits.hpp>

namespace kapi::detail {

template <class ExecSpace, bool Host = is_host_execution_space_v<ExecSpace>>
struct Launcher;

}  // namespace kapi::detail

#include <kapi/cuda/detail/launcher.hpp>
#include <kapi/team/detail/launcher.hpp>

namespace kapi::detail {

/// The launcher of a space whose work does not run on host threads.
template <class ExecSpace, class = void>
struct device_launcher {
  using type = TeamLauncher<ExecSpace>;
};
#if KAPI_HAS_CUDA_LAUNCHER
template <class ExecSpace>
struct device_launcher<ExecSpace, std::enable_if_t<space_traits<ExecSpace>::is_cuda>> {
  using type = CudaLauncher<ExecSpace>;
};
#endif

template <class ExecSpace>
struct Launcher<ExecSpace, false> : device_launcher<ExecSpace>::type {};

}  // namespace kapi::detail

#if !KAPI_COMPILING_DEVICE_CODE
#include <kapi/host/detail/launcher.hpp>
#else
namespace kapi::detail {
// The device pass of a CUDA/HIP build compiles host code only to discard it: the host
// engine (fibers, signals) is left out of that pass.
template <class ExecSpace>
struct Launcher<ExecSpace, true> {
  template <class Plan>
  static std::shared_ptr<LaunchStatus> run(const ExecSpace&, const Plan&) {
    return nullptr;
  }
};
}  // namespace kapi::detail
#endif
