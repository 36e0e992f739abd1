// SPDX-License-Identifier: Apache-2.0
#pragma once
// Each app's variants are compiled once per build, in the app's library: its header
// declares every (element type, execution space) instance of the variants' entry points
// `extern`, and the library's src/instances.cpp defines them. The program, the tests and
// the benchmarks that include the header then link those instances instead of compiling
// each variant again. A type or space not in the list is instantiated where it is used,
// as without this file.
//
// KAPI_APPS_FOR_EACH_SPACE(M, prefix) expands M(prefix, Space) for every execution space
// the build enables (the list of kapi::enabled_execution_spaces); prefix is `extern` in
// the header and empty in src/instances.cpp.
#include <Kokkos_Core.hpp>

#if defined(KOKKOS_ENABLE_CUDA)
#define KAPI_APPS_INSTANCES_CUDA(M, prefix) M(prefix, Kokkos::Cuda)
#else
#define KAPI_APPS_INSTANCES_CUDA(M, prefix)
#endif
#if defined(KOKKOS_ENABLE_HIP) && KOKKOS_VERSION >= 40000
#define KAPI_APPS_INSTANCES_HIP(M, prefix) M(prefix, Kokkos::HIP)
#elif defined(KOKKOS_ENABLE_HIP)
#define KAPI_APPS_INSTANCES_HIP(M, prefix) M(prefix, Kokkos::Experimental::HIP)
#else
#define KAPI_APPS_INSTANCES_HIP(M, prefix)
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
#define KAPI_APPS_INSTANCES_OPENMP(M, prefix) M(prefix, Kokkos::OpenMP)
#else
#define KAPI_APPS_INSTANCES_OPENMP(M, prefix)
#endif
#if defined(KOKKOS_ENABLE_THREADS)
#define KAPI_APPS_INSTANCES_THREADS(M, prefix) M(prefix, Kokkos::Threads)
#else
#define KAPI_APPS_INSTANCES_THREADS(M, prefix)
#endif
#if defined(KOKKOS_ENABLE_SERIAL)
#define KAPI_APPS_INSTANCES_SERIAL(M, prefix) M(prefix, Kokkos::Serial)
#else
#define KAPI_APPS_INSTANCES_SERIAL(M, prefix)
#endif

#define KAPI_APPS_FOR_EACH_SPACE(M, prefix) \
  KAPI_APPS_INSTANCES_CUDA(M, prefix)       \
  KAPI_APPS_INSTANCES_HIP(M, prefix)        \
  KAPI_APPS_INSTANCES_OPENMP(M, prefix) KAPI_APPS_INSTANCES_THREADS(M, prefix) KAPI_APPS_INSTANCES_SERIAL(M, prefix)

// In src/instances.cpp: M(, Space) for the one space this object file compiles
// (KAPI_APPS_INSTANCE_SPACE, a token of the list above: CUDA, HIP, OPENMP, THREADS,
// SERIAL; the build compiles one object per space, in parallel), or for every space.
#define KAPI_APPS_INSTANCES_CAT_(a, b) a##b
#define KAPI_APPS_INSTANCES_CAT(a, b) KAPI_APPS_INSTANCES_CAT_(a, b)
#if defined(KAPI_APPS_INSTANCE_SPACE)
#define KAPI_APPS_DEFINE_INSTANCES(M) KAPI_APPS_INSTANCES_CAT(KAPI_APPS_INSTANCES_, KAPI_APPS_INSTANCE_SPACE)(M, )
#else
#define KAPI_APPS_DEFINE_INSTANCES(M) KAPI_APPS_FOR_EACH_SPACE(M, )
#endif
