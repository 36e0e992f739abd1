// SPDX-License-Identifier: Apache-2.0
// The anchor of scripts/compile-time.sh: a user's file with one plain Kokkos parallel_for.
#include <Kokkos_Core.hpp>

void scale(Kokkos::View<float*> x, float a) {
  Kokkos::parallel_for(
      "scale", x.extent(0), KOKKOS_LAMBDA(int i) { x(i) *= a; });
}
