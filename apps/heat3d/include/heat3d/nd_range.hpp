// SPDX-License-Identifier: Apache-2.0
#pragma once
// The nd-range kernel: each work-group stages its block of the interior in local memory,
// waits at the barrier, and every work-item updates a column of the block along x, its
// `Column` points, from there. A work-item reads its column and the point before and after
// it from global memory and keeps them in registers (its neighbours along x); the
// neighbours along y come from the block (one beyond it, the block's halo, from global
// memory) and those along z from global memory. The phased twin (phased.hpp) does the
// same in two phases. Work-groups of {1, l1, l2} work-items, the global range padded to
// whole groups and columns (padding points are loaded clamped to the grid and not written).
#include <kapi/barrier.hpp>
#include <kapi/integer_math.hpp>
#include <kapi/item.hpp>
#include <kapi/launch.hpp>
#include <kapi/launch_bounds.hpp>
#include <kapi/local_accessor.hpp>
#include <kapi/math.hpp>
#include <kapi/range.hpp>

#include "stencil.hpp"

namespace heat3d {

/// A block's extents (planes, rows, points a row) and the index of its point (a, b, c).
struct TileShape {
  std::size_t e0, e1, e2;
  KOKKOS_INLINE_FUNCTION std::size_t size() const { return e0 * e1 * e2; }
  KOKKOS_INLINE_FUNCTION std::size_t at(std::size_t a, std::size_t b, std::size_t c) const {
    return (a * e1 + b) * e2 + c;
  }
};

/// in(i, j, k) with each index clamped to the grid's last point: what the block kernels'
/// padding points load (an interior point's neighbour is at most that point, itself).
template <class In>
KOKKOS_FORCEINLINE_FUNCTION auto clamped_point(const In& in, std::size_t i, std::size_t j, std::size_t k) {
  const std::size_t last0 = in.extent(0) - 1, last1 = in.extent(1) - 1, last2 = in.extent(2) - 1;
  return in(i < last0 ? i : last0, j < last1 ? j : last1, k < last2 ? k : last2);
}

/// The phased and marching kernels are compiled for three resident 512-item groups per
/// GPU multiprocessor (at most 40 registers a work-item). Left to itself nvcc gave the
/// phased more, which leaves room for two, and ran slower on an H100 (results/ has the A/B).
using StencilBounds = kapi::LaunchBounds<512, 3>;

/// The nd-range kernel keeps its column in registers: four resident 256-item groups
/// (64 registers a work-item), where nvcc spills nothing.
using ColumnBounds = kapi::LaunchBounds<256, 4>;

/// Points a work-item of the block kernels updates along x by default. A longer column
/// reads the block's x halo (two points per column) for more points and spreads a
/// work-item's index arithmetic over them.
inline constexpr std::size_t default_column = 8;

template <std::size_t Column = default_column>
struct StencilNdRange {
  static_assert(Column >= 1, "a work-item updates at least one point");
  using launch_bounds = ColumnBounds;
  template <class In, class Out, class T>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<3>& it, const In& in, const Out& out,
                                         const kapi::LocalAccessor<T, 1>& block, T alpha) const {
    const TileShape s{Column, it.get_local_range(1), it.get_local_range(2)};
    const auto g = it.get_group();
    // The block's corner in `in` (its first interior point is corner + 1).
    const std::size_t c0 = g.get_group_id(0) * Column, c1 = g.get_group_id(1) * s.e1, c2 = g.get_group_id(2) * s.e2;
    const std::size_t b = it.get_local_id(1), c = it.get_local_id(2);
    const std::size_t last0 = in.extent(0) - 1, last1 = in.extent(1) - 1, last2 = in.extent(2) - 1;
    const std::size_t j = c1 + b + 1, k = c2 + c + 1;
    // column[q]: the point at x = c0 + q, the block's column (q = 1 … Column) with the
    // point before and after it.
    T column[Column + 2];
    for (std::size_t q = 0; q < Column + 2; ++q) column[q] = clamped_point(in, c0 + q, j, k);
    for (std::size_t p = 0; p < Column; ++p) block[s.at(p, b, c)] = column[p + 1];
    kapi::group_barrier(g);
    if (j < last1 && k < last2)
      for (std::size_t p = 0; p < Column; ++p) {
        const std::size_t i = c0 + p + 1;
        if (i < last0)
          out(i, j, k) = update(
              column[p + 1], column[p], column[p + 2], b > 0 ? block[s.at(p, b - 1, c)] : in(i, j - 1, k),
              b + 1 < s.e1 ? block[s.at(p, b + 1, c)] : in(i, j + 1, k), in(i, j, k - 1), in(i, j, k + 1), alpha);
      }
  }
};

/// A work-group shape {1, l1, l2}: each extent the power of two `want` gives, no larger than
/// the interior needs.
inline kapi::Range<3> local_range_up_to(std::size_t want1, std::size_t want2, std::size_t n1, std::size_t n2) {
  const std::size_t want[2] = {want1, want2}, n[2] = {n1, n2};
  std::size_t l[2];
  for (int d = 0; d < 2; ++d) {
    l[d] = 1;
    while (l[d] < want[d] && l[d] < n[d]) l[d] *= 2;
  }
  return kapi::Range<3>(1, l[0], l[1]);
}

/// The block kernels' work-group shape {1, 8, 32} on every backend (z along the warp:
/// coalesced rows).
template <class ExecSpace>
kapi::Range<3> stencil_local_range(std::size_t n1, std::size_t n2) {
  return local_range_up_to(8, 32, n1, n2);
}

/// The block kernels' launch: one work-item per column of `column` points.
template <class ExecSpace>
kapi::NdRange<3> stencil_nd_range(std::size_t n0, std::size_t n1, std::size_t n2, std::size_t column) {
  const auto local = stencil_local_range<ExecSpace>(n1, n2);
  return kapi::NdRange<3>(
      kapi::Range<3>(kapi::ceil_div(n0, column), kapi::round_up(n1, local[1]), kapi::round_up(n2, local[2])), local);
}

/// Starts one step on `space`; the event's wait() completes it.
template <std::size_t Column = default_column, class ExecSpace, class In, class Out, class T>
kapi::KernelEvent<ExecSpace> step_nd_range(const ExecSpace& space, const In& in, const Out& out, T alpha) {
  check_grids(in, out);
  const auto r = stencil_nd_range<ExecSpace>(in.extent(0) - 2, in.extent(1) - 2, in.extent(2) - 2, Column);
  const auto l = r.get_local_range();
  return kapi::call_kernel_async(space, StencilNdRange<Column>{}, r, in, out,
                                 kapi::LocalAccessor<T, 1>(Column * l.size()), alpha);
}

}  // namespace heat3d
