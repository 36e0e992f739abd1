// SPDX-License-Identifier: Apache-2.0
// scripts/compile-time.sh: range.cpp's kernel and an nd-range kernel with local memory and
// a barrier (each group reverses its block of x in place).
#include <kapi/kapi.hpp>

void scale(Kokkos::View<float*> x, float a) {
  kapi::call_kernel(
      "scale", KOKKOS_LAMBDA(kapi::Item<1> it, Kokkos::View<float*> v, float f) { v(it.get_id(0)) *= f; },
      kapi::Range<1>{x.extent(0)}, x, a);
}

void reverse_blocks(Kokkos::View<float*> x) {  // x.extent(0): a multiple of 64
  kapi::call_kernel(
      "reverse-blocks",
      KOKKOS_LAMBDA(kapi::NdItem<1> it, Kokkos::View<float*> v, kapi::LocalAccessor<float, 1> tile) {
        const std::size_t l = it.get_local_id(0), n = it.get_local_range(0);
        tile[l] = v(it.get_global_id(0));
        kapi::group_barrier(it.get_group());
        v(it.get_global_id(0)) = tile[n - 1 - l];
      },
      kapi::NdRange<1>({x.extent(0)}, {64}), x, kapi::LocalAccessor<float, 1>(kapi::Range<1>{64}));
}
