// SPDX-License-Identifier: Apache-2.0
// scripts/compile-time.sh: the same work as plain_kokkos.cpp as a kapi range kernel.
#include <kapi/kapi.hpp>

void scale(Kokkos::View<float*> x, float a) {
  kapi::call_kernel(
      "scale", KOKKOS_LAMBDA(kapi::Item<1> it, Kokkos::View<float*> v, float f) { v(it.get_id(0)) *= f; },
      kapi::Range<1>{x.extent(0)}, x, a);
}
