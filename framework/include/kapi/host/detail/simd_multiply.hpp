// SPDX-License-Identifier: Apache-2.0
#pragma once
// A register block's multiply-accumulate on the host (kapi/register_block.hpp) over SIMD
// vectors: the accumulators are values of the compiler's vector extension, which GCC and
// Clang keep in registers across the k loop. Written over a plain array the loop was
// vectorised too, but GCC kept the accumulators in memory, loading and storing them
// around every multiply-add, even for a block that fits the register file.
#include <type_traits>

#include <kapi/config.hpp>
#include <kapi/detail/copy_bytes.hpp>
#include <kapi/simd_width.hpp>
#include <kapi/unroll.hpp>

namespace kapi::detail {

/// Whether host_simd_multiply_accumulate takes a block of TN columns of T: the host pass
/// of GCC or Clang, float or double, TN whole SIMD registers.
template <class T, int TN>
constexpr bool host_simd_multiply_takes() {
#if defined(__GNUC__) && !KAPI_COMPILING_DEVICE_CODE
  if (!std::is_same_v<T, float> && !std::is_same_v<T, double>) return false;
  constexpr int lanes = int(host_simd_lanes<T>);
  return lanes > 1 && TN % lanes == 0;
#else
  return false;
#endif
}

template <class T, int TN>
inline constexpr bool host_simd_multiply_fits = host_simd_multiply_takes<T, TN>();

#if defined(__GNUC__) && !KAPI_COMPILING_DEVICE_CODE
template <class T, int Lanes>
struct HostSimdVector {
  typedef T type __attribute__((vector_size(sizeof(T) * Lanes)));
};

/// acc[i][j] += Σ_k a.at(k, i) · b.at(k, j) for k < K, where b's TN elements of each k are
/// contiguous: per k, TN / lanes vector loads of B and TM broadcasts of A.
template <int K, class T, int TM, int TN, class FragmentA, class FragmentB>
inline void host_simd_multiply_accumulate(T (&acc)[TM][TN], const FragmentA& a, const FragmentB& b) {
  constexpr int lanes = int(host_simd_lanes<T>), vectors = TN / lanes;
  using V = typename HostSimdVector<T, lanes>::type;
  // Vector by vector through a single value: copied as whole arrays, GCC kept them in memory.
  const auto load = [](const T* p) {
    V v;
    copy_bytes(&v, p, sizeof v);
    return v;
  };
  V c[TM][vectors];
  KAPI_UNROLL
  for (int i = 0; i < TM; ++i) {
    KAPI_UNROLL
    for (int v = 0; v < vectors; ++v) c[i][v] = load(&acc[i][v * lanes]);
  }
  for (int k = 0; k < K; ++k) {
    V b_k[vectors];
    KAPI_UNROLL
    for (int v = 0; v < vectors; ++v) b_k[v] = load(&b.at(k, v * lanes));
    KAPI_UNROLL
    for (int i = 0; i < TM; ++i) {
      const T a_ki = a.at(k, i);
      KAPI_UNROLL
      for (int v = 0; v < vectors; ++v) c[i][v] += a_ki * b_k[v];
    }
  }
  KAPI_UNROLL
  for (int i = 0; i < TM; ++i) {
    KAPI_UNROLL
    for (int v = 0; v < vectors; ++v) {
      const V value = c[i][v];
      copy_bytes(&acc[i][v * lanes], &value, sizeof value);
    }
  }
}
#else
/// Only called where host_simd_multiply_fits holds, which it never does here.
template <int K, class T, int TM, int TN, class FragmentA, class FragmentB>
void host_simd_multiply_accumulate(T (&acc)[TM][TN], const FragmentA& a, const FragmentB& b);
#endif

}  // namespace kapi::detail
