// SPDX-License-Identifier: Apache-2.0
#pragma once
// The host reference of heat3d: the same steps as plain loops, and the data every run
// starts from.
#include <cmath>
#include <cstdint>
#include <limits>

#include "stencil.hpp"

namespace heat3d {

/// The starting value at global point (i, j, k) of a grid of padded extents
/// (e0, e1, e2), boundary layer included: distinct, in [0, 1) (splitmix64 of the index).
KOKKOS_INLINE_FUNCTION double initial_value(std::uint64_t i, std::uint64_t j, std::uint64_t k, std::uint64_t e1,
                                            std::uint64_t e2) {
  std::uint64_t z = (i * e1 + j) * e2 + k + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return double(z >> 11) * 0x1.0p-53;
}

/// Fills the host grid h (a block at `offset` of a global padded grid of extents e1, e2
/// in the last two dimensions) with initial_value.
template <class HostGrid>
void fill_initial(const HostGrid& h, std::size_t o0, std::size_t o1, std::size_t o2, std::size_t e1, std::size_t e2) {
  using T = typename HostGrid::non_const_value_type;
  for (std::size_t i = 0; i < h.extent(0); ++i)
    for (std::size_t j = 0; j < h.extent(1); ++j)
      for (std::size_t k = 0; k < h.extent(2); ++k) h(i, j, k) = T(initial_value(o0 + i, o1 + j, o2 + k, e1, e2));
}

/// One step on the host: out's interior from in.
template <class HostGrid, class T>
void step_reference(const HostGrid& in, const HostGrid& out, T alpha) {
  for (std::size_t i = 1; i + 1 < in.extent(0); ++i)
    for (std::size_t j = 1; j + 1 < in.extent(1); ++j)
      for (std::size_t k = 1; k + 1 < in.extent(2); ++k)
        out(i, j, k) = update(in(i, j, k), in(i - 1, j, k), in(i + 1, j, k), in(i, j - 1, k), in(i, j + 1, k),
                              in(i, j, k - 1), in(i, j, k + 1), alpha);
}

/// The largest |a - b| over two host grids, and whether every point is within
/// `steps` * 8 eps of the largest |value| (fused multiply-adds may differ between a
/// kernel and the reference; the averaging step does not amplify earlier errors).
struct Comparison {
  double max_error = 0, bound = 0;
  std::size_t wrong = 0;
};
template <class T, class A, class B>
Comparison compare(const A& a, const B& b, int steps) {
  Comparison c;
  double largest = 0;
  for (std::size_t i = 0; i < a.extent(0); ++i)
    for (std::size_t j = 0; j < a.extent(1); ++j)
      for (std::size_t k = 0; k < a.extent(2); ++k) {
        // Not std::fmax (the same for the NaN it skips): GCC 12.2 for aarch64 crashes
        // vectorising an fmax reduction of widened floats at -O3.
        const double x = std::fabs(double(b(i, j, k)));
        if (x > largest) largest = x;
      }
  c.bound = double(steps > 0 ? steps : 1) * 8.0 * double(std::numeric_limits<T>::epsilon()) * largest;
  for (std::size_t i = 0; i < a.extent(0); ++i)
    for (std::size_t j = 0; j < a.extent(1); ++j)
      for (std::size_t k = 0; k < a.extent(2); ++k) {
        const double e = std::fabs(double(a(i, j, k)) - double(b(i, j, k)));
        c.max_error = std::fmax(c.max_error, e);
        if (!(e <= c.bound)) ++c.wrong;
      }
  return c;
}

}  // namespace heat3d
