#pragma once
// Who may launch on a host backend, and when (the README's "Threading and error
// contract"):
// - Never from inside a kernel: a launch from a work-item throws launch_error (SYCL has no
//   device-side enqueue either); detected with a flag every host kernel sets on its thread.
// - Kokkos::Serial keeps one team-scratch and reduction buffer per process (Kokkos 3.x), so
//   launches from several threads on it take turns (a process-wide lock) instead of
//   sharing that buffer; Kokkos::Threads keeps one thread pool, so its launches take turns
//   the same way.
// - Kokkos::OpenMP 3.x runs launches only from the thread that initialised it, outside any
//   OpenMP parallel region: anything else throws launch_error saying so.
#include <mutex>
#include <string>
#include <type_traits>

#include "../config.hpp"
#include "../errors.hpp"

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
    if (Kokkos::OpenMP::in_parallel(space))
      throw launch_error(std::string(what) +
                         " on Kokkos::OpenMP was called from a thread other than the one that initialised Kokkos: "
                         "this Kokkos runs OpenMP launches from that thread only; launch from it (for example, hand "
                         "the work to it), or use Kokkos::Serial on this thread");
  }
#endif
#if defined(KOKKOS_ENABLE_THREADS)
  if constexpr (std::is_same_v<ExecSpace, Kokkos::Threads>) {
    if (Kokkos::Threads::in_parallel())
      throw launch_error(std::string(what) + " on Kokkos::Threads was called while a Kokkos::Threads launch is running "
                                             "on this thread");
  }
#endif
}

/// Held around a dispatch on a backend whose launches share process-wide state.
template <class ExecSpace>
std::unique_lock<std::mutex> host_dispatch_turn() {
  constexpr bool shared_state =
#if defined(KOKKOS_ENABLE_SERIAL)
      std::is_same_v<ExecSpace, Kokkos::Serial> ||
#endif
#if defined(KOKKOS_ENABLE_THREADS)
      std::is_same_v<ExecSpace, Kokkos::Threads> ||
#endif
      false;
  if constexpr (shared_state) {
    static std::mutex turn;
    return std::unique_lock<std::mutex>(turn);
  } else {
    return {};
  }
}

}  // namespace kapi::detail
