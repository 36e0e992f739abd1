// SPDX-License-Identifier: Apache-2.0
#pragma once
// Reduced-precision element types for tensor-core matrix operations (kapi/joint_matrix.hpp),
// the same bits on every backend, so one kernel gives the same inputs everywhere:
//
//   kapi::bfloat16   1-8-7 bits, the layout of CUDA's __nv_bfloat16; from float rounds to
//                    nearest, ties to even (as __float2bfloat16 / cvt.rn.bf16.f32)
//   kapi::half       IEEE binary16, the layout of CUDA's __half; from float rounds to
//                    nearest, ties to even, with subnormals (as __float2half_rn)
//   kapi::precision::tf32
//                    the element type of a tf32 joint_matrix (SYCL's matrix::precision::tf32),
//                    also 32 bits of storage: a float already rounded to 10 mantissa bits.
//                    kapi::round_to_tf32 rounds to nearest, ties away from zero
//                    (cvt.rna.tf32.f32, what the CUDA path executes). A joint_matrix
//                    loaded from float rounds every element it loads; staging a tile as
//                    precision::tf32 rounds each element once and loads it as it is.
// The conversions are integer code on host backends and one conversion instruction on
// CUDA sm_80+ (cvt.rna.tf32.f32, cvt.rn.bf16.f32, cvt.rn.f16.f32: a kernel that stages
// tiles converts every element it copies), with the same rounding, so host and device
// agree bit for bit on every number; a NaN stays a NaN, its payload is the backend's.
#include <kapi/config.hpp>

#include <cstdint>

#include <kapi/detail/copy_bytes.hpp>
#include <kapi/detail/device_instructions.hpp>

#if KAPI_CUDA_ARCH >= 800
#define KAPI_REDUCED_PRECISION_CVT 1
#else
#define KAPI_REDUCED_PRECISION_CVT 0
#endif

namespace kapi {

namespace detail {
KAPI_FUNCTION std::uint32_t float_bits(float f) {
  std::uint32_t u;
  copy_bytes(&u, &f, sizeof u);
  return u;
}
KAPI_FUNCTION float bits_float(std::uint32_t u) {
  float f;
  copy_bytes(&f, &u, sizeof f);
  return f;
}
}  // namespace detail

/// bfloat16: storage of 16 bits; arithmetic goes through float.
struct bfloat16 {
  std::uint16_t bits = 0;

  bfloat16() = default;
  KAPI_FUNCTION bfloat16(float f) : bits(from_float(f)) {}  // NOLINT: converts like __nv_bfloat16
  KAPI_FUNCTION operator float() const { return detail::bits_float(std::uint32_t(bits) << 16); }
  KAPI_FUNCTION static bfloat16 from_bits(std::uint16_t b) {
    bfloat16 x;
    x.bits = b;
    return x;
  }
  KAPI_FUNCTION static std::uint16_t from_float(float f) {
#if KAPI_REDUCED_PRECISION_CVT
    return detail::cuda_ops::cvt_rn_bf16(f);
#else
    std::uint32_t u = detail::float_bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) return std::uint16_t((u >> 16) | 0x0040u);  // NaN stays a (quiet) NaN
    u += 0x7fffu + ((u >> 16) & 1u);                                                 // to nearest, ties to even
    return std::uint16_t(u >> 16);
#endif
  }
};

/// half: IEEE binary16 storage; arithmetic goes through float.
struct half {
  std::uint16_t bits = 0;

  half() = default;
  KAPI_FUNCTION half(float f) : bits(from_float(f)) {}  // NOLINT: converts like __half
  KAPI_FUNCTION operator float() const { return to_float(bits); }
  KAPI_FUNCTION static half from_bits(std::uint16_t b) {
    half x;
    x.bits = b;
    return x;
  }
  KAPI_FUNCTION static std::uint16_t from_float(float f) {
#if KAPI_REDUCED_PRECISION_CVT
    return detail::cuda_ops::cvt_rn_f16(f);
#else
    const std::uint32_t x = detail::float_bits(f);
    const std::uint32_t sign = (x >> 16) & 0x8000u, ax = x & 0x7fffffffu;
    if (ax > 0x7f800000u) return std::uint16_t(sign | 0x7e00u);   // NaN
    if (ax >= 0x477ff000u) return std::uint16_t(sign | 0x7c00u);  // >= 65520 rounds to infinity
    if (ax <= 0x33000000u) return std::uint16_t(sign);            // <= 2^-25 rounds to zero
    if (ax < 0x38800000u) {                                       // a subnormal half: units of 2^-24
      const std::uint32_t m = (ax & 0x7fffffu) | 0x800000u;
      const int shift = 126 - int(ax >> 23);  // 14..24
      std::uint32_t r = m >> shift;
      const std::uint32_t rest = m & ((1u << shift) - 1u), halfway = 1u << (shift - 1);
      if (rest > halfway || (rest == halfway && (r & 1u))) ++r;
      return std::uint16_t(sign | r);
    }
    std::uint32_t r = (ax - 0x38000000u) >> 13;  // rebias the exponent (127 -> 15)
    const std::uint32_t rest = ax & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (r & 1u))) ++r;  // a carry may reach infinity: correct
    return std::uint16_t(sign | r);
#endif
  }
  KAPI_FUNCTION static float to_float(std::uint16_t h) {
    const std::uint32_t sign = std::uint32_t(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    if (e == 0x1fu) return detail::bits_float(sign | 0x7f800000u | (m << 13));
    if (e == 0) {
      const float v = float(m) * (1.0f / 16777216.0f);  // m·2^-24, exact
      return sign ? -v : v;
    }
    return detail::bits_float(sign | ((e + 112u) << 23) | (m << 13));
  }
};

/// f rounded to tf32 (10 mantissa bits), to nearest with ties away from zero, as the
/// CUDA path's cvt.rna.tf32.f32; infinities and NaNs unchanged.
KAPI_FUNCTION float round_to_tf32(float f) {
#if KAPI_REDUCED_PRECISION_CVT
  return detail::bits_float(detail::cuda_ops::cvt_rna_tf32(f));
#else
  std::uint32_t u = detail::float_bits(f);
  if ((u & 0x7f800000u) == 0x7f800000u) return f;
  u = (u + 0x1000u) & 0xffffe000u;
  return detail::bits_float(u);
#endif
}

namespace precision {
/// tf32: the element type of a tf32 joint_matrix, and its storage once rounded: 32 bits
/// holding round_to_tf32 of the float it was made from. A tile staged in local memory as
/// tf32 is rounded once per element; joint_matrix_load reads it without rounding again.
struct tf32 {
  std::uint32_t bits = 0;

  tf32() = default;
  KAPI_FUNCTION tf32(float f) : bits(detail::float_bits(round_to_tf32(f))) {}  // NOLINT: converts like bfloat16
  KAPI_FUNCTION operator float() const { return detail::bits_float(bits); }
  KAPI_FUNCTION static tf32 from_bits(std::uint32_t b) {
    tf32 x;
    x.bits = b;
    return x;
  }
};
}  // namespace precision

}  // namespace kapi
