#pragma once
// How one work-item sums its share of the input in the group-based reductions: in
// blocks, each block added lane-wise (Lanes independent accumulators, which a host
// compiler turns into SIMD adds and a GPU into independent loads in flight), the lanes
// folded pairwise, and the block sums combined pairwise by a binary cascade. A float
// result thus carries the error of a summation tree of depth
//   chunk_depth = per_lane + log2(Lanes) + 2 * (floor(log2(blocks)) + 1)
// instead of the length of the chunk, as a single running accumulator would.
#include <cstddef>
#include <cstdint>

#include <kapi/kapi.hpp>
#include <kapi_apps/unroll.hpp>

namespace reduce {

namespace detail {

/// Partial sums of 2^l blocks at level l (bit l of `count` set): adding a block merges
/// equal levels, as a binary counter carries, so every merge adds two sums of equal size.
template <class T>
struct Cascade {
  static constexpr int max_levels = 48;  // 2^48 blocks per work-item: more than any array
  T level[max_levels];
  std::uint64_t count = 0;

  KOKKOS_INLINE_FUNCTION void add(T v) {
    int l = 0;
    for (std::uint64_t c = count; c & 1; c >>= 1, ++l) v = level[l] + v;
    level[l] = v;
    ++count;
  }
  KOKKOS_INLINE_FUNCTION T total() const {
    T s = T(0);
    int l = 0;
    for (std::uint64_t c = count; c; c >>= 1, ++l)
      if (c & 1) s = level[l] + s;
    return s;
  }
};

template <class T, int Lanes>
KOKKOS_INLINE_FUNCTION T fold_lanes(T (&lane)[Lanes]) {
  for (int width = Lanes / 2; width > 0; width /= 2)
    for (int l = 0; l < width; ++l) lane[l] += lane[l + width];
  return lane[0];
}

}  // namespace detail

/// The sum of x[first + r * stride] for r < count, skipping indices >= n.
/// Contiguous = true asserts stride == 1 (vector loads on a host backend).
template <class T, int Lanes, int PerLane, bool Contiguous>
struct ChunkSum {
  static_assert(Lanes >= 1 && (Lanes & (Lanes - 1)) == 0, "Lanes must be a power of two");
  static constexpr std::size_t block = std::size_t(Lanes) * PerLane;
  static constexpr bool contiguous = Contiguous;

  KOKKOS_INLINE_FUNCTION static T sum(const T* x, std::size_t first, std::size_t stride, std::size_t count,
                                      std::size_t n) {
    if (Contiguous) stride = 1;
    detail::Cascade<T> cascade;
    std::size_t r = 0;
    // Whole blocks inside the array: no bounds checks.
    const std::size_t inside = first < n ? (n - first + stride - 1) / stride : 0;  // elements with index < n
    const std::size_t limit = count < inside ? count : inside;
    for (; r + block <= limit; r += block) {
      T lane[Lanes];
      for (int l = 0; l < Lanes; ++l) lane[l] = T(0);
      const T* p = x + first + r * stride;
      KAPI_APPS_DEVICE_UNROLL
      for (int u = 0; u < PerLane; ++u) {
        KAPI_APPS_DEVICE_UNROLL
        for (int l = 0; l < Lanes; ++l) lane[l] += p[(std::size_t(u) * Lanes + l) * stride];
      }
      cascade.add(detail::fold_lanes<T, Lanes>(lane));
    }
    if (r < limit) {  // the last, partial block
      T lane[Lanes];
      for (int l = 0; l < Lanes; ++l) lane[l] = T(0);
      for (std::size_t q = r; q < limit; ++q) lane[(q - r) % Lanes] += x[first + q * stride];
      cascade.add(detail::fold_lanes<T, Lanes>(lane));
    }
    return cascade.total();
  }

  /// The depth of the summation tree for `count` elements (the error bound's factor).
  static std::size_t depth(std::size_t count) {
    std::size_t blocks = (count + block - 1) / block, log_blocks = 0, log_lanes = 0;
    while ((std::size_t(2) << log_blocks) <= blocks) ++log_blocks;
    while ((1 << log_lanes) < Lanes) ++log_lanes;
    return std::size_t(PerLane) + log_lanes + 2 * (log_blocks + 1);
  }
};

/// ceil(log2(x)) for x >= 1.
inline std::size_t ceil_log2(std::size_t x) {
  std::size_t l = 0;
  while ((std::size_t(1) << l) < x) ++l;
  return l;
}

}  // namespace reduce
