#pragma once
// Single-pass reduction: one nd-range launch. Every work-group sums its part with
// kapi::reduce_over_group and its leader stores the partial sum, then counts the group
// as done with an acq_rel atomic; the group that finishes last (it sees the count reach
// the number of groups) adds the partial sums, again with reduce_over_group, and
// resets the counter for the next call. Unlike atomically adding every partial into one
// total, the result does not depend on the order in which groups finish: it is
// deterministic, and floating-point error stays that of a tree.
#include <cstddef>

#include <kapi/atomic_ref.hpp>
#include <kapi/functional.hpp>
#include <kapi/group_algorithms.hpp>
#include <kapi/kapi.hpp>

#include "tuning.hpp"
#include "workspace.hpp"

namespace reduce {

template <class T, class Leaf>
struct SinglePassSum {
  std::size_t n, per_item;

  template <class In, class Partials, class Counter>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it, const In& in, const Partials& partial,
                                         const Counter& done, const kapi::LocalAccessor<int, 1>& last) const {
    const auto& group = it.get_group();
    const std::size_t lid = it.get_local_id(0), size = it.get_local_range(0);
    const std::size_t g = group.get_group_id(0), groups = group.get_group_range(0);
    const std::size_t group_first = g * size * per_item;
    const std::size_t first = Leaf::contiguous ? group_first + lid * per_item : group_first + lid;
    const T group_sum = kapi::reduce_over_group(group, Leaf::sum(in.data(), first, size, per_item, n), kapi::plus<T>());
    if (lid == 0) {
      partial(g) = group_sum;
      // release: this partial is visible before the count; acquire: the last group sees all.
      const unsigned before = kapi::AtomicRef<unsigned, kapi::MemoryOrder::acq_rel>(done()).fetch_add(1u);
      last[0] = before + 1 == groups;
    }
    kapi::group_barrier(it.get_group());
    if (last[0]) {  // the same for the whole group: the collective below is converged
      T mine = T(0);
      // Atomic (uncached) loads: the partials were written by other groups.
      for (std::size_t i = lid; i < groups; i += size) mine += kapi::AtomicRef<T>(partial(i)).load();
      const T total = kapi::reduce_over_group(group, mine, kapi::plus<T>());
      if (lid == 0) {
        partial(groups) = total;
        kapi::AtomicRef<unsigned>(done()).store(0u);
      }
    }
  }
};

/// The launch shape: as the first pass of the recursive reduction.
template <class T, class ExecSpace>
PassShape single_pass_shape(const ExecSpace& space, std::size_t n) {
  using Tune = Tuning<T, ExecSpace>;
  return pass_shape(n ? n : 1, Tune::default_group_size, 0, Tune::min_per_item,
                    Tune::target_groups(space, Tune::default_group_size));
}

template <class T, class ExecSpace>
T sum_single_pass(const ExecSpace& space, const Kokkos::View<const T*, typename ExecSpace::memory_space>& x,
                  Workspace<T, ExecSpace>& ws) {
  const std::size_t n = x.extent(0);
  if (n == 0) return T(0);
  const PassShape s = single_pass_shape<T>(space, n);
  auto partial = ws.buffer(0, s.groups + 1);  // the total goes after the partials
  kapi::call_kernel(space, SinglePassSum<T, typename Tuning<T, ExecSpace>::Leaf>{n, s.per_item},
                    kapi::NdRange<1>(s.groups * s.group_size, s.group_size), x, partial, ws.counter(),
                    kapi::LocalAccessor<int, 1>(1));
  T value;
  Kokkos::deep_copy(value, Kokkos::subview(partial, s.groups));
  return value;
}

/// Depth of the single-pass summation tree: a work-item's chunk, the group reduction
/// (a left fold in local-id order on host backends, a tree on devices), then the last
/// group's strided run over the partials and its group reduction.
template <class T, class ExecSpace>
std::size_t single_pass_depth(const ExecSpace& space, std::size_t n) {
  using Tune = Tuning<T, ExecSpace>;
  const PassShape s = single_pass_shape<T>(space, n);
  const std::size_t group_depth = Tune::host ? s.group_size : 2 * ceil_log2(s.group_size);
  return Tune::Leaf::depth(s.per_item) + group_depth + (s.groups + s.group_size - 1) / s.group_size + group_depth;
}

}  // namespace reduce
