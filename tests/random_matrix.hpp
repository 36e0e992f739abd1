// SPDX-License-Identifier: Apache-2.0
#pragma once
// random_matrix: a rows×cols LayoutRight View on Space's memory filled with values in
// [-1, 1) from a fixed seed (fractional, so a changed order of sums shows), for the tests
// that check products against host references.
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <random>
#include <string>

namespace kapi_test {

template <class T, class Space>
Kokkos::View<T**, Kokkos::LayoutRight, typename Space::memory_space> random_matrix(const char* label, std::size_t rows,
                                                                                   std::size_t cols, unsigned seed) {
  Kokkos::View<T**, Kokkos::LayoutRight, typename Space::memory_space> m(std::string(label), rows, cols);
  auto h = Kokkos::create_mirror_view(m);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(-1, 1);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) h(i, j) = T(dist(gen));
  Kokkos::deep_copy(m, h);
  return m;
}

}  // namespace kapi_test
