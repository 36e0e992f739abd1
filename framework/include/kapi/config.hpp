#pragma once
// Compile-time switches shared by every kapi header.
#include <Kokkos_Core.hpp>

// 1 while the compiler generates accelerator code (the device pass of nvcc, hipcc or a
// SYCL compiler); 0 in host passes, including the host pass of a CUDA build. It says how
// this pass compiles, not where a launch runs: that is kapi::is_host_execution_space_v
// (execution_space.hpp).
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__) || defined(__SYCL_DEVICE_ONLY__)
#define KAPI_COMPILING_DEVICE_CODE 1
#else
#define KAPI_COMPILING_DEVICE_CODE 0
#endif

// Everything callable from a kernel.
#define KAPI_FUNCTION KOKKOS_INLINE_FUNCTION
