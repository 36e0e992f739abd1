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

#if defined(KOKKOS_ENABLE_OPENMP)
#include <omp.h>
#endif

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

/// Throws launch_error when this thread may not launch on `space` now.
template <class ExecSpace>
void check_launching_thread(const ExecSpace& space, const char* what) {
  (void)space;
  if (host_kernel_running())
    throw launch_error(std::string(what) +
                       " was called from inside a kernel: kernels cannot launch kernels (SYCL has no device-side "
                       "launch either); launch it from host code after the enclosing kernel has returned");
#if defined(KOKKOS_ENABLE_OPENMP)
  if constexpr (std::is_same_v<ExecSpace, Kokkos::OpenMP>) {
    if (omp_in_parallel())
      throw launch_error(std::string(what) +
                         " on Kokkos::OpenMP was called from inside an OpenMP parallel region: Kokkos runs its "
                         "OpenMP launches from outside any parallel region; launch after the region, or on "
                         "Kokkos::Serial from inside it");
#if KOKKOS_VERSION < 40000  // Kokkos 4 runs OpenMP launches from any thread (and deprecates in_parallel)
    if (Kokkos::OpenMP::in_parallel(space))
      throw launch_error(std::string(what) +
                         " on Kokkos::OpenMP was called from a thread other than the one that initialised Kokkos: "
                         "this Kokkos runs OpenMP launches from that thread only; launch from it (for example, hand "
                         "the work to it), or use Kokkos::Serial on this thread");
#endif
  }
#endif
#if defined(KOKKOS_ENABLE_THREADS)
  if constexpr (std::is_same_v<ExecSpace, Kokkos::Threads>) {
    // Kokkos 4 deprecates in_parallel without a public replacement; the question stands.
#if KOKKOS_VERSION >= 40000 && defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
    const bool inside_threads_launch = Kokkos::Threads::in_parallel();
#if KOKKOS_VERSION >= 40000 && defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
    if (inside_threads_launch)
      throw launch_error(std::string(what) +
                         " on Kokkos::Threads was called while a Kokkos::Threads launch is running "
                         "on this thread");
  }
#endif
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
