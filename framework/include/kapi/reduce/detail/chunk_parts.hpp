// SPDX-License-Identifier: Apache-2.0
#pragma once
// Pieces of the work-item chunk reductions (chunk_reduce.hpp): element-wise combining,
// pairwise folds (unrolled in device code, so no array is indexed at run time there), and
// the host chunk's binary cascade.
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <kapi/config.hpp>
#include <kapi/unroll.hpp>
#include <kapi/vec.hpp>

namespace kapi::detail {

/// acc = op(acc, x), element-wise for vectors.
template <class T, class Op>
KAPI_FUNCTION void combine_into(T& acc, const T& x, const Op& op) {
  acc = T(op(acc, x));
}
template <class T, int Width, class Op>
KAPI_FUNCTION void combine_into(Vec<T, Width>& acc, const Vec<T, Width>& x, const Op& op) {
  KAPI_DEVICE_UNROLL
  for (int j = 0; j < Width; ++j) acc.v[j] = T(op(acc.v[j], x.v[j]));
}

/// Folds values[0, Count) pairwise into values[0] (tree depth log2(Count)).
template <int Count, class V, class Op>
KAPI_FUNCTION void fold_pairwise(V (&values)[Count], const Op& op) {
  static_assert(Count >= 1 && (Count & (Count - 1)) == 0, "fold_pairwise: Count must be a power of two");
  KAPI_DEVICE_UNROLL
  for (int width = Count / 2; width > 0; width /= 2) {
    KAPI_DEVICE_UNROLL
    for (int l = 0; l < width; ++l) combine_into(values[l], values[l + width], op);
  }
}

/// log2 of a power of two, at compile time.
KAPI_FUNCTION constexpr int log2_exact(std::size_t x) { return x <= 1 ? 0 : 1 + log2_exact(x / 2); }

/// Partial results of 2^l blocks at level l (bit l of `count` set): adding a block merges
/// equal levels, as a binary counter carries, so every merge combines two results of
/// equal size. Host chunks only: the levels are indexed at run time, which a device
/// would place in (slow) local memory.
template <class T>
struct Cascade {
  static constexpr int max_levels = 48;  // 2^48 blocks per work-item: more than any array
  T level[max_levels];
  std::uint64_t count = 0;

  template <class Op>
  KAPI_FUNCTION void add(T v, const Op& op) {
    int l = 0;
    for (std::uint64_t c = count; c & 1; c >>= 1, ++l) v = T(op(level[l], v));
    level[l] = v;
    ++count;
  }
  template <class Op>
  KAPI_FUNCTION T total(const T& identity, const Op& op) const {
    T s = identity;
    int l = 0;
    for (std::uint64_t c = count; c; c >>= 1, ++l)
      if (c & 1) s = T(op(level[l], s));
    return s;
  }
};

}  // namespace kapi::detail
