// SPDX-License-Identifier: Apache-2.0
#pragma once
// reduce: sums of a 1-d array, by several algorithms written with kapi, and the
// Kokkos anchors. The interface the command-line program, the tests and the
// benchmarks share:
//
//   reduce::Workspace<float, Space> ws(space, n);        // allocate once per size
//   float s = reduce::sum<float>("recursive", space, x, ws);   // x: View<const float*, mem>
//
// Variants: reduce::variant_table at the end of this file (name, summary, kind, code);
// the program's --variant list and --help and the benchmark's cases are read from it.
// The code: pairwise.hpp, recursive.hpp and single_pass.hpp (the latter two thin
// wrappers over kapi::reduce with kapi::plus), reduction_variable.hpp (a range kernel
// with a kapi::reduction variable), kokkos_parallel_reduce.hpp and kokkos_blas_sum.hpp
// (the Kokkos anchors).
// Element types: int32, int64 (exact), float, double.
//
// Accuracy: a floating-point result obeys |computed - exact| <= d * eps * sum|x_i|, where
// d is the depth of the variant's summation tree (reduce::error_depth) and eps the
// type's machine epsilon (twice the unit roundoff, so the bound is twice the classic
// gamma_d). The tree variants have depths in the tens for any n, so fp32 sums stay
// accurate far past 2^24 elements, where a single float accumulator stops growing.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <kapi_apps/instances.hpp>
#include <kapi_apps/variant_table.hpp>

#include "kokkos_blas_sum.hpp"
#include "kokkos_parallel_reduce.hpp"
#include "pairwise.hpp"
#include "recursive.hpp"
#include "reduction_variable.hpp"
#include "single_pass.hpp"
#include "workspace.hpp"

namespace reduce {

/// A variant's code: sum<T>(space, x, ws) returns the sum of x when it is done;
/// depth<T>(space, n) is the depth of its summation tree for n elements.
struct RunPairwise {
  template <class T, class ExecSpace>
  T sum(const ExecSpace& space, const Kokkos::View<const T*, typename ExecSpace::memory_space>& x,
        Workspace<T, ExecSpace>& ws) const {
    return sum_pairwise(space, x, ws);
  }
  template <class T, class ExecSpace>
  std::size_t depth(const ExecSpace&, std::size_t n) const {
    return pairwise_depth(n);
  }
};
struct RunRecursive {
  template <class T, class ExecSpace>
  T sum(const ExecSpace& space, const Kokkos::View<const T*, typename ExecSpace::memory_space>& x,
        Workspace<T, ExecSpace>& ws) const {
    return sum_recursive(space, x, ws);
  }
  template <class T, class ExecSpace>
  std::size_t depth(const ExecSpace& space, std::size_t n) const {
    return recursive_depth<T>(space, n);
  }
};
struct RunSinglePass {
  template <class T, class ExecSpace>
  T sum(const ExecSpace& space, const Kokkos::View<const T*, typename ExecSpace::memory_space>& x,
        Workspace<T, ExecSpace>& ws) const {
    return sum_single_pass(space, x, ws);
  }
  template <class T, class ExecSpace>
  std::size_t depth(const ExecSpace& space, std::size_t n) const {
    return single_pass_depth<T>(space, n);
  }
};
struct RunReductionVariable {
  template <class T, class ExecSpace>
  T sum(const ExecSpace& space, const Kokkos::View<const T*, typename ExecSpace::memory_space>& x,
        Workspace<T, ExecSpace>& ws) const {
    return sum_reduction_variable(space, x, ws);
  }
  template <class T, class ExecSpace>
  std::size_t depth(const ExecSpace& space, std::size_t n) const {
    return reduction_variable_depth(space, n);
  }
};
struct RunKokkosParallelReduce {
  template <class T, class ExecSpace>
  T sum(const ExecSpace& space, const Kokkos::View<const T*, typename ExecSpace::memory_space>& x,
        Workspace<T, ExecSpace>&) const {
    return sum_kokkos_parallel_reduce(space, x);
  }
  template <class T, class ExecSpace>
  std::size_t depth(const ExecSpace& space, std::size_t n) const {
    return kokkos_reduce_depth(space, n);
  }
};
struct RunKokkosBlasSum {
  template <class T, class ExecSpace>
  T sum([[maybe_unused]] const ExecSpace& space,
        [[maybe_unused]] const Kokkos::View<const T*, typename ExecSpace::memory_space>& x,
        Workspace<T, ExecSpace>&) const {
#if defined(KAPI_APPS_HAVE_KOKKOS_KERNELS)
    return sum_kokkos_blas(space, x);
#else
    throw std::invalid_argument("reduce: kokkos-blas-sum needs Kokkos Kernels, which this build lacks");
#endif
  }
  template <class T, class ExecSpace>
  std::size_t depth(const ExecSpace& space, std::size_t n) const {
    return kokkos_reduce_depth(space, n);
  }
};

/// Whether this build has Kokkos Kernels (the kokkos-blas-sum variant).
#if defined(KAPI_APPS_HAVE_KOKKOS_KERNELS)
inline constexpr bool have_kokkos_kernels = true;
#else
inline constexpr bool have_kokkos_kernels = false;
#endif

/// Every variant, in the order the program runs them.
inline constexpr kapi_apps::VariantTable variant_table{
    "reduce",
    kapi_apps::variant("pairwise",
                       "the seed program's multi-pass pairwise kernel: passes each adding the upper half into the "
                       "lower, a range launch per pass (on a device four passes per launch, and the passes "
                       "from 4096 elements down in one work-group)",
                       kapi_apps::Kind::kapi, RunPairwise{}),
    kapi_apps::variant("recursive",
                       "the seed program's recursive work-group reduction in local memory, pass after pass "
                       "(kapi::reduce)",
                       kapi_apps::Kind::kapi, RunRecursive{}),
    kapi_apps::variant("single-pass",
                       "one nd-range launch: reduce_over_group, then the last group to finish adds the partial "
                       "sums (kapi::reduce)",
                       kapi_apps::Kind::kapi, RunSinglePass{}),
    kapi_apps::variant("reduction-variable",
                       "one range kernel adding each element into a kapi::reduction variable (SYCL 2020's "
                       "sycl::reduction; a Kokkos parallel_reduce with kokkos-parallel-reduce's body)",
                       kapi_apps::Kind::kapi, RunReductionVariable{}),
    kapi_apps::variant("kokkos-parallel-reduce",
                       "anchor: Kokkos::parallel_reduce over a RangePolicy, accumulating in T (the benchmark's "
                       "raw-Kokkos twin)",
                       kapi_apps::Kind::raw_kokkos, RunKokkosParallelReduce{}),
    kapi_apps::variant("kokkos-blas-sum", "anchor: KokkosBlas::sum from Kokkos Kernels", kapi_apps::Kind::library,
                       RunKokkosBlasSum{}, have_kokkos_kernels),
};

/// The variants this build provides, in the order the program runs them.
inline std::vector<std::string> variants() { return variant_table.names(); }

inline void check_variant(const std::string& variant) { variant_table.check(variant); }

/// The sum of x by `variant`, computed on `space` in the workspace `ws`. Returns when done.
template <class T, class ExecSpace>
T sum(const std::string& variant, const ExecSpace& space,
      const Kokkos::View<const T*, typename ExecSpace::memory_space>& x, Workspace<T, ExecSpace>& ws) {
  T result = T(0);
  if (!variant_table.visit(variant, [&](const auto& v) { result = v.run.template sum<T>(space, x, ws); }))
    check_variant(variant);
  return result;
}

/// The depth d of `variant`'s summation tree for n elements on `space`.
template <class T, class ExecSpace>
std::size_t error_depth(const std::string& variant, const ExecSpace& space, std::size_t n) {
  std::size_t depth = 0;
  if (!variant_table.visit(variant, [&](const auto& v) { depth = v.run.template depth<T>(space, n); }))
    check_variant(variant);
  return depth;
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

// Every variant's code for each element type on every enabled space is compiled once, in
// kapi_app_reduce's library (src/instances.cpp; kapi_apps/instances.hpp says why).
#define REDUCE_INSTANCE_X(T, Space) const Kokkos::View<const T*, typename Space::memory_space>&
#define REDUCE_KOKKOS_BLAS_INSTANCE(prefix, T, Space)
#if defined(KAPI_APPS_HAVE_KOKKOS_KERNELS)
#undef REDUCE_KOKKOS_BLAS_INSTANCE
#define REDUCE_KOKKOS_BLAS_INSTANCE(prefix, T, Space) \
  prefix template T sum_kokkos_blas(const Space&, REDUCE_INSTANCE_X(T, Space));
#endif
#define REDUCE_INSTANCES_OF(prefix, T, Space)                                                                        \
  prefix template T sum_pairwise(const Space&, REDUCE_INSTANCE_X(T, Space), Workspace<T, Space>&, std::size_t, int); \
  prefix template T sum_recursive(const Space&, REDUCE_INSTANCE_X(T, Space), Workspace<T, Space>&,                   \
                                  const RecursiveConfig&);                                                           \
  prefix template T sum_single_pass(const Space&, REDUCE_INSTANCE_X(T, Space), Workspace<T, Space>&);                \
  prefix template T sum_reduction_variable(const Space&, REDUCE_INSTANCE_X(T, Space), Workspace<T, Space>&);         \
  prefix template T sum_kokkos_parallel_reduce(const Space&, REDUCE_INSTANCE_X(T, Space));                           \
  REDUCE_KOKKOS_BLAS_INSTANCE(prefix, T, Space)
#define REDUCE_INSTANCES(prefix, Space)            \
  REDUCE_INSTANCES_OF(prefix, std::int32_t, Space) \
  REDUCE_INSTANCES_OF(prefix, std::int64_t, Space) \
  REDUCE_INSTANCES_OF(prefix, float, Space) REDUCE_INSTANCES_OF(prefix, double, Space)
#if !defined(REDUCE_COMPILING_INSTANCES)
KAPI_APPS_FOR_EACH_SPACE(REDUCE_INSTANCES, extern)
#endif

}  // namespace reduce
