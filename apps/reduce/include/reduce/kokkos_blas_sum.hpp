// SPDX-License-Identifier: Apache-2.0
#pragma once
// Anchor: KokkosBlas::sum from Kokkos Kernels (a Kokkos reduction, no vendor TPL for a
// plain sum), run on the given execution space: the view is re-typed with the space as
// its device so that Kokkos Kernels does not fall back to the default execution space.
#include <Kokkos_Core.hpp>

#if defined(KAPI_APPS_HAVE_KOKKOS_KERNELS)
#include <KokkosBlas1_sum.hpp>

namespace reduce {

template <class T, class ExecSpace>
T sum_kokkos_blas(const ExecSpace&, const Kokkos::View<const T*, typename ExecSpace::memory_space>& x) {
  using OnSpace =
      Kokkos::View<const T*, Kokkos::LayoutLeft, Kokkos::Device<ExecSpace, typename ExecSpace::memory_space>,
                   Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  return KokkosBlas::sum(OnSpace(x.data(), x.extent(0)));
}

}  // namespace reduce
#endif
