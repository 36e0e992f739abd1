#pragma once
// reduce: sums of a 1-d array, by several algorithms written with kapi, and the
// Kokkos anchors. The interface the command-line program, the tests and the
// benchmarks share:
//
//   reduce::Workspace<float, Space> ws(space, n);        // allocate once per size
//   float s = reduce::sum<float>("recursive", space, x, ws);   // x: View<const float*, mem>
//
// Variants (reduce::variants() lists those this build has):
//   pairwise               the seed's multi-pass pairwise kernel, ceil(log2 n) range launches
//   recursive              the seed's recursive work-group reduction in local memory
//   single-pass            one nd-range launch: reduce_over_group, then the last group to
//                          finish (an atomic counter) adds the groups' partial sums
//                          (both: kapi::reduce of kapi/device_reduce.hpp with kapi::plus)
//   kokkos-parallel-reduce anchor: Kokkos::parallel_reduce over a RangePolicy
//   kokkos-blas-sum        anchor: KokkosBlas::sum (needs Kokkos Kernels)
// Element types: int32, int64 (exact), float, double.
//
// Accuracy: a floating-point result obeys |computed - exact| <= d * eps * sum|x_i|, where
// d is the depth of the variant's summation tree (reduce::error_depth) and eps the
// type's machine epsilon (twice the unit roundoff, so the bound is twice the classic
// gamma_d). The tree variants have depths in the tens for any n, so fp32 sums stay
// accurate far past 2^24 elements, where a single float accumulator stops growing.
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "kokkos_blas_sum.hpp"
#include "kokkos_parallel_reduce.hpp"
#include "pairwise.hpp"
#include "recursive.hpp"
#include "single_pass.hpp"
#include "workspace.hpp"

namespace reduce {

/// The variants this build provides, in the order the program runs them.
inline std::vector<std::string> variants() {
  std::vector<std::string> v = {"pairwise", "recursive", "single-pass", "kokkos-parallel-reduce"};
#if defined(KAPI_APPS_HAVE_KOKKOS_KERNELS)
  v.push_back("kokkos-blas-sum");
#endif
  return v;
}

inline void check_variant(const std::string& variant) {
  for (const auto& v : variants())
    if (v == variant) return;
  std::string known;
  for (const auto& v : variants()) known += (known.empty() ? "" : ", ") + v;
  throw std::invalid_argument("reduce: unknown variant '" + variant + "'; this build has " + known);
}

/// The sum of x by `variant`, computed on `space` in the workspace `ws`. Returns when done.
template <class T, class ExecSpace>
T sum(const std::string& variant, const ExecSpace& space,
      const Kokkos::View<const T*, typename ExecSpace::memory_space>& x, Workspace<T, ExecSpace>& ws) {
  if (variant == "pairwise") return sum_pairwise(space, x, ws);
  if (variant == "recursive") return sum_recursive(space, x, ws);
  if (variant == "single-pass") return sum_single_pass(space, x, ws);
  if (variant == "kokkos-parallel-reduce") return sum_kokkos_parallel_reduce(space, x);
#if defined(KAPI_APPS_HAVE_KOKKOS_KERNELS)
  if (variant == "kokkos-blas-sum") return sum_kokkos_blas(space, x);
#endif
  check_variant(variant);
  return T(0);
}

/// The depth d of `variant`'s summation tree for n elements on `space`.
template <class T, class ExecSpace>
std::size_t error_depth(const std::string& variant, const ExecSpace& space, std::size_t n) {
  check_variant(variant);
  if (variant == "pairwise") return pairwise_depth(n);
  if (variant == "recursive") return recursive_depth<T>(space, n);
  if (variant == "single-pass") return single_pass_depth<T>(space, n);
  return kokkos_reduce_depth(space, n);
}

/// The largest |computed - exact| the variant may give for an array with sum|x_i| =
/// abs_sum (0 for integers, whose sums are exact).
template <class T, class ExecSpace>
double error_bound(const std::string& variant, const ExecSpace& space, std::size_t n, double abs_sum) {
  if constexpr (std::is_integral_v<T>) {
    return 0.0;
  } else {
    return double(error_depth<T>(variant, space, n)) * double(std::numeric_limits<T>::epsilon()) * abs_sum;
  }
}

}  // namespace reduce
