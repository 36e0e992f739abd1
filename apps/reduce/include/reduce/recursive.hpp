#pragma once
// The seed's recursive work-group reduction, generalised: every work-group sums its
// part of the array in local memory (each work-item first sums several elements, see
// chunk_sum.hpp, then a barrier-separated tree halves the live work-items) and writes
// one partial sum; the partial sums are reduced the same way, pass after pass, until
// one group remains. Any n and any work-group size (the tree handles sizes that are
// not powers of two). The input is never written.
#include <cstddef>
#include <vector>

#include <kapi/kapi.hpp>

#include "tuning.hpp"
#include "workspace.hpp"

namespace reduce {

/// Settings of the recursive reduction; 0 = the backend's default (tuning.hpp).
struct RecursiveConfig {
  std::size_t group_size = 0;  // work-items per work-group
  std::size_t per_item = 0;    // elements each work-item sums before the tree
};

/// One pass: partial(g) = sum of group g's elements of in[0, n).
template <class T, class Leaf>
struct GroupPartialSums {
  std::size_t n, per_item;

  template <class In, class Out>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it, const In& in, const Out& partial,
                                         const kapi::LocalAccessor<T, 1>& local) const {
    const std::size_t lid = it.get_local_id(0), size = it.get_local_range(0);
    const std::size_t g = it.get_group().get_group_id(0), group_first = g * size * per_item;
    // Host: a work-item owns a contiguous chunk; device: consecutive work-items read
    // consecutive elements (coalesced), striding by the group size.
    const std::size_t first = Leaf::contiguous ? group_first + lid * per_item : group_first + lid;
    local[lid] = Leaf::sum(in.data(), first, size, per_item, n);
    std::size_t stride = 1;
    while (stride * 2 < size) stride *= 2;  // the largest power of two below size
    for (; size > 1 && stride > 0; stride /= 2) {
      kapi::group_barrier(it.get_group());
      if (lid < stride && lid + stride < size) local[lid] += local[lid + stride];
    }
    if (lid == 0) partial(g) = local[0];
  }
};

namespace detail {
template <class T, class ExecSpace>
std::vector<PassShape> recursive_passes(const ExecSpace& space, std::size_t n, const RecursiveConfig& config) {
  using Tune = Tuning<T, ExecSpace>;
  const std::size_t group = config.group_size ? config.group_size : Tune::default_group_size;
  std::vector<PassShape> passes;
  do {
    passes.push_back(pass_shape(n, group, config.per_item, Tune::min_per_item, Tune::target_groups(space, group)));
    n = passes.back().groups;
  } while (n > 1);
  return passes;
}
}  // namespace detail

/// Sum of x by recursive work-group reductions.
template <class T, class ExecSpace>
T sum_recursive(const ExecSpace& space, const Kokkos::View<const T*, typename ExecSpace::memory_space>& x,
                Workspace<T, ExecSpace>& ws, const RecursiveConfig& config = {}) {
  using Kernel = GroupPartialSums<T, typename Tuning<T, ExecSpace>::Leaf>;
  std::size_t n = x.extent(0);
  if (n == 0) return T(0);
  Kokkos::View<const T*, typename ExecSpace::memory_space> in = x;
  std::vector<kapi::KernelEvent<ExecSpace>> events;  // passes queue back to back; one wait at the end
  int which = 0;
  for (const PassShape& pass : detail::recursive_passes<T>(space, n, config)) {
    auto out = ws.buffer(which, pass.groups);
    events.push_back(kapi::call_kernel_async(space, Kernel{n, pass.per_item},
                                             kapi::NdRange<1>(pass.groups * pass.group_size, pass.group_size), in,
                                             out, kapi::LocalAccessor<T, 1>(pass.group_size)));
    in = out;
    n = pass.groups;
    which ^= 1;
  }
  for (const auto& e : events) e.wait();
  T value;
  Kokkos::deep_copy(value, Kokkos::subview(in, 0));
  return value;
}

/// Depth of the recursive reduction's summation tree for n elements.
template <class T, class ExecSpace>
std::size_t recursive_depth(const ExecSpace& space, std::size_t n, const RecursiveConfig& config = {}) {
  std::size_t depth = 0;
  for (const PassShape& pass : detail::recursive_passes<T>(space, n ? n : 1, config))
    depth += Tuning<T, ExecSpace>::Leaf::depth(pass.per_item) + ceil_log2(pass.group_size);
  return depth;
}

}  // namespace reduce
