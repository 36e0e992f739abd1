// SPDX-License-Identifier: Apache-2.0
#pragma once
// The nd-range kernel: each work-group stages its block of the interior in local memory,
// one point per work-item, waits at the barrier, and every work-item reads its point and
// its neighbours along x and y inside the block from there; a neighbour beyond the block
// (the block's one-point halo) and those along z come from global memory, so no work-item
// copies more than its own point. The phased twin (phased.hpp) does the same in two
// phases. Work-groups of `local` work-items, the global range padded to whole groups
// (padding work-items load a point clamped to the grid and write nothing).
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

/// The tile's extents and index for a group of local extents (l0, l1, l2).
struct TileShape {
  std::size_t e0, e1, e2;
  KOKKOS_INLINE_FUNCTION std::size_t size() const { return e0 * e1 * e2; }
  KOKKOS_INLINE_FUNCTION std::size_t at(std::size_t a, std::size_t b, std::size_t c) const {
    return (a * e1 + b) * e2 + c;
  }
};

/// The grid point of a block's local point (a, b, c) whose corner is (c0, c1, c2) (its
/// first interior point is corner + 1), clamped to the grid: padding work-items beyond the
/// interior hold a copy of the last point, which only other padding work-items read
/// (an interior point's neighbour is at most the grid's last point, itself).
template <class In>
KOKKOS_FORCEINLINE_FUNCTION auto block_point(const In& in, std::size_t c0, std::size_t c1, std::size_t c2,
                                             std::size_t a, std::size_t b, std::size_t c) {
  const std::size_t last0 = in.extent(0) - 1, last1 = in.extent(1) - 1, last2 = in.extent(2) - 1;
  const std::size_t i = c0 + a + 1, j = c1 + b + 1, k = c2 + c + 1;
  return in(i < last0 ? i : last0, j < last1 ? j : last1, k < last2 ? k : last2);
}

/// The stencil at grid point (i, j, k), local point (a, b, c) of a block of extents s: a
/// neighbour along x or y inside the block from the block, one beyond it from `in`; the two
/// along z from `in` (the row's own cache lines, which its work-items have just read:
/// no branch along the fastest dimension, whose loop a host compiler vectorises).
template <class In, class Block, class T>
KOKKOS_FORCEINLINE_FUNCTION T update_from_block(const Block& block, const TileShape& s, const In& in, std::size_t i,
                                                std::size_t j, std::size_t k, std::size_t a, std::size_t b,
                                                std::size_t c, T alpha) {
  return update(block[s.at(a, b, c)], a > 0 ? block[s.at(a - 1, b, c)] : in(i - 1, j, k),
                a + 1 < s.e0 ? block[s.at(a + 1, b, c)] : in(i + 1, j, k),
                b > 0 ? block[s.at(a, b - 1, c)] : in(i, j - 1, k),
                b + 1 < s.e1 ? block[s.at(a, b + 1, c)] : in(i, j + 1, k), in(i, j, k - 1), in(i, j, k + 1), alpha);
}

/// Both stencil kernels are compiled for three resident 512-item groups per GPU
/// multiprocessor (at most 40 registers a work-item). Left to itself nvcc gave the phased
/// more, which leaves room for two, and ran slower on an H100 (results/ has the A/B).
using StencilBounds = kapi::LaunchBounds<512, 3>;

struct StencilNdRange {
  using launch_bounds = StencilBounds;
  template <class In, class Out, class T>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<3>& it, const In& in, const Out& out,
                                         const kapi::LocalAccessor<T, 1>& block, T alpha) const {
    const TileShape s{it.get_local_range(0), it.get_local_range(1), it.get_local_range(2)};
    const auto g = it.get_group();
    // The block's corner in `in` (its first interior point is corner + 1).
    const std::size_t c0 = g.get_group_id(0) * s.e0, c1 = g.get_group_id(1) * s.e1, c2 = g.get_group_id(2) * s.e2;
    const std::size_t a = it.get_local_id(0), b = it.get_local_id(1), c = it.get_local_id(2);
    block[s.at(a, b, c)] = block_point(in, c0, c1, c2, a, b, c);
    kapi::group_barrier(g);
    const std::size_t i = c0 + a + 1, j = c1 + b + 1, k = c2 + c + 1;
    if (i + 1 < in.extent(0) && j + 1 < in.extent(1) && k + 1 < in.extent(2))
      out(i, j, k) = update_from_block(block, s, in, i, j, k, a, b, c, alpha);
  }
};

/// The work-group shape {2, 8, 32} on every backend (z along the warp: coalesced rows),
/// each extent no larger than the interior needs.
template <class ExecSpace>
kapi::Range<3> stencil_local_range(std::size_t n0, std::size_t n1, std::size_t n2) {
  const std::size_t want[3] = {2u, 8u, 32u}, n[3] = {n0, n1, n2};
  std::size_t l[3];
  for (int d = 0; d < 3; ++d) {
    l[d] = 1;
    while (l[d] < want[d] && l[d] < n[d]) l[d] *= 2;
  }
  return kapi::Range<3>(l[0], l[1], l[2]);
}

template <class ExecSpace>
kapi::NdRange<3> stencil_nd_range(std::size_t n0, std::size_t n1, std::size_t n2) {
  const auto local = stencil_local_range<ExecSpace>(n0, n1, n2);
  return kapi::NdRange<3>(
      kapi::Range<3>(kapi::round_up(n0, local[0]), kapi::round_up(n1, local[1]), kapi::round_up(n2, local[2])), local);
}

/// Starts one step on `space`; the event's wait() completes it.
template <class ExecSpace, class In, class Out, class T>
kapi::KernelEvent<ExecSpace> step_nd_range(const ExecSpace& space, const In& in, const Out& out, T alpha) {
  check_grids(in, out);
  const auto r = stencil_nd_range<ExecSpace>(in.extent(0) - 2, in.extent(1) - 2, in.extent(2) - 2);
  const auto l = r.get_local_range();
  return kapi::call_kernel_async(space, StencilNdRange{}, r, in, out, kapi::LocalAccessor<T, 1>(l.size()), alpha);
}

}  // namespace heat3d
