// SPDX-License-Identifier: Apache-2.0
#pragma once
// The range kernel: one work-item per interior point, its six neighbours read from
// global memory.
#include <kapi/item.hpp>
#include <kapi/launch.hpp>
#include <kapi/range.hpp>

#include "stencil.hpp"

namespace heat3d {

struct StencilRange {
  template <class In, class Out, class T>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::Item<3>& it, const In& in, const Out& out, T alpha) const {
    const std::size_t i = it.get_id(0) + 1, j = it.get_id(1) + 1, k = it.get_id(2) + 1;
    out(i, j, k) = update(in(i, j, k), in(i - 1, j, k), in(i + 1, j, k), in(i, j - 1, k), in(i, j + 1, k),
                          in(i, j, k - 1), in(i, j, k + 1), alpha);
  }
};

/// Starts one step on `space`; the event's wait() completes it.
template <class ExecSpace, class In, class Out, class T>
kapi::KernelEvent<ExecSpace> step_range(const ExecSpace& space, const In& in, const Out& out, T alpha) {
  check_grids(in, out);
  return kapi::call_kernel_async(space, StencilRange{},
                                 kapi::Range<3>(in.extent(0) - 2, in.extent(1) - 2, in.extent(2) - 2), in, out, alpha);
}

}  // namespace heat3d
