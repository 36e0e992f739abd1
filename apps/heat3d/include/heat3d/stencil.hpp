// SPDX-License-Identifier: Apache-2.0
#pragma once
// heat3d's arithmetic, shared by every kernel and the host reference: one Jacobi step of
// the heat equation with the 7-point stencil,
//   out = c + alpha * ((x- + x+) + (y- + y+) + (z- + z+) - 6 c),
// summed in this order everywhere, so the kernels differ only in where the neighbours
// come from.
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <string>

#include <kapi/errors.hpp>

namespace heat3d {

/// A block of the domain with one boundary (or ghost) layer on each side: extents
/// (nx + 2, ny + 2, nz + 2), LayoutRight (z contiguous). Kernels write the interior
/// [1, n] only; the layer holds the fixed boundary values (or, distributed, the
/// neighbours' faces).
template <class T, class MemorySpace>
using Grid = Kokkos::View<T***, Kokkos::LayoutRight, MemorySpace>;

template <class T>
KOKKOS_INLINE_FUNCTION T update(T c, T xm, T xp, T ym, T yp, T zm, T zp, T alpha) {
  return c + alpha * ((((xm + xp) + (ym + yp)) + (zm + zp)) - T(6) * c);
}

/// Checks that `in` and `out` are grids of the same extents with an interior (kapi::launch_error
/// otherwise): every step function does, before it computes a launch from the extents.
template <class In, class Out>
void check_grids(const In& in, const Out& out) {
  for (int d = 0; d < 3; ++d) {
    if (in.extent(d) < 3 || in.extent(d) != out.extent(d))
      throw kapi::launch_error("heat3d: the grids' extents (" + std::to_string(in.extent(0)) + ", " +
                               std::to_string(in.extent(1)) + ", " + std::to_string(in.extent(2)) + ") and (" +
                               std::to_string(out.extent(0)) + ", " + std::to_string(out.extent(1)) + ", " +
                               std::to_string(out.extent(2)) +
                               ") must be equal and at least 3 (a boundary layer on each side of the interior)");
  }
}

/// The default diffusion number: stable below 1/6.
inline constexpr double default_alpha = 0.125;

}  // namespace heat3d
