// SPDX-License-Identifier: Apache-2.0
#pragma once
// Who may launch on a host backend, and when (the README's "Threading and error
// contract"):
// - Never from inside a kernel: a launch from a work-item throws launch_error (SYCL has no
//   device-side enqueue either); detected with a flag every host kernel sets on its thread.
// - Kokkos::Serial keeps one team-scratch and reduction buffer per process (Kokkos 3.x):
//   kapi's own launches do not use it (host work-groups run in a RangePolicy with each
//   thread's own local memory) and run concurrently from several threads; dispatches that
//   use Kokkos teams on it (loop-nest policies) take turns (a process-wide lock).
//   Kokkos::Threads keeps one thread pool, so every launch on it takes turns.
// - Kokkos::OpenMP 3.x runs launches only from the thread that initialised it, outside any
//   OpenMP parallel region: anything else throws launch_error saying so.
#include <mutex>
#include <string>
#include <type_traits>

#include <kapi/config.hpp>
#include <kapi/errors.hpp>

namespace kapi::detail {

inline bool& host_kernel_running() {
  static thread_local bool running = false;
  return running;
}

/// Marks this thread as running a kernel's work-items for the scope's lifetime.
class HostKernelScope {
 public:
  HostKernelScope() : outer_(host_kernel_running()) { host_kernel_running() = true; }
  ~HostKernelScope() { host_kernel_running() = outer_; }
  HostKernelScope(const HostKernelScope&) = delete;
  HostKernelScope& operator=(const HostKernelScope&) = delete;

 private:
  bool outer_;
};

/// Which of Kokkos' own rules about launching threads apply to a space.
enum class LaunchThreadRules { kapi_only, openmp, threads };

template <class ExecSpace>
constexpr LaunchThreadRules launch_thread_rules() {
#if defined(KOKKOS_ENABLE_OPENMP)
  if constexpr (std::is_same_v<ExecSpace, Kokkos::OpenMP>) return LaunchThreadRules::openmp;
#endif
#if defined(KOKKOS_ENABLE_THREADS)
  if constexpr (std::is_same_v<ExecSpace, Kokkos::Threads>) return LaunchThreadRules::threads;
#endif
  return LaunchThreadRules::kapi_only;
}

/// Throws launch_error when this thread may not launch under `rules` now (compiled in the
/// runtime, src/host/launch_rules.cpp: every launch calls it).
void check_launching_thread(LaunchThreadRules rules, const char* what);

/// Throws launch_error when this thread may not launch on `space` now.
template <class ExecSpace>
void check_launching_thread(const ExecSpace&, const char* what) {
  check_launching_thread(launch_thread_rules<ExecSpace>(), what);
}

/// What a host dispatch uses of Kokkos: plain loops (RangePolicy, MDRangePolicy) or team
/// machinery (TeamPolicy: Kokkos::Serial's process-wide team and scratch buffers).
enum class HostDispatch { loops, teams };

/// Held around a dispatch on a backend whose launches share process-wide state: every
/// Kokkos::Threads launch (one thread pool), Kokkos::Serial launches that use teams.
template <class ExecSpace>
std::unique_lock<std::mutex> host_dispatch_turn(HostDispatch uses = HostDispatch::loops) {
  bool shared_state = false;
#if defined(KOKKOS_ENABLE_SERIAL)
  if constexpr (std::is_same_v<ExecSpace, Kokkos::Serial>) shared_state = uses == HostDispatch::teams;
#endif
#if defined(KOKKOS_ENABLE_THREADS)
  if constexpr (std::is_same_v<ExecSpace, Kokkos::Threads>) shared_state = true;
#endif
  (void)uses;
  static std::mutex turn;
  return shared_state ? std::unique_lock<std::mutex>(turn) : std::unique_lock<std::mutex>();
}

}  // namespace kapi::detail
