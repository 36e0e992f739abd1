// SPDX-License-Identifier: Apache-2.0
#pragma once
// Vec<T, W>: W consecutive elements moved as one aligned unit (SYCL's vec, for loads and
// stores). A GPU moves a 16-byte Vec with one instruction where it would otherwise issue
// four 4-byte ones, so kernels that stream memory or read fragments of local memory move
// a quarter of the instructions.
//
//   if (kapi::Vec<float, 4>::aligned(p)) v = kapi::Vec<float, 4>::load(p);
#include <cstddef>
#include <cstdint>

#include <kapi/config.hpp>

namespace kapi {

template <class T, int W>
struct alignas(sizeof(T) * W) Vec {
  static_assert(W >= 1 && (W & (W - 1)) == 0, "kapi::Vec: the width must be a power of two");
  static constexpr int width = W;
  T v[W];

  KAPI_FUNCTION T& operator[](int i) { return v[i]; }
  KAPI_FUNCTION const T& operator[](int i) const { return v[i]; }

  /// True when p may be loaded from or stored to as a Vec (aligned to W elements).
  KAPI_FUNCTION static bool aligned(const T* p) { return reinterpret_cast<std::uintptr_t>(p) % (sizeof(T) * W) == 0; }
  /// The W elements at p, which must be aligned().
  KAPI_FUNCTION static Vec load(const T* p) { return *reinterpret_cast<const Vec*>(p); }
  /// Writes the W elements to p, which must be aligned().
  KAPI_FUNCTION void store(T* p) const { *reinterpret_cast<Vec*>(p) = *this; }
};

/// The widest Vec of T a device moves in one instruction (16 bytes), at least 1.
template <class T>
inline constexpr int vec_width_16_bytes = sizeof(T) >= 16 ? 1 : int(16 / sizeof(T));

}  // namespace kapi
