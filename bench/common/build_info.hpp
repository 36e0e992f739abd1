// SPDX-License-Identifier: Apache-2.0
#pragma once
// How a benchmark binary was built, for its result file's context: read from the macros
// and the compiler settings of the binary's own compilation (bench/CMakeLists.txt
// defines KAPI_CONFIG_NAME, KAPI_BENCH_CXX_FLAGS and KAPI_BENCH_BUILD_TYPE per binary),
// so it is included where run_main is called, not compiled into the harness library.
#include <string>

#if defined(_OPENMP)
#include <omp.h>
#endif

#ifndef KAPI_CONFIG_NAME
#define KAPI_CONFIG_NAME "custom"
#endif
#ifndef KAPI_BENCH_CXX_FLAGS
#define KAPI_BENCH_CXX_FLAGS "unknown"
#endif
#ifndef KAPI_BENCH_BUILD_TYPE
#define KAPI_BENCH_BUILD_TYPE "unknown"
#endif

namespace kapi_bench {

/// Whether and how OpenMP was compiled into the calling translation unit.
inline std::string openmp_info() {
#if defined(_OPENMP)
  return std::to_string(_OPENMP) + ", max threads " + std::to_string(omp_get_max_threads());
#elif defined(KAPI_BENCH_OPENMP_SIMD)
  return "SIMD directives only (-fopenmp-simd), no OpenMP runtime";
#else
  return "not compiled in";
#endif
}

struct BuildInfo {
  std::string config;       // the configuration (openmp, cuda-hopper, ...)
  std::string cxx_flags;    // the compiler flags, spaces written as commas
  std::string build_type;   // CMAKE_BUILD_TYPE
  std::string (*openmp)();  // asked once Kokkos runs (its initialisation may set the threads)
};

/// The BuildInfo of the translation unit that calls it.
inline BuildInfo build_info() {
  return BuildInfo{KAPI_CONFIG_NAME, KAPI_BENCH_CXX_FLAGS, KAPI_BENCH_BUILD_TYPE, openmp_info};
}

}  // namespace kapi_bench
