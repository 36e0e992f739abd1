// SPDX-License-Identifier: Apache-2.0
#pragma once
// The phased twin of the nd-range kernel (nd_range.hpp): the same block, loaded in one
// phase with its two x-halo planes (what that kernel keeps in registers across the barrier,
// a phase can only keep in local memory), then updated in one phase per plane, each a loop
// over the plane's points that a host compiler vectorises along z. Same arguments,
// nd-range and results (the same arithmetic on the same values).
#include <cstddef>

#include <kapi/hierarchical.hpp>
#include <kapi/item.hpp>
#include <kapi/launch.hpp>
#include <kapi/local_accessor.hpp>
#include <kapi/phased.hpp>
#include <kapi/work_group.hpp>

#include "nd_range.hpp"

namespace heat3d {

template <std::size_t Column = default_column>
struct StencilPhased {
  using launch_bounds = StencilBounds;
  template <class In, class Out, class T>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::WorkGroup<3>& wg, const In& in, const Out& out,
                                         const kapi::LocalAccessor<T, 1>& block, T alpha) const {
    const TileShape s{Column + 2, wg.get_local_range(1), wg.get_local_range(2)};
    const std::size_t c0 = wg.get_group_id(0) * Column, c1 = wg.get_group_id(1) * s.e1, c2 = wg.get_group_id(2) * s.e2;
    const std::size_t last0 = in.extent(0) - 1, last1 = in.extent(1) - 1, last2 = in.extent(2) - 1;
    kapi::for_each_work_item(wg, [&](const kapi::NdItem<3>& it) {
      const std::size_t b = it.get_local_id(1), c = it.get_local_id(2);
      for (std::size_t q = 0; q < Column + 2; ++q)
        block[s.at(q, b, c)] = clamped_point(in, c0 + q, c1 + b + 1, c2 + c + 1);
    });
    for (std::size_t p = 0; p < Column && c0 + p + 1 < last0; ++p)
      kapi::for_each_work_item(wg, [&](const kapi::NdItem<3>& it) {
        const std::size_t b = it.get_local_id(1), c = it.get_local_id(2);
        const std::size_t i = c0 + p + 1, j = c1 + b + 1, k = c2 + c + 1;
        if (j < last1 && k < last2)
          out(i, j, k) = update(block[s.at(p + 1, b, c)], block[s.at(p, b, c)], block[s.at(p + 2, b, c)],
                                b > 0 ? block[s.at(p + 1, b - 1, c)] : in(i, j - 1, k),
                                b + 1 < s.e1 ? block[s.at(p + 1, b + 1, c)] : in(i, j + 1, k), in(i, j, k - 1),
                                in(i, j, k + 1), alpha);
      });
  }
};

/// Starts one step on `space`; the event's wait() completes it.
template <std::size_t Column = default_column, class ExecSpace, class In, class Out, class T>
kapi::KernelEvent<ExecSpace> step_phased(const ExecSpace& space, const In& in, const Out& out, T alpha) {
  check_grids(in, out);
  const auto r = stencil_nd_range<ExecSpace>(in.extent(0) - 2, in.extent(1) - 2, in.extent(2) - 2, Column);
  const auto l = r.get_local_range();
  return kapi::call_kernel_async(space, StencilPhased<Column>{}, r, in, out,
                                 kapi::LocalAccessor<T, 1>((Column + 2) * l.size()), alpha);
}

}  // namespace heat3d
