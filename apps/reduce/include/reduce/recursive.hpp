// SPDX-License-Identifier: Apache-2.0
#pragma once
// The seed's recursive work-group reduction, generalised (kapi::reduce with
// ReduceAlgorithm::recursive): every work-group reduces its part of the array in local
// memory (each work-item first sums a chunk, then a barrier-separated tree halves the
// live work-items) and writes one partial sum; the partial sums are reduced the same
// way, pass after pass, until one group remains. Any n and any work-group size. The
// input is never written.
#include <cstddef>

#include <kapi/reduce.hpp>
#include <kapi/functional.hpp>

#include "workspace.hpp"

namespace reduce {

/// Settings of the recursive reduction; 0 = the backend's default (kapi/reduce_tuning.hpp).
struct RecursiveConfig {
  std::size_t group_size = 0;  // work-items per work-group
  std::size_t per_item = 0;    // elements each work-item sums before the tree
};

inline kapi::ReduceOptions recursive_options(const RecursiveConfig& config) {
  kapi::ReduceOptions options;
  options.algorithm = kapi::ReduceAlgorithm::recursive;
  if (config.group_size) options.group_size = config.group_size;
  if (config.per_item) options.per_item = config.per_item;
  return options;
}

/// Sum of x by recursive work-group reductions.
template <class T, class ExecSpace>
T sum_recursive(const ExecSpace& space, const Kokkos::View<const T*, typename ExecSpace::memory_space>& x,
                Workspace<T, ExecSpace>& ws, const RecursiveConfig& config = {}) {
  return kapi::reduce(space, x, kapi::plus<T>(), ws.reduction(), recursive_options(config));
}

/// Depth of the recursive reduction's summation tree for n elements.
template <class T, class ExecSpace>
std::size_t recursive_depth(const ExecSpace& space, std::size_t n, const RecursiveConfig& config = {}) {
  return kapi::reduce_depth<T>(space, n, recursive_options(config));
}

}  // namespace reduce
