// SPDX-License-Identifier: Apache-2.0
#pragma once
// What one work-item reduces of a 1-d array before its group combines the work-items'
// results: the leaf of the device-wide reductions (device_reduce.hpp), usable in any
// kernel that folds many elements per work-item. Two layouts, one per kind of backend:
//
//   ContiguousChunk<T, Lanes, PerLane>   host: the work-item owns a contiguous run
//       T r = ContiguousChunk<float, 32, 16>::reduce(x, first, count, n, identity, op);
//     Blocks of Lanes*PerLane elements, each added lane-wise (Lanes independent
//     accumulators: SIMD adds), the lanes folded pairwise, the block results combined
//     by a binary cascade (so the tree stays shallow for any run length).
//
//   StridedChunk<T, Vectors>             device: the group's work-items interleave
//       auto split = StridedChunk<float, 4>::split(x, n);            // on the host
//       T r = StridedChunk<float, 4>::reduce(x, n, split, first_vector, lid, size, steps,
//                                            lid == 0, identity, op);
//     16-byte vector loads (the aligned body of x; the scalars before and after it go
//     to one work-item), consecutive work-items on consecutive vectors (coalesced),
//     `Vectors` loads in flight per step, combined pairwise, then into one vector
//     accumulator; no run-time-indexed arrays, so everything stays in registers.
//
// Op is associative and commutative (kapi::plus, minimum, maximum, ...); `identity`
// satisfies op(identity, x) == x (kapi::known_identity<Op, T>() where the op has one).
//
// Accuracy of a floating-point sum (op = plus): each layout's result is a summation tree
// of depth depth(...) over its elements, so |computed - exact| <= depth * eps * sum|x|
// (eps the type's machine epsilon).
#include <cstddef>
#include <cstdint>

#include <kapi/config.hpp>
#include <kapi/integer_math.hpp>
#include <kapi/reduce/detail/chunk_parts.hpp>
#include <kapi/unroll.hpp>
#include <kapi/vec.hpp>

namespace kapi {

/// A contiguous run reduced in SIMD lanes and a cascade of blocks (host backends).
template <class T, int Lanes, int PerLane>
struct ContiguousChunk {
  static_assert(Lanes >= 1 && (Lanes & (Lanes - 1)) == 0, "kapi::ContiguousChunk: Lanes must be a power of two");
  static_assert(PerLane >= 1, "kapi::ContiguousChunk: PerLane must be at least 1");
  static constexpr std::size_t block = std::size_t(Lanes) * PerLane;
  /// Granularity of a work-item's share: any count.
  static constexpr std::size_t granule = 1;

  /// op over x[first, first + count), skipping indices >= n.
  template <class Op>
  KAPI_FUNCTION static T reduce(const T* x, std::size_t first, std::size_t count, std::size_t n, const T& identity,
                                const Op& op) {
    detail::Cascade<T> cascade;
    const std::size_t inside = first < n ? n - first : 0;
    const std::size_t limit = count < inside ? count : inside;
    const T* const run = x + first;
    std::size_t r = 0;
    for (; r + block <= limit; r += block) {  // whole blocks: no bounds checks
      T lane[Lanes];
      for (int l = 0; l < Lanes; ++l) lane[l] = identity;
      const T* p = run + r;
      for (int u = 0; u < PerLane; ++u)
        for (int l = 0; l < Lanes; ++l) lane[l] = T(op(lane[l], p[std::size_t(u) * Lanes + l]));
      detail::fold_pairwise(lane, op);
      cascade.add(lane[0], op);
    }
    if (r < limit) {  // the last, partial block
      T lane[Lanes];
      for (int l = 0; l < Lanes; ++l) lane[l] = identity;
      for (std::size_t q = r; q < limit; ++q) lane[(q - r) % Lanes] = T(op(lane[(q - r) % Lanes], run[q]));
      detail::fold_pairwise(lane, op);
      cascade.add(lane[0], op);
    }
    return cascade.total(identity, op);
  }

  /// Depth of the summation tree over `count` elements:
  /// PerLane + log2(Lanes) + 2 * (floor(log2(blocks)) + 1).
  static std::size_t depth(std::size_t count) {
    std::size_t blocks = kapi::ceil_div(count, block), log_blocks = 0;
    while ((std::size_t(2) << log_blocks) <= blocks) ++log_blocks;
    return std::size_t(PerLane) + std::size_t(detail::log2_exact(Lanes)) + 2 * (log_blocks + 1);
  }
};

/// Group-interleaved 16-byte vector loads (device backends).
template <class T, int Vectors>
struct StridedChunk {
  static_assert(Vectors >= 1 && (Vectors & (Vectors - 1)) == 0, "kapi::StridedChunk: Vectors must be a power of two");
  /// Elements per vector load, and per work-item per step.
  static constexpr int width = vec_width_16_bytes<T>;
  static constexpr int lanes = Vectors * width;
  /// Granularity of a work-item's share: whole steps.
  static constexpr std::size_t granule = std::size_t(lanes);
  using Vector = Vec<T, width>;

  /// x[0, n) as `head` scalars up to the first 16-byte boundary, `vectors` aligned
  /// vectors, and the tail scalars after them (fewer than `width` each side).
  struct Split {
    std::size_t head = 0, vectors = 0;
  };
  static Split split(const T* x, std::size_t n) {
    if constexpr (width == 1) {
      (void)x;
      return Split{0, n};
    } else {
      const std::size_t misaligned = reinterpret_cast<std::uintptr_t>(x) % sizeof(Vector);
      std::size_t head = misaligned ? (sizeof(Vector) - misaligned) / sizeof(T) : 0;
      if (head > n) head = n;
      return Split{head, (n - head) / width};
    }
  }

  /// Work-item `lid` of a group of `size`: op over the vectors first_vector + lid + k*size,
  /// k < steps * Vectors, that lie below split.vectors, and over the head and tail
  /// scalars when `edges` (one work-item of the whole launch passes true).
  template <class Op>
  KAPI_FUNCTION static T reduce(const T* x, std::size_t n, const Split& split, std::size_t first_vector, unsigned lid,
                                unsigned size, unsigned steps, bool edges, const T& identity, const Op& op) {
    Vector acc;
    KAPI_DEVICE_UNROLL
    for (int j = 0; j < width; ++j) acc.v[j] = identity;
    const Vector* const body = reinterpret_cast<const Vector*>(x + split.head);
    const std::size_t span = std::size_t(steps) * Vectors * size;  // vectors the group covers
    if (first_vector + span <= split.vectors) {
      // The common case: the group's run lies inside the body, no bounds checks; the
      // pointer advances, so the loop does no 64-bit multiplications.
      const Vector* p = body + first_vector + lid;
      const unsigned stride = Vectors * size;
      for (unsigned s = 0; s < steps; ++s, p += stride) {
        Vector v[Vectors];
        KAPI_DEVICE_UNROLL
        for (int k = 0; k < Vectors; ++k) v[k] = p[k * size];
        detail::fold_pairwise(v, op);
        detail::combine_into(acc, v[0], op);
      }
    } else if (first_vector < split.vectors) {  // the group at the end of the body
      for (unsigned s = 0; s < steps; ++s) {
        Vector v[Vectors];
        KAPI_DEVICE_UNROLL
        for (int k = 0; k < Vectors; ++k) {
          const std::size_t i = first_vector + lid + (std::size_t(s) * Vectors + k) * size;
          if (i < split.vectors) {
            v[k] = body[i];
          } else {
            KAPI_DEVICE_UNROLL
            for (int j = 0; j < width; ++j) v[k].v[j] = identity;
          }
        }
        detail::fold_pairwise(v, op);
        detail::combine_into(acc, v[0], op);
      }
    }
    if (edges) {  // at most one head and one tail scalar per lane (lanes indexed by constants)
      const std::size_t tail = split.head + split.vectors * width;
      KAPI_DEVICE_UNROLL
      for (int j = 0; j < width; ++j) {
        if (std::size_t(j) < split.head) acc.v[j] = T(op(acc.v[j], x[j]));
        if (tail + j < n) acc.v[j] = T(op(acc.v[j], x[tail + j]));
      }
    }
    T lane[width];
    KAPI_DEVICE_UNROLL
    for (int j = 0; j < width; ++j) lane[j] = acc.v[j];
    detail::fold_pairwise(lane, op);
    return lane[0];
  }

  /// Depth of the summation tree of `steps` steps: a lane takes one pairwise-combined
  /// step of depth log2(Vectors) per step, a head and a tail scalar, then the lanes fold:
  /// steps + log2(Vectors) + 2 + log2(width).
  static std::size_t depth(std::size_t steps) {
    return steps + std::size_t(detail::log2_exact(Vectors)) + 2 + std::size_t(detail::log2_exact(width));
  }
};

}  // namespace kapi
