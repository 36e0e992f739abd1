// SPDX-License-Identifier: Apache-2.0
#pragma once
// The marching nd-range kernel (2.5-d blocking): a work-group owns a column of the
// interior, l1 × l2 points of each plane in a run of planes along x, and walks it plane
// by plane. Each work-item keeps its point's values in registers for the plane below, the
// one it updates and the one above; only the plane being updated goes to local memory,
// with its one-point halo in y and z (the four edges, no corners: a 7-point stencil does
// not read them), for the four neighbours in that plane. Two such planes alternate, so
// one barrier per plane keeps a plane's readers ahead of its next writer. An input value
// is read from global memory (l1 l2 + 2 l1 + 2 l2) / (l1 l2) times; every read is issued
// `Ahead` planes before its value is needed, so it is in flight while the group waits and
// computes.
#include <cstddef>

#include <kapi/barrier.hpp>
#include <kapi/integer_math.hpp>
#include <kapi/item.hpp>
#include <kapi/launch.hpp>
#include <kapi/local_accessor.hpp>
#include <kapi/range.hpp>
#include <kapi/space_traits.hpp>

#include "nd_range.hpp"
#include "stencil.hpp"

namespace heat3d {

/// The h-th point of a plane's halo in a tile plane of (l1 + 2) × (l2 + 2): the row before
/// the column's first (h < l2), the row after its last, then the two side columns. Rows
/// first, so that with l2 a multiple of the warp a warp copies part of one row.
struct PlaneHalo {
  std::size_t l1, l2;
  KOKKOS_INLINE_FUNCTION std::size_t size() const { return 2 * (l1 + l2); }
  KOKKOS_INLINE_FUNCTION std::size_t row(std::size_t h) const {
    return h < l2 ? 0 : h < 2 * l2 ? l1 + 1 : h < 2 * l2 + l1 ? h - 2 * l2 + 1 : h - 2 * l2 - l1 + 1;
  }
  KOKKOS_INLINE_FUNCTION std::size_t col(std::size_t h) const {
    return h < l2 ? h + 1 : h < 2 * l2 ? h - l2 + 1 : h < 2 * l2 + l1 ? 0 : l2 + 1;
  }
};

/// Ahead: how many planes beyond the one being updated each work-item has in flight. One
/// by default: on an H100 two cost the registers of occupancy and ran slower.
template <std::size_t Ahead = 1>
struct StencilNdRangePlanes {
  static_assert(Ahead >= 1, "the next plane is read before the wait");
  using launch_bounds = StencilBounds;
  template <class In, class Out, class T>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<3>& it, const In& in, const Out& out,
                                         const kapi::LocalAccessor<T, 1>& planes, T alpha,
                                         std::size_t planes_per_group) const {
    const std::size_t l1 = it.get_local_range(1), l2 = it.get_local_range(2);
    const TileShape s{2, l1 + 2, l2 + 2};  // the two alternating planes, each with its halo
    const PlaneHalo halo{l1, l2};
    const auto g = it.get_group();
    // The column's corner in y and z (its first interior point is corner + 1), and its run of
    // interior planes [first, end).
    const std::size_t c1 = g.get_group_id(1) * l1, c2 = g.get_group_id(2) * l2;
    const std::size_t b = it.get_local_id(1), c = it.get_local_id(2);
    const std::size_t last0 = in.extent(0) - 1, last1 = in.extent(1) - 1, last2 = in.extent(2) - 1;
    const std::size_t first = 1 + g.get_group_id(0) * planes_per_group;
    const std::size_t end = first + planes_per_group < last0 ? first + planes_per_group : last0;
    const auto plane = [last0](std::size_t i) { return i < last0 ? i : last0; };
    // Padding work-items (beyond the grid in y or z) copy clamped values and write nothing.
    const std::size_t j = c1 + b + 1, k = c2 + c + 1;
    const bool writes = j < last1 && k < last2;
    const std::size_t jc = j < last1 ? j : last1, kc = k < last2 ? k : last2;
    // This work-item's first halo point; groups smaller than their halo copy the rest
    // when they store the plane.
    const std::size_t t = b * l2 + c, items = l1 * l2;
    const bool copies_halo = t < halo.size();
    const std::size_t ht = copies_halo ? halo.row(t) : 0, hc = copies_halo ? halo.col(t) : 0;
    const std::size_t hj = c1 + ht < last1 ? c1 + ht : last1, hk = c2 + hc < last2 ? c2 + hc : last2;
    // centre[q]: this point in plane i - 1 + q (below, here, above, then the planes read
    // ahead); edge[q]: this work-item's halo point in plane i + q.
    T centre[Ahead + 2], edge[Ahead];
    for (std::size_t q = 0; q < Ahead + 2; ++q) centre[q] = in(plane(first - 1 + q), jc, kc);
    for (std::size_t q = 0; q < Ahead; ++q) edge[q] = copies_halo ? in(plane(first + q), hj, hk) : T(0);
    // In the loop every address is a pointer stepped a plane at a time. Carried from one
    // iteration to the next, a pointer stays in a register; an address formed from indices
    // in the loop, nvcc forms again at every access rather than keep it live, and that
    // index arithmetic, not memory, then bounds the kernel.
    const std::size_t in_plane = in.stride(0), out_plane = out.stride(0);
    const std::ptrdiff_t tile_row = static_cast<std::ptrdiff_t>(s.e2);
    const T* centre_ahead = &in(plane(first + Ahead + 1), jc, kc);  // the next centre[Ahead + 1]
    const T* edge_ahead = &in(plane(first + Ahead), hj, hk);        // the next edge[Ahead - 1]
    T* out_at = &out(first, jc, kc);
    T* tile_at = &planes[s.at(0, b + 1, c + 1)];  // this point in plane i's slot
    T* halo_at = &planes[s.at(0, ht, hc)];
    std::ptrdiff_t to_other_slot = static_cast<std::ptrdiff_t>(s.at(1, 0, 0));
    // The plane count is carried too: the loop's end, formed from the group's id, was
    // formed again at every step.
    for (std::size_t i = first, planes_left = end - first; planes_left != 0; ++i, --planes_left) {
      *tile_at = centre[1];
      if (copies_halo) *halo_at = edge[0];
      // A group smaller than its halo copies the rest here; the test is the group's, so the
      // loop's set-up stays off every other group's path.
      if (items < halo.size()) {
        for (std::size_t h = t + items; h < halo.size(); h += items) {
          const std::size_t r = halo.row(h), q = halo.col(h);
          (tile_at - s.at(0, b + 1, c + 1))[s.at(0, r, q)] =
              in(i, c1 + r < last1 ? c1 + r : last1, c2 + q < last2 ? c2 + q : last2);
        }
      }
      // The values Ahead steps on, read before the wait.
      const T next_centre = *centre_ahead;
      const T next_edge = copies_halo ? *edge_ahead : T(0);
      if (i + Ahead + 1 < last0) centre_ahead += in_plane;
      if (i + Ahead < last0) edge_ahead += in_plane;
      kapi::group_barrier(g);
      if (writes)
        *out_at = update(centre[1], centre[0], centre[2], tile_at[-tile_row], tile_at[tile_row], tile_at[-1],
                         tile_at[1], alpha);
      out_at += out_plane;
      tile_at += to_other_slot;
      halo_at += to_other_slot;
      to_other_slot = -to_other_slot;
      for (std::size_t q = 0; q + 1 < Ahead + 2; ++q) centre[q] = centre[q + 1];
      centre[Ahead + 1] = next_centre;
      for (std::size_t q = 0; q + 1 < Ahead; ++q) edge[q] = edge[q + 1];
      edge[Ahead - 1] = next_edge;
    }
  }
};

/// The marching kernel's work-group shape: the block kernels' {1, 8, 32} on a host; on a
/// device {1, 4, 128}: rows of four warps, the fastest of the shapes tried on an H100 (its
/// larger halo is the neighbouring groups' rows, read from L2).
template <class ExecSpace>
kapi::Range<3> planes_local_range(std::size_t n1, std::size_t n2) {
  if constexpr (kapi::space_traits<ExecSpace>::is_host)
    return stencil_local_range<ExecSpace>(n1, n2);
  else
    return local_range_up_to(4, 128, n1, n2);
}

/// Work-groups of planes_local_range over the columns, one group per run of
/// `planes_per_group` planes along x.
template <class ExecSpace>
kapi::NdRange<3> stencil_nd_range_planes(std::size_t n0, std::size_t n1, std::size_t n2, std::size_t planes_per_group) {
  const auto local = planes_local_range<ExecSpace>(n1, n2);
  return kapi::NdRange<3>(
      kapi::Range<3>(kapi::ceil_div(n0, planes_per_group), kapi::round_up(n1, local[1]), kapi::round_up(n2, local[2])),
      local);
}

/// Planes a work-group walks on an n0 × n1 × n2 interior when the caller does not say. On
/// a host (one thread runs a group), the whole column, walked in memory order. On a
/// device, the longest run, up to 64 planes, that still gives the device one and a half
/// times the work-items it holds at once: a longer run reads its first planes fewer times,
/// shorter runs keep more groups in flight on small grids (on an H100 at n = 256, runs of
/// 64, one device-full, lost to the last wave what they saved); at least 8 planes.
template <class ExecSpace>
std::size_t default_planes_per_group(const ExecSpace& space, std::size_t n0, std::size_t n1, std::size_t n2) {
  if constexpr (kapi::space_traits<ExecSpace>::is_host) {
    (void)space, (void)n1, (void)n2;
    return n0;
  } else {
    constexpr std::size_t longest = 64, shortest = 8;
    const auto across = stencil_nd_range_planes<ExecSpace>(1, n1, n2, 1).get_global_range();
    const std::size_t items_per_run = across[1] * across[2];
    const std::size_t resident = static_cast<std::size_t>(space.concurrency() > 0 ? space.concurrency() : 1);
    std::size_t run = longest;
    while (run > shortest && 2 * (kapi::ceil_div(n0, run) * items_per_run) < 3 * resident) run /= 2;
    return n0 < run ? n0 : run;
  }
}

/// Starts one step on `space`; the event's wait() completes it. planes_per_group 0: the
/// backend's default (default_planes_per_group).
template <class ExecSpace, std::size_t Ahead = 1, class In, class Out, class T>
kapi::KernelEvent<ExecSpace> step_nd_range_planes(const ExecSpace& space, const In& in, const Out& out, T alpha,
                                                  std::size_t planes_per_group = 0) {
  check_grids(in, out);
  const std::size_t n0 = in.extent(0) - 2, n1 = in.extent(1) - 2, n2 = in.extent(2) - 2;
  if (planes_per_group == 0) planes_per_group = default_planes_per_group(space, n0, n1, n2);
  const auto r = stencil_nd_range_planes<ExecSpace>(n0, n1, n2, planes_per_group);
  const auto l = r.get_local_range();
  return kapi::call_kernel_async(space, StencilNdRangePlanes<Ahead>{}, r, in, out,
                                 kapi::LocalAccessor<T, 1>(TileShape{2, l[1] + 2, l[2] + 2}.size()), alpha,
                                 planes_per_group);
}

}  // namespace heat3d
