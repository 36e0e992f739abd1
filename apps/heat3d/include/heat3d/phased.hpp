// SPDX-License-Identifier: Apache-2.0
#pragma once
// The phased twin of the nd-range kernel (nd_range.hpp): the same block, loaded in one
// phase and read in the next, with the barrier between them implied. Same arguments,
// nd-range and results (the same arithmetic on the same values).
#include <kapi/hierarchical.hpp>
#include <kapi/item.hpp>
#include <kapi/launch.hpp>
#include <kapi/local_accessor.hpp>
#include <kapi/phased.hpp>
#include <kapi/work_group.hpp>

#include "nd_range.hpp"

namespace heat3d {

struct StencilPhased {
  using launch_bounds = StencilBounds;
  template <class In, class Out, class T>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::WorkGroup<3>& wg, const In& in, const Out& out,
                                         const kapi::LocalAccessor<T, 1>& block, T alpha) const {
    const TileShape s{wg.get_local_range(0), wg.get_local_range(1), wg.get_local_range(2)};
    const std::size_t c0 = wg.get_group_id(0) * s.e0, c1 = wg.get_group_id(1) * s.e1, c2 = wg.get_group_id(2) * s.e2;
    kapi::for_each_work_item(wg, [&](const kapi::NdItem<3>& it) {
      const std::size_t a = it.get_local_id(0), b = it.get_local_id(1), c = it.get_local_id(2);
      block[s.at(a, b, c)] = block_point(in, c0, c1, c2, a, b, c);
    });
    kapi::for_each_work_item(wg, [&](const kapi::NdItem<3>& it) {
      const std::size_t a = it.get_local_id(0), b = it.get_local_id(1), c = it.get_local_id(2);
      const std::size_t i = c0 + a + 1, j = c1 + b + 1, k = c2 + c + 1;
      if (i + 1 < in.extent(0) && j + 1 < in.extent(1) && k + 1 < in.extent(2))
        out(i, j, k) = update_from_block(block, s, in, i, j, k, a, b, c, alpha);
    });
  }
};

/// Starts one step on `space`; the event's wait() completes it.
template <class ExecSpace, class In, class Out, class T>
kapi::KernelEvent<ExecSpace> step_phased(const ExecSpace& space, const In& in, const Out& out, T alpha) {
  check_grids(in, out);
  const auto r = stencil_nd_range<ExecSpace>(in.extent(0) - 2, in.extent(1) - 2, in.extent(2) - 2);
  const auto l = r.get_local_range();
  return kapi::call_kernel_async(space, StencilPhased{}, r, in, out, kapi::LocalAccessor<T, 1>(l.size()), alpha);
}

}  // namespace heat3d
