// SPDX-License-Identifier: Apache-2.0
#pragma once
// Anchor: KokkosBlas::gemm from Kokkos Kernels, C = 1·A·B + 0·C. With the BLAS TPL a
// host execution space calls the vendor dgemm/sgemm (OpenBLAS here; Kokkos Kernels 3.4
// maps LayoutRight to the column-major call by swapping A and B), and with the cuBLAS
// TPL CUDA calls cublas{S,D}gemm. The views are re-typed with the execution space as
// their device, so the call runs on that space and not on the default one.
#include <Kokkos_Core.hpp>

#if defined(KAPI_APPS_HAVE_KOKKOS_KERNELS)
#include <KokkosBlas3_gemm.hpp>

#include <climits>
#include <cstddef>
#include <stdexcept>
#include <string>

namespace matmul {

/// The largest m, n or k the anchor takes: Kokkos Kernels 3.4 hands the sizes and row
/// strides to BLAS as int (a larger one would wrap to a wrong or negative size).
inline constexpr std::size_t kokkos_kernels_max_extent = INT_MAX;

template <class ExecSpace, class A, class B, class C>
void multiply_kokkos_kernels(const ExecSpace& space, const A& a, const B& b, const C& c) {
  using T = typename C::non_const_value_type;
  for (const std::size_t e : {a.extent(0), a.extent(1), b.extent(1)})
    if (e > kokkos_kernels_max_extent)
      throw std::length_error("matmul: kokkos-kernels takes m, n and k up to " +
                              std::to_string(kokkos_kernels_max_extent) + " (BLAS int sizes), got " +
                              std::to_string(e));
  using Device = Kokkos::Device<ExecSpace, typename ExecSpace::memory_space>;
  using Unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
  using In = Kokkos::View<const T**, Kokkos::LayoutRight, Device, Unmanaged>;
  using Out = Kokkos::View<T**, Kokkos::LayoutRight, Device, Unmanaged>;
  const Out out = c;       // same memory, strides kept; only the view's device type changes
  if (a.extent(1) == 0) {  // Kokkos Kernels returns early without writing C when K = 0
    Kokkos::deep_copy(space, out, T(0));
    return;
  }
  const In in_a = a, in_b = b;
  KokkosBlas::gemm("N", "N", T(1), in_a, in_b, T(0), out);
}

}  // namespace matmul
#endif
