// SPDX-License-Identifier: Apache-2.0
#pragma once
// reduction-variable: the sum as a SYCL 2020 program writes it, one range kernel whose
// work-items add their element into a reduction variable:
//   kapi::call_kernel(space, AddElement{}, kapi::Range<1>{n}, x, kapi::reduction(sum, kapi::plus<>(), ...));
// The launch reduces as it runs (a Kokkos parallel_reduce with the same body as the
// kokkos-parallel-reduce anchor; on CUDA kapi's own reduction launch, whose threads' runs
// are shorter than Kokkos', within the same depth) and stores the total in `sum`, a variable the host reads
// where the launch wrote it (host memory on host backends, pinned host memory on CUDA,
// where Kokkos' own reduction into a host scalar lands too).
// Error: a host thread adds its run of elements with one accumulator (Kokkos' static
// schedule over kapi's chunks), then the threads' sums are combined; on a device each
// GPU thread adds a strided run, then Kokkos' trees: the depth of kokkos-parallel-reduce,
// plus one chunk of a host thread's share (kapi's chunks need not split evenly).
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include <kapi/execution_space.hpp>
#include <kapi/functional.hpp>
#include <kapi/item.hpp>
#include <kapi/launch.hpp>
#include <kapi/range.hpp>
#include <kapi/reduction.hpp>

#include "kokkos_parallel_reduce.hpp"
#include "workspace.hpp"

namespace reduce {

/// One work-item: its element into the sum.
struct AddElement {
  template <class View, class Sum>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::Item<1>& it, const View& x, Sum& sum) const {
    sum += x(it.get_id(0));
  }
};

template <class T, class ExecSpace>
T sum_reduction_variable(const ExecSpace& space, const Kokkos::View<const T*, typename ExecSpace::memory_space>& x,
                         Workspace<T, ExecSpace>& ws) {
  const auto sum = ws.reduction_variable();
  kapi::call_kernel(space, AddElement{}, kapi::Range<1>{x.extent(0)}, x,
                    kapi::reduction(sum, kapi::plus<>(), kapi::property::reduction::initialize_to_identity{}));
  using Variable = typename Workspace<T, ExecSpace>::Variable;
  if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Variable::memory_space>::accessible) {
    return sum();
  } else {
    T value;
    Kokkos::deep_copy(value, sum);
    return value;
  }
}

template <class ExecSpace>
std::size_t reduction_variable_depth(const ExecSpace& space, std::size_t n) {
  if (!kapi::is_host_execution_space_v<ExecSpace>) return kokkos_reduce_depth(space, n);
  const std::size_t threads = static_cast<std::size_t>(std::max(1, int(space.concurrency())));
  return kokkos_reduce_depth(space, n) + std::max<std::size_t>(n / (8 * threads), 4096);
}

}  // namespace reduce
