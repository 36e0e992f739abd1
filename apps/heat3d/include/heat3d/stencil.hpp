// SPDX-License-Identifier: Apache-2.0
#pragma once
// heat3d's arithmetic, shared by every kernel and the host reference: one Jacobi step of
// the heat equation with the 7-point stencil,
//   out = c + alpha * ((x- + x+) + (y- + y+) + (z- + z+) - 6 c),
// summed in this order everywhere, so the kernels differ only in where the neighbours
// come from.
#include <Kokkos_Core.hpp>
#include <cstddef>

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

/// The default diffusion number: stable below 1/6.
inline constexpr double default_alpha = 0.125;

}  // namespace heat3d
