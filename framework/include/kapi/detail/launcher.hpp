#pragma once
// The second step of a launch: run a plan (detail/launch_plan.hpp) on a backend. Each
// backend is its own file holding one Launcher specialisation:
//   host/detail/launcher.hpp    spaces whose work runs on host threads (Serial, OpenMP,
//                               Threads): work-groups run by the host engine
//   device/detail/launcher.hpp  every other space: a work-group is a Kokkos team
// A launcher has
//   static std::shared_ptr<LaunchStatus> run(const ExecSpace&, const RangePlan<…>&);
//   static std::shared_ptr<LaunchStatus> run(const ExecSpace&, const NdRangePlan<…>&);
// and returns the status failures are recorded in while the launch runs (host), or nullptr.
// Adding a backend: a new Launcher specialisation in its own folder, selected here.
#include <memory>

#include <kapi/detail/launch_status.hpp>
#include <kapi/execution_space.hpp>

namespace kapi::detail {

template <class ExecSpace, bool Host = is_host_execution_space_v<ExecSpace>>
struct Launcher;

}  // namespace kapi::detail

#include <kapi/device/detail/launcher.hpp>
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
