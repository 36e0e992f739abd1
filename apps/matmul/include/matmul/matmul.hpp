#pragma once
// matmul: C = A·B for row-major (LayoutRight) matrices, by several kernels written with
// kapi and the Kokkos Kernels anchor. The interface the command-line program, the tests
// and the benchmarks share:
//
//   matmul::Matrix<float, Space> c("C", m, n);                // A: m×k, B: k×n
//   matmul::multiply<float>("tuned", space, a, b, c);         // returns when C is written
//
// Variants (matmul::variants() lists those this build has), each in its own header:
//   seed-t2, seed-t8,   the seed's sliding-window kernel (flat nd-range, LocalAccessor
//   seed-t16, seed-t32  tiles, group_barrier), Tile×Tile work-groups  (sliding_window.hpp)
//   phased-t16          the same algorithm in the phased form           (sliding_window_phased.hpp)
//   naive               a range kernel, one inner product per element   (naive.hpp)
//   tuned               register-blocked nd-range kernel                (tuned.hpp)
//   kokkos-kernels      anchor: KokkosBlas::gemm (OpenBLAS / cuBLAS)    (kokkos_kernels.hpp)
// Element types float and double; any m, n, k (including 0 and sizes that are not
// multiples of the blocks). No variant allocates: the local tiles are the launch's
// scratch, so nothing beyond A, B and C needs preallocating.
// Accuracy: every variant sums K products per element; reference.hpp checks against a
// double-precision product with tolerance K·eps·(|A|·|B|)_ij.
#include <stdexcept>
#include <string>
#include <vector>

#include "kokkos_kernels.hpp"
#include "naive.hpp"
#include "sliding_window.hpp"
#include "sliding_window_phased.hpp"
#include "tuned.hpp"

namespace matmul {

/// C = A·B with the seed's algorithm in the phased form, Tile×Tile work-groups.
template <std::size_t Tile, class ExecSpace, class A, class B, class C>
void multiply_sliding_window_phased(const ExecSpace& space, const A& a, const B& b, const C& c) {
  using T = typename C::non_const_value_type;
  kapi::LocalAccessor<T, 2> a_tile(Tile, Tile), b_tile(Tile, Tile);
  kapi::call_kernel(space, SlidingWindowPhased{}, sliding_window_range(c.extent(0), c.extent(1), Tile), a, b, c,
                    a_tile, b_tile);
}

template <class T, class ExecSpace>
using Matrix = Kokkos::View<T**, Kokkos::LayoutRight, typename ExecSpace::memory_space>;
template <class T, class ExecSpace>
using ConstMatrix = Kokkos::View<const T**, Kokkos::LayoutRight, typename ExecSpace::memory_space>;

/// The variants this build provides, in the order the program runs them.
inline std::vector<std::string> variants() {
  std::vector<std::string> v = {"seed-t2", "seed-t8", "seed-t16", "seed-t32", "phased-t16", "naive", "tuned"};
#if defined(KAPI_APPS_HAVE_KOKKOS_KERNELS)
  v.push_back("kokkos-kernels");
#endif
  return v;
}

inline void check_variant(const std::string& variant) {
  for (const auto& v : variants())
    if (v == variant) return;
  std::string known;
  for (const auto& v : variants()) known += (known.empty() ? "" : ", ") + v;
  throw std::invalid_argument("matmul: unknown variant '" + variant + "'; this build has " + known);
}

/// C = A·B by `variant` on `space`; returns when C is written.
template <class T, class ExecSpace>
void multiply(const std::string& variant, const ExecSpace& space, const ConstMatrix<T, ExecSpace>& a,
              const ConstMatrix<T, ExecSpace>& b, const Matrix<T, ExecSpace>& c) {
  if (a.extent(0) != c.extent(0) || b.extent(1) != c.extent(1) || a.extent(1) != b.extent(0))
    throw std::invalid_argument("matmul: shapes do not match: A is " + std::to_string(a.extent(0)) + "x" +
                                std::to_string(a.extent(1)) + ", B " + std::to_string(b.extent(0)) + "x" +
                                std::to_string(b.extent(1)) + ", C " + std::to_string(c.extent(0)) + "x" +
                                std::to_string(c.extent(1)));
  if (variant == "seed-t2") return multiply_sliding_window<2>(space, a, b, c);
  if (variant == "seed-t8") return multiply_sliding_window<8>(space, a, b, c);
  if (variant == "seed-t16") return multiply_sliding_window<16>(space, a, b, c);
  if (variant == "seed-t32") return multiply_sliding_window<32>(space, a, b, c);
  if (variant == "phased-t16") return multiply_sliding_window_phased<16>(space, a, b, c);
  if (variant == "naive") return multiply_naive(space, a, b, c);
  if (variant == "tuned") return multiply_tuned(space, a, b, c);
#if defined(KAPI_APPS_HAVE_KOKKOS_KERNELS)
  if (variant == "kokkos-kernels") {
    multiply_kokkos_kernels(space, a, b, c);
    space.fence();
    return;
  }
#endif
  check_variant(variant);
}

}  // namespace matmul
