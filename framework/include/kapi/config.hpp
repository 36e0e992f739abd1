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

// KAPI_DEVICE_ASSUME(fact): a fact about an id or extent that every device launch
// guarantees (work-groups of at most 1024 work-items, fewer than 2^31 groups per
// dimension), told to the device compiler so that it can keep size_t index arithmetic
// in 32 bits; nothing in host passes.
#if KAPI_COMPILING_DEVICE_CODE && (defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__))
#define KAPI_DEVICE_ASSUME(fact) __builtin_assume(fact)
#else
#define KAPI_DEVICE_ASSUME(fact) ((void)sizeof(fact))  // names its variables, evaluates nothing
#endif

// Everything callable from a kernel.
#define KAPI_FUNCTION KOKKOS_INLINE_FUNCTION

// A host loop over work-items, always inlined where the launch calls it. There the kernel
// and its arguments are a local copy whose address does not escape, so the compiler knows
// the kernel's stores cannot change them: it keeps them in registers and can vectorise.
// Left out of line (GCC does so for loops over big kernels), the loop reaches them through
// a pointer and reloads them per work-item: the phased matmul ran at 81% of its raw-Kokkos
// twin that way, 100% inlined.
#if defined(__GNUC__) || defined(__clang__)
#define KAPI_INLINE_HOST_LOOP [[gnu::always_inline]] inline
#else
#define KAPI_INLINE_HOST_LOOP inline
#endif

// A deduction guide that kernels use. Clang compiling HIP (or CUDA) takes a written
// deduction guide for a host function and refuses it in device code (clang 15: "reference
// to __host__ function '<deduction guide for AtomicRef>' in __host__ __device__
// function"); it accepts the target attributes on the guide. nvcc and host compilers need none.
#if defined(__clang__) && (defined(__HIP__) || defined(__CUDA__))
#define KAPI_DEDUCTION_GUIDE __host__ __device__
#else
#define KAPI_DEDUCTION_GUIDE
#endif
