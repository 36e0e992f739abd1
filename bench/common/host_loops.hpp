// SPDX-License-Identifier: Apache-2.0
#pragma once
// How the host anchors run their plain loops. On Kokkos' OpenMP backend: an OpenMP
// parallel loop with as many threads as the space. On the other host backends (Serial,
// Threads): the same SIMD loop cut into one contiguous chunk per Kokkos thread, run by
// Kokkos' own pool, since a second pool of OpenMP threads next to Kokkos' waiting
// workers would measure their contention, not the machine (those builds compile the
// SIMD loops with -fopenmp-simd and do not link the OpenMP runtime at all: its start-up
// binding, OMP_PROC_BIND, would pin Kokkos' threads too).
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace kapi_bench {

enum class HostLoop { openmp, chunked };
inline constexpr HostLoop host_loop =
#if defined(_OPENMP) && defined(KOKKOS_ENABLE_OPENMP)
    std::is_same_v<Kokkos::DefaultHostExecutionSpace, Kokkos::OpenMP> ? HostLoop::openmp :
#endif
                                                                      HostLoop::chunked;

// An OpenMP SIMD directive, where the compiler was given OpenMP or OpenMP-SIMD (else none).
#if defined(_OPENMP) || defined(KAPI_BENCH_OPENMP_SIMD)
#define KAPI_BENCH_PRAGMA(directive) _Pragma(#directive)
#else
#define KAPI_BENCH_PRAGMA(directive)
#endif

/// Runs body(t) for every chunk t < chunks on the default host execution space's threads.
template <class Body>
void run_host_chunks(int chunks, const Body& body) {
  Kokkos::parallel_for("bench::host_chunks", Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, chunks), body);
  Kokkos::DefaultHostExecutionSpace().fence();
}

/// [begin, end) of chunk t of n elements cut into `chunks` contiguous pieces.
inline std::pair<std::int64_t, std::int64_t> chunk(std::int64_t n, int chunks, int t) {
  return {n * t / chunks, n * (t + 1) / chunks};
}

}  // namespace kapi_bench
