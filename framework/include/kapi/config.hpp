// SPDX-License-Identifier: Apache-2.0
#pragma once
// Compile-time switches shared by every kapi header.
#include <Kokkos_Core.hpp>

// Which pass the compiler is in. The only place kapi reads the compilers' device macros
// (__CUDA_ARCH__, __HIP_DEVICE_COMPILE__, ...); every other header asks these:
// - KAPI_COMPILING_CUDA_DEVICE_CODE: 1 in the device pass of nvcc or clang's CUDA mode;
// - KAPI_COMPILING_HIP_DEVICE_CODE: 1 in the device pass of hipcc (clang's HIP mode);
// - KAPI_COMPILING_DEVICE_CODE: 1 in either; 0 in host passes, including the host pass of
//   a CUDA or HIP build. It says how this pass compiles, not where a launch runs: that is
//   kapi::space_traits<Space>::is_host (space_traits.hpp);
// - KAPI_CUDA_ARCH: __CUDA_ARCH__ (e.g. 900) in a CUDA device pass, 0 in any other pass.
// kapi's device code is written for CUDA warps and HIP wavefronts: any other device
// compiler stops here with a message, rather than getting CUDA's sub-group size and a
// no-op sub-group barrier without a word.
#if defined(__CUDA_ARCH__) && defined(__HIP_DEVICE_COMPILE__)
#error \
    "kapi: both __CUDA_ARCH__ and __HIP_DEVICE_COMPILE__ are defined (HIP on NVIDIA?): kapi supports CUDA through Kokkos::Cuda (nvcc or clang) and HIP on AMD GPUs"
#elif defined(__CUDA_ARCH__)
#define KAPI_COMPILING_CUDA_DEVICE_CODE 1
#define KAPI_COMPILING_HIP_DEVICE_CODE 0
#define KAPI_CUDA_ARCH __CUDA_ARCH__
#elif defined(__HIP_DEVICE_COMPILE__)
#define KAPI_COMPILING_CUDA_DEVICE_CODE 0
#define KAPI_COMPILING_HIP_DEVICE_CODE 1
#define KAPI_CUDA_ARCH 0
#elif defined(__SYCL_DEVICE_ONLY__)
#error \
    "kapi: SYCL device compilers (__SYCL_DEVICE_ONLY__) are not supported: kapi's device code is written for CUDA and HIP; use Kokkos' Serial, OpenMP, Threads, CUDA or HIP backend"
#elif defined(_NVHPC_CUDA) || defined(__NVCOMPILER_CUDA__)
#error \
    "kapi: NVHPC's CUDA mode (nvc++ -cuda) is not supported: it compiles host and device code in one pass, kapi's device code needs CUDA's split passes; compile with nvcc (Kokkos' nvcc_wrapper) or clang"
#elif defined(__NVCOMPILER) && (defined(KOKKOS_ENABLE_OPENMPTARGET) || defined(KOKKOS_ENABLE_OPENACC))
#error \
    "kapi: NVHPC offload (-mp=gpu, -acc=gpu) is not supported: it compiles host and device code in one pass, kapi's device code needs CUDA's or HIP's split passes"
// (clang's HIP and CUDA host passes define the device target's macros too, __AMDGCN__
// with hipcc: only a pass that is neither HIP nor CUDA stops here.)
#elif (defined(__NVPTX__) || defined(__nvptx__) || defined(__AMDGCN__) || defined(__amdgcn__) || defined(__SPIR__) || \
       defined(__SPIRV__)) &&                                                                                         \
    !defined(__HIP__) && !defined(__CUDA__)
#error \
    "kapi: this is a GPU device pass that is neither CUDA nor HIP (OpenMP or OpenACC offload?), which kapi does not support: its device code is written for CUDA (nvcc, clang) and HIP (hipcc)"
#else
#define KAPI_COMPILING_CUDA_DEVICE_CODE 0
#define KAPI_COMPILING_HIP_DEVICE_CODE 0
#define KAPI_CUDA_ARCH 0
#endif
#if KAPI_COMPILING_CUDA_DEVICE_CODE || KAPI_COMPILING_HIP_DEVICE_CODE
#define KAPI_COMPILING_DEVICE_CODE 1
#else
#define KAPI_COMPILING_DEVICE_CODE 0
#endif

// KAPI_HOST_SIMD_BYTES: the widest SIMD register of the host target this pass compiles
// for (its -march): 64 with AVX-512F, 32 with AVX, 16 otherwise (SSE2, NEON, the rest).
// kapi::host_simd_bytes (simd_width.hpp) is what kernels read.
#if defined(__AVX512F__)
#define KAPI_HOST_SIMD_BYTES 64
#elif defined(__AVX__)
#define KAPI_HOST_SIMD_BYTES 32
#else
#define KAPI_HOST_SIMD_BYTES 16
#endif
// KAPI_HOST_SIMD_REGISTERS: how many of them: 32 with AVX-512F and on aarch64 (NEON, SVE),
// 16 on x86-64 otherwise (SSE2, AVX, AVX2) and wherever the target is not known.
#if defined(__AVX512F__) || defined(__aarch64__)
#define KAPI_HOST_SIMD_REGISTERS 32
#else
#define KAPI_HOST_SIMD_REGISTERS 16
#endif

// KAPI_IF_ON_DEVICE((code)) / KAPI_IF_ON_HOST((code)): code inside a KAPI_FUNCTION for the
// device pass only / the host pass only, in a block of its own. Kokkos' own macros where
// Kokkos defines them (3.6 and later), so that kapi and Kokkos agree; on Kokkos 3.4 the
// test of KAPI_COMPILING_DEVICE_CODE.
#define KAPI_IMPL_STRIP_PARENS(...) __VA_ARGS__
#if defined(KOKKOS_IF_ON_DEVICE) && defined(KOKKOS_IF_ON_HOST)
#define KAPI_IF_ON_DEVICE(CODE) KOKKOS_IF_ON_DEVICE(CODE)
#define KAPI_IF_ON_HOST(CODE) KOKKOS_IF_ON_HOST(CODE)
#elif KAPI_COMPILING_DEVICE_CODE
#define KAPI_IF_ON_DEVICE(CODE) \
  { KAPI_IMPL_STRIP_PARENS CODE }
#define KAPI_IF_ON_HOST(CODE) \
  {}
#else
#define KAPI_IF_ON_DEVICE(CODE) \
  {}
#define KAPI_IF_ON_HOST(CODE) \
  { KAPI_IMPL_STRIP_PARENS CODE }
#endif

// KAPI_DEVICE_ASSUME(fact): a fact about an id or extent that every device launch
// guarantees (work-groups of at most 1024 work-items, fewer than 2^31 groups per
// dimension), told to the device compiler so that it can keep size_t index arithmetic
// in 32 bits; nothing in host passes.
#if KAPI_COMPILING_DEVICE_CODE
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
// a pointer and reloads them per work-item, which left the phased matmul well behind its
// raw-Kokkos twin (results/ has the A/B).
#if defined(__GNUC__) || defined(__clang__)
#define KAPI_INLINE_HOST_LOOP [[gnu::always_inline]] inline
#else
#define KAPI_INLINE_HOST_LOOP inline
#endif

// A public function callable from a kernel that runs such a loop (a phase): always inlined
// too, or the loop is out of line again inside it. GCC and clang both left the phases of a
// kernel with several so, unvectorised (results/ has the A/B).
#define KAPI_PHASE_FUNCTION KOKKOS_FORCEINLINE_FUNCTION

// A deduction guide that kernels use. Clang compiling HIP (or CUDA) takes a written
// deduction guide for a host function and refuses it in device code (clang 15: "reference
// to __host__ function '<deduction guide for AtomicRef>' in __host__ __device__
// function"); it accepts the target attributes on the guide. nvcc and host compilers need none.
#if defined(__clang__) && (defined(__HIP__) || defined(__CUDA__))
#define KAPI_DEDUCTION_GUIDE __host__ __device__
#else
#define KAPI_DEDUCTION_GUIDE
#endif
