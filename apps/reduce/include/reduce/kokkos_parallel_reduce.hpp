// SPDX-License-Identifier: Apache-2.0
#pragma once
// Anchor: the sum as a Kokkos user writes it, Kokkos::parallel_reduce over a
// RangePolicy, accumulating in T. Error: Kokkos gives each thread a run of elements
// that it adds with one accumulator, then combines the threads' sums.
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include <Kokkos_Core.hpp>

#include <kapi/execution_space.hpp>
#include <kapi/integer_math.hpp>
#include <kapi/reduce.hpp>

namespace reduce {

template <class View>
struct ElementSum {
  View x;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, typename View::non_const_value_type& s) const { s += x(i); }
};

template <class T, class ExecSpace>
T sum_kokkos_parallel_reduce(const ExecSpace& space,
                             const Kokkos::View<const T*, typename ExecSpace::memory_space>& x) {
  T value = T(0);
  Kokkos::parallel_reduce(
      "reduce::kokkos_parallel_reduce",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, static_cast<std::int64_t>(x.extent(0))),
      ElementSum<Kokkos::View<const T*, typename ExecSpace::memory_space>>{x}, value);
  return value;
}

/// Depth bound of a Kokkos range reduction: host backends give each of `concurrency`
/// threads an equal run; Kokkos 3.4's CUDA backend gives each thread a strided run of
/// at most n/1024 elements (grid and block of at least 32 each), then trees of depth <= 64.
template <class ExecSpace>
std::size_t kokkos_reduce_depth(const ExecSpace& space, std::size_t n) {
  constexpr bool host = kapi::is_host_execution_space_v<ExecSpace>;
  const std::size_t runs = host ? static_cast<std::size_t>(std::max(1, int(space.concurrency()))) : 1024;
  return kapi::ceil_div(n, runs) + (host ? kapi::ceil_log2(runs) + 1 : 64);
}

}  // namespace reduce
