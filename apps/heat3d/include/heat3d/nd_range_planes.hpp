// SPDX-License-Identifier: Apache-2.0
#pragma once
// The marching nd-range kernel (2.5-d blocking): a work-group owns a column of the
// interior, l1 × l2 points of each plane in a run of planes along x, and walks it plane
// by plane. Local memory holds three planes of the column with a one-point halo in y and
// z, (l1 + 2)(l2 + 2) values each: at every plane the group loads the plane above into the
// free one, waits once, and each work-item updates its point from the plane it is on
// (the centre and its four y and z neighbours) and the centres of the planes below (kept
// in a register from the step before) and above. An input value is read from global
// memory (l1 + 2)(l2 + 2) / (l1 l2) times per plane, against the tile kernel's
// (l0 + 2)(l1 + 2)(l2 + 2) / (l0 l1 l2) (nd_range.hpp), at one barrier per plane.
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

/// Planes a work-group walks when the caller does not say: on a device, runs short
/// enough for several groups per multiprocessor on small grids; on a host (one thread
/// runs a group), the whole column, walked in memory order.
template <class ExecSpace>
std::size_t default_planes_per_group(std::size_t n0) {
  if constexpr (kapi::space_traits<ExecSpace>::is_host)
    return n0;
  else
    return n0 < 16 ? n0 : 16;
}

struct StencilNdRangePlanes {
  using launch_bounds = StencilBounds;
  template <class In, class Out, class T>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<3>& it, const In& in, const Out& out,
                                         const kapi::LocalAccessor<T, 1>& planes, T alpha,
                                         std::size_t planes_per_group) const {
    const std::size_t l1 = it.get_local_range(1), l2 = it.get_local_range(2);
    const TileShape s{3, l1 + 2, l2 + 2};  // the three planes, each with its y and z halo
    const auto g = it.get_group();
    // The column's corner in y and z (its first interior point is corner + 1), and its run of
    // interior planes [first, end).
    const std::size_t c1 = g.get_group_id(1) * l1, c2 = g.get_group_id(2) * l2;
    const std::size_t b = it.get_local_id(1), c = it.get_local_id(2);
    const std::size_t last0 = in.extent(0) - 1, last1 = in.extent(1) - 1, last2 = in.extent(2) - 1;
    const std::size_t first = 1 + g.get_group_id(0) * planes_per_group;
    const std::size_t end = first + planes_per_group < last0 ? first + planes_per_group : last0;
    const std::size_t j = c1 + b + 1, k = c2 + c + 1;
    const bool writes = j < last1 && k < last2;
    T below = in(first - 1, j < last1 ? j : last1, k < last2 ? k : last2);
    // The three planes rotate: the one being updated, the one above, the one being loaded.
    // A plane is loaded two steps after its last read, with a barrier between.
    std::size_t on = 0, above = 1, free = 2;
    load_plane_share(planes, s, in, on, first, c1, c2, b, c, l1, l2);
    for (std::size_t i = first; i < end; ++i) {
      load_plane_share(planes, s, in, above, i + 1, c1, c2, b, c, l1, l2);
      kapi::group_barrier(g);
      const T here = planes[s.at(on, b + 1, c + 1)];
      if (writes)
        out(i, j, k) =
            update(here, below, planes[s.at(above, b + 1, c + 1)], planes[s.at(on, b, c + 1)],
                   planes[s.at(on, b + 2, c + 1)], planes[s.at(on, b + 1, c)], planes[s.at(on, b + 1, c + 2)], alpha);
      below = here;
      const std::size_t done = on;
      on = above, above = free, free = done;
    }
  }
};

/// Work-groups of {1, l1, l2} (the tile kernel's y and z extents) over the columns, one
/// group per run of `planes_per_group` planes along x.
template <class ExecSpace>
kapi::NdRange<3> stencil_nd_range_planes(std::size_t n0, std::size_t n1, std::size_t n2, std::size_t planes_per_group) {
  const auto tile = stencil_local_range<ExecSpace>(n0, n1, n2);
  const kapi::Range<3> local(1, tile[1], tile[2]);
  return kapi::NdRange<3>(
      kapi::Range<3>(kapi::ceil_div(n0, planes_per_group), kapi::round_up(n1, local[1]), kapi::round_up(n2, local[2])),
      local);
}

/// Starts one step on `space`; the event's wait() completes it. planes_per_group 0: the
/// backend's default (default_planes_per_group).
template <class ExecSpace, class In, class Out, class T>
kapi::KernelEvent<ExecSpace> step_nd_range_planes(const ExecSpace& space, const In& in, const Out& out, T alpha,
                                                  std::size_t planes_per_group = 0) {
  const std::size_t n0 = in.extent(0) - 2;
  if (planes_per_group == 0) planes_per_group = default_planes_per_group<ExecSpace>(n0);
  const auto r = stencil_nd_range_planes<ExecSpace>(n0, in.extent(1) - 2, in.extent(2) - 2, planes_per_group);
  const auto l = r.get_local_range();
  return kapi::call_kernel_async(space, StencilNdRangePlanes{}, r, in, out,
                                 kapi::LocalAccessor<T, 1>(TileShape{3, l[1] + 2, l[2] + 2}.size()), alpha,
                                 planes_per_group);
}

}  // namespace heat3d
