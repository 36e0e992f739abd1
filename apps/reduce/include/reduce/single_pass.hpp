// SPDX-License-Identifier: Apache-2.0
#pragma once
// Single-pass reduction (kapi::reduce with ReduceAlgorithm::single_pass): one nd-range
// launch. Every work-group sums its part with kapi::reduce_over_group and its leader
// stores the partial sum, then counts the group as done with an acq_rel atomic; the
// group that finishes last adds the partial sums, again with reduce_over_group, and
// resets the counter for the next call. Unlike atomically adding every partial into one
// total, the result does not depend on the order in which groups finish: it is
// deterministic, and floating-point error stays that of a tree.
#include <cstddef>

#include <kapi/reduce.hpp>
#include <kapi/functional.hpp>

#include "workspace.hpp"

namespace reduce {

inline kapi::ReduceOptions single_pass_options() {
  kapi::ReduceOptions options;
  options.algorithm = kapi::ReduceAlgorithm::single_pass;
  return options;
}

template <class T, class ExecSpace>
T sum_single_pass(const ExecSpace& space, const Kokkos::View<const T*, typename ExecSpace::memory_space>& x,
                  Workspace<T, ExecSpace>& ws) {
  return kapi::reduce(space, x, kapi::plus<T>(), ws.reduction(), single_pass_options());
}

/// Depth of the single-pass summation tree for n elements.
template <class T, class ExecSpace>
std::size_t single_pass_depth(const ExecSpace& space, std::size_t n) {
  return kapi::reduce_depth<T>(space, n, single_pass_options());
}

}  // namespace reduce
