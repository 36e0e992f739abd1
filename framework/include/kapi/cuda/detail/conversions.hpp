// SPDX-License-Identifier: Apache-2.0
#pragma once
// Float conversions to the reduced-precision formats on CUDA sm_80 and later, one cvt
// instruction each (reduced_precision.hpp forwards here in that device pass; elsewhere it
// computes the same bits in integer arithmetic).
#include <cstdint>

#include <kapi/config.hpp>

#if KAPI_CUDA_ARCH >= 800
namespace kapi::detail::cuda_ops {

/// bfloat16 bits of f, to nearest, ties to even.
__device__ inline std::uint16_t cvt_rn_bf16(float f) {
  std::uint16_t b;
  asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(b) : "f"(f));
  return b;
}
/// IEEE binary16 bits of f, to nearest, ties to even.
__device__ inline std::uint16_t cvt_rn_f16(float f) {
  std::uint16_t b;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(b) : "f"(f));
  return b;
}
/// Bits of f rounded to tf32, to nearest, ties away from zero.
__device__ inline std::uint32_t cvt_rna_tf32(float f) {
  std::uint32_t r;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(f));
  return r;
}

}  // namespace kapi::detail::cuda_ops
#endif  // KAPI_CUDA_ARCH >= 800
