// SPDX-License-Identifier: Apache-2.0
#pragma once
// The nd-range kernel: each work-group stages its block and a one-point halo around it
// — (lx + 2)(ly + 2)(lz + 2) values — in local memory, waits at the barrier, and every
// work-item reads its seven values from there: each input is read from global memory
// about once per group instead of seven times. The phased twin (phased.hpp) does the same
// in two phases. Work-groups of `local` work-items, the global range padded to whole
// groups (padding work-items load their share and write nothing).
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

/// The work-item at local ids (a, b, c) of a group of local extents (l0, l1, l2) copies
/// its share of the group's tile: the tile points (a + p·l0, b + q·l1, c + r·l2), which
/// are corner + those of `in`, clamped to the grid (the clamped copies beyond the grid feed
/// only padding work-items); load_plane_share copies its share of tile plane ta, grid plane i. A tile extent is its group extent + 2: a share is 1 to 8
/// points when every group extent is at least 2 (up to 3 per extent of 1), found without
/// a division (a division per point cost more than the copy on a host core); consecutive
/// work-items along c copy consecutive values.
template <class In, class Tile>
KOKKOS_INLINE_FUNCTION void load_plane_share(const Tile& tile, const TileShape& s, const In& in, std::size_t ta,
                                             std::size_t i, std::size_t c1, std::size_t c2, std::size_t b,
                                             std::size_t c, std::size_t l1, std::size_t l2) {
  const std::size_t last1 = in.extent(1) - 1, last2 = in.extent(2) - 1;
  for (std::size_t tb = b; tb < s.e1; tb += l1) {
    const std::size_t j = c1 + tb < last1 ? c1 + tb : last1;
    for (std::size_t tc = c; tc < s.e2; tc += l2) {
      const std::size_t k = c2 + tc < last2 ? c2 + tc : last2;
      tile[s.at(ta, tb, tc)] = in(i, j, k);
    }
  }
}
template <class In, class Tile>
KOKKOS_INLINE_FUNCTION void load_tile_share(const Tile& tile, const TileShape& s, const In& in, std::size_t c0,
                                            std::size_t c1, std::size_t c2, std::size_t a, std::size_t b, std::size_t c,
                                            std::size_t l0, std::size_t l1, std::size_t l2) {
  const std::size_t last0 = in.extent(0) - 1;
  for (std::size_t ta = a; ta < s.e0; ta += l0)
    load_plane_share(tile, s, in, ta, c0 + ta < last0 ? c0 + ta : last0, c1, c2, b, c, l1, l2);
}

/// The stencil at local point (a, b, c) of the group (tile coordinates a + 1, ...).
template <class Tile, class T>
KOKKOS_INLINE_FUNCTION T update_from_tile(const Tile& tile, const TileShape& s, std::size_t a, std::size_t b,
                                          std::size_t c, T alpha) {
  return update(tile[s.at(a + 1, b + 1, c + 1)], tile[s.at(a, b + 1, c + 1)], tile[s.at(a + 2, b + 1, c + 1)],
                tile[s.at(a + 1, b, c + 1)], tile[s.at(a + 1, b + 2, c + 1)], tile[s.at(a + 1, b + 1, c)],
                tile[s.at(a + 1, b + 1, c + 2)], alpha);
}

/// Both stencil kernels are compiled for three resident 512-item groups per GPU
/// multiprocessor (at most 40 registers a work-item). Left to itself nvcc gave the phased
/// more, which leaves room for two, and ran slower on an H100 (results/ has the A/B).
using StencilBounds = kapi::LaunchBounds<512, 3>;

struct StencilNdRange {
  using launch_bounds = StencilBounds;
  template <class In, class Out, class T>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<3>& it, const In& in, const Out& out,
                                         const kapi::LocalAccessor<T, 1>& tile, T alpha) const {
    const std::size_t l0 = it.get_local_range(0), l1 = it.get_local_range(1), l2 = it.get_local_range(2);
    const TileShape s{l0 + 2, l1 + 2, l2 + 2};
    const auto g = it.get_group();
    // The tile's corner in `in` (the group's first interior point is corner + 1).
    const std::size_t c0 = g.get_group_id(0) * l0, c1 = g.get_group_id(1) * l1, c2 = g.get_group_id(2) * l2;
    const std::size_t a = it.get_local_id(0), b = it.get_local_id(1), c = it.get_local_id(2);
    load_tile_share(tile, s, in, c0, c1, c2, a, b, c, l0, l1, l2);
    kapi::group_barrier(g);
    const std::size_t i = c0 + a + 1, j = c1 + b + 1, k = c2 + c + 1;
    if (i + 1 < in.extent(0) && j + 1 < in.extent(1) && k + 1 < in.extent(2))
      out(i, j, k) = update_from_tile(tile, s, a, b, c, alpha);
  }
};

/// The work-group shape {2, 8, 32} on every backend (z along the warp: coalesced rows),
/// each extent no larger than the interior needs. On a host core the tile costs copies,
/// not global-memory traffic: this tile copies fewer values per work-item than {1, 4, 32}
/// does, which made the phased kernel faster on a host; the nd-range kernel, bound by its
/// barrier, is slower with it (results/ has the A/B).
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
  return kapi::call_kernel_async(space, StencilNdRange{}, r, in, out,
                                 kapi::LocalAccessor<T, 1>((l[0] + 2) * (l[1] + 2) * (l[2] + 2)), alpha);
}

}  // namespace heat3d
