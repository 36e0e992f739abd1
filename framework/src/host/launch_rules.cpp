// SPDX-License-Identifier: Apache-2.0
// Who may launch on a host backend, and when (kapi/host/detail/launch_rules.hpp): the
// checks every launch makes, compiled once.
#include <kapi/host/detail/launch_rules.hpp>

#include <Kokkos_Core.hpp>

#if defined(KOKKOS_ENABLE_OPENMP)
#include <omp.h>
#endif

namespace kapi::detail {

void check_launching_thread(LaunchThreadRules rules, const char* what) {
  if (host_kernel_running())
    throw launch_error(std::string(what) +
                       " was called from inside a kernel: kernels cannot launch kernels (SYCL has no device-side "
                       "launch either); launch it from host code after the enclosing kernel has returned");
#if defined(KOKKOS_ENABLE_OPENMP)
  if (rules == LaunchThreadRules::openmp) {
    if (omp_in_parallel())
      throw launch_error(std::string(what) +
                         " on Kokkos::OpenMP was called from inside an OpenMP parallel region: Kokkos runs its "
                         "OpenMP launches from outside any parallel region; launch after the region, or on "
                         "Kokkos::Serial from inside it");
#if KOKKOS_VERSION < 40000  // Kokkos 4 runs OpenMP launches from any thread (and deprecates in_parallel)
    if (Kokkos::OpenMP::in_parallel())
      throw launch_error(std::string(what) +
                         " on Kokkos::OpenMP was called from a thread other than the one that initialised Kokkos: "
                         "this Kokkos runs OpenMP launches from that thread only; launch from it (for example, hand "
                         "the work to it), or use Kokkos::Serial on this thread");
#endif
  }
#endif
#if defined(KOKKOS_ENABLE_THREADS)
  if (rules == LaunchThreadRules::threads) {
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
  (void)rules;
}

}  // namespace kapi::detail
