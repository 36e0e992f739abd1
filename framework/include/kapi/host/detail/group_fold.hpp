// SPDX-License-Identifier: Apache-2.0
#pragma once
// The order in which host backends combine a work-group's values for a reduction
// (reduce_over_group, any/all_of_group, reduce_over_work_items): eight contiguous blocks of
// local ids, each folded left to right, then the blocks' results folded left to right.
// Eight independent chains run at the operator's throughput instead of its latency (a left
// fold of doubles waits out one add per work-item); the order only regroups the values,
// never reorders them, so an associative operator that does not commute still gets its
// result. Fixed by the group size alone: results are reproducible, and alike on both host
// engines and in the phased form.
#include <cstddef>

namespace kapi::detail {

inline constexpr std::size_t host_fold_blocks = 8;

/// Groups of fewer values are one left fold.
inline constexpr std::size_t host_fold_min_blocked = 2 * host_fold_blocks;

/// Combines v[0] … v[n-1], n >= 1, in the order above. Block b holds ids [b·m, (b+1)·m)
/// with m = n / 8; the last block also takes the n mod 8 ids after them. Everything comes
/// by value, and the eight running values are named, not an array: called out of line
/// from a kernel's loop form (work-group loop pass), nothing of the kernel's frame escapes
/// into it, so the pass keeps nothing of it per work-item.
template <class T, class Op>
T host_group_fold(std::size_t n, const T* v, Op op) {
  if (n < host_fold_min_blocked) {
    T acc = v[0];
    for (std::size_t i = 1; i < n; ++i) acc = T(op(acc, v[i]));
    return acc;
  }
  static_assert(host_fold_blocks == 8, "the blocks below are written out");
  const std::size_t m = n / host_fold_blocks;
  const T *b0 = v, *b1 = v + m, *b2 = v + 2 * m, *b3 = v + 3 * m;
  const T *b4 = v + 4 * m, *b5 = v + 5 * m, *b6 = v + 6 * m, *b7 = v + 7 * m;
  T a0 = b0[0], a1 = b1[0], a2 = b2[0], a3 = b3[0], a4 = b4[0], a5 = b5[0], a6 = b6[0], a7 = b7[0];
  for (std::size_t k = 1; k < m; ++k) {
    a0 = T(op(a0, b0[k]));
    a1 = T(op(a1, b1[k]));
    a2 = T(op(a2, b2[k]));
    a3 = T(op(a3, b3[k]));
    a4 = T(op(a4, b4[k]));
    a5 = T(op(a5, b5[k]));
    a6 = T(op(a6, b6[k]));
    a7 = T(op(a7, b7[k]));
  }
  for (std::size_t i = host_fold_blocks * m; i < n; ++i) a7 = T(op(a7, v[i]));
  return T(op(T(op(T(op(T(op(T(op(T(op(T(op(a0, a1)), a2)), a3)), a4)), a5)), a6)), a7));
}

}  // namespace kapi::detail
