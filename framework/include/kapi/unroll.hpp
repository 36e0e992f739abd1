// SPDX-License-Identifier: Apache-2.0
#pragma once
// KAPI_UNROLL: asks the compiler to unroll the next loop fully (register-blocked
// kernels need their fixed-size loops unrolled for the blocks to live in registers).
// The device pass of nvcc/hipcc and clang take "#pragma unroll", GCC "#pragma GCC unroll";
// the host pass of nvcc gets nothing (GCC's form is unknown to it). Pragmas cannot go
// through KAPI_IF_ON_DEVICE: these tests are the preprocessor's (config.hpp).
#include <kapi/config.hpp>

#if KAPI_COMPILING_DEVICE_CODE || defined(__clang__)
#define KAPI_UNROLL _Pragma("unroll")
#elif defined(__GNUC__) && !defined(__CUDACC__) && !defined(__HIPCC__)
#define KAPI_UNROLL _Pragma("GCC unroll 32")
#else
#define KAPI_UNROLL
#endif

// KAPI_SIMD_LOOP: keeps the next (short, fixed-count) loop a loop for GCC's loop
// vectoriser, which then turns it into whole SIMD registers; fully unrolled first, GCC
// instead scatters it into scalars and shuffles. Device code has no SIMD loops: there it
// unrolls, as KAPI_UNROLL.
#if KAPI_COMPILING_DEVICE_CODE
#define KAPI_SIMD_LOOP _Pragma("unroll")
#elif defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__) && !defined(__HIPCC__)
#define KAPI_SIMD_LOOP _Pragma("GCC unroll 1")
#else
#define KAPI_SIMD_LOOP
#endif

// KAPI_NOINLINE_ON_HOST: keeps a hot loop nest its own function in host code, where
// GCC keeps its working set in registers; inlined into the large work-item body it spills.
#if defined(__GNUC__) && !KAPI_COMPILING_DEVICE_CODE
#define KAPI_NOINLINE_ON_HOST __attribute__((noinline))
#else
#define KAPI_NOINLINE_ON_HOST
#endif

// KAPI_DEVICE_UNROLL: unrolls the next loop in device code only (independent loads
// in flight per GPU thread), leaving the host compiler's vectorisation of it alone.
#if KAPI_COMPILING_DEVICE_CODE
#define KAPI_DEVICE_UNROLL _Pragma("unroll")
#else
#define KAPI_DEVICE_UNROLL
#endif
