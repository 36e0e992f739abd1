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

// A deduction guide that kernels use. Clang compiling HIP (or CUDA) takes a written
// deduction guide for a host function and refuses it in device code (clang 15: "reference
// to __host__ function '<deduction guide for AtomicRef>' in __host__ __device__
// function"); it accepts the target attributes on the guide. nvcc and host compilers need none.
#if defined(__clang__) && (defined(__HIP__) || defined(__CUDA__))
#define KAPI_DEDUCTION_GUIDE __host__ __device__
#else
#define KAPI_DEDUCTION_GUIDE
#endif
