// SPDX-License-Identifier: Apache-2.0
#pragma once
// The seed's multi-pass pairwise reduction, generalised: pass after pass, element
// i + ceil(m/2) is added into element i, halving the live length m until one
// element is left (a range kernel per pass; on a device the last passes, over a few
// thousand elements, in one work-group). Any n works: for odd m the
// middle element passes through. The first pass reads the caller's array and writes the
// workspace, so the input is left alone unless sum_pairwise_in_place is asked for.
// Error: a balanced tree, depth ceil(log2 n).
#include <algorithm>
#include <cstddef>
#include <vector>

#include <kapi/barrier.hpp>
#include <kapi/execution_space.hpp>
#include <kapi/integer_math.hpp>
#include <kapi/item.hpp>
#include <kapi/launch.hpp>
#include <kapi/math.hpp>
#include <kapi/memory_model.hpp>
#include <kapi/range.hpp>

#include "workspace.hpp"

namespace reduce {

/// One pass over the live length m: out(i) = in(i) + in(i + half) for i < half =
/// ceil(m/2), where i + half < m (for odd m the middle element passes through).
/// A work-item takes Elements of the i, `items` apart (items: the launch's range), and
/// loads all its inputs before it stores: on a GPU a work-item with one element has two
/// 4-byte loads in flight, too few bytes to cover HBM's latency. In place (in and out the
/// same array) is safe: element i is written only by the work-item that read it, and the
/// elements at i + half >= half are never written.
template <int Elements>
struct PairwiseStep {
  template <class In, class Out>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::Item<1>& it, const In& in, const Out& out, std::size_t m) const {
    const std::size_t half = kapi::ceil_div(m, std::size_t(2)), items = it.get_range(0);
    typename Out::non_const_value_type sum[Elements] = {};
    for (int e = 0; e < Elements; ++e) {
      const std::size_t i = it.get_id(0) + std::size_t(e) * items;
      if (i < half) sum[e] = i + half < m ? in(i) + in(i + half) : in(i);
    }
    for (int e = 0; e < Elements; ++e) {
      const std::size_t i = it.get_id(0) + std::size_t(e) * items;
      if (i < half) out(i) = sum[e];
    }
  }
};

namespace detail {
// Elements per work-item: four on a device (see PairwiseStep); one on a host thread,
// whose cache lines and prefetchers already keep the loads in flight.
template <class ExecSpace>
inline constexpr int pairwise_elements = kapi::is_host_execution_space_v<ExecSpace> ? 1 : 4;

/// Queues one pass over the live length m, from `in` to `out`.
template <class ExecSpace, class In, class Out>
kapi::KernelEvent<ExecSpace> pairwise_pass(const ExecSpace& space, const In& in, const Out& out, std::size_t m) {
  constexpr int elements = pairwise_elements<ExecSpace>;
  const std::size_t half = kapi::ceil_div(m, std::size_t(2));
  return kapi::call_kernel_async(space, PairwiseStep<elements>{},
                                 kapi::Range<1>(kapi::ceil_div(half, std::size_t(elements))), in, out, m);
}

/// The last passes, from a live length m <= the tail length down to one element, in one
/// work-group: the same additions in the same order as one launch per pass, with a group
/// barrier between passes instead of a kernel boundary.
struct PairwiseTail {
  template <class View>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it, const View& data, std::size_t m) const {
    const std::size_t me = it.get_local_id(0), items = it.get_local_range(0);
    for (; m > 1; m = kapi::ceil_div(m, std::size_t(2))) {
      const std::size_t half = kapi::ceil_div(m, std::size_t(2));
      for (std::size_t i = me; i + half < m; i += items) data(i) += data(i + half);
      // The next pass reads what other work-items wrote in global memory.
      kapi::group_barrier(it.get_group(), kapi::MemoryScope::device);
    }
  }
};
inline constexpr std::size_t pairwise_tail_items = 256;

/// The tail length: live lengths at or below it run in PairwiseTail. On a device 4096, the
/// last dozen passes, each of which moves a few kilobytes, so that one launch each (a
/// microsecond or more) would cost more than its work (measurably so on an H100 at
/// n = 2^28; results/ has it). On a host none: there a launch costs less than the group's
/// barriers.
template <class ExecSpace>
inline constexpr std::size_t pairwise_tail_length = kapi::is_host_execution_space_v<ExecSpace> ? 1 : 4096;

// The passes are queued back to back (an in-order device stream needs no wait between
// them) and waited for once.
template <class ExecSpace, class View>
typename View::non_const_value_type pairwise_passes(const ExecSpace& space, const View& data, std::size_t m,
                                                    std::size_t tail_length,
                                                    std::vector<kapi::KernelEvent<ExecSpace>>& events) {
  for (; m > tail_length; m = kapi::ceil_div(m, std::size_t(2))) events.push_back(pairwise_pass(space, data, data, m));
  if (m > 1) {
    const kapi::Range<1> group(std::min(pairwise_tail_items, kapi::ceil_div(m, std::size_t(2))));
    events.push_back(kapi::call_kernel_async(space, PairwiseTail{}, kapi::NdRange<1>(group, group), data, m));
  }
  for (const auto& e : events) e.wait();
  typename View::non_const_value_type value;
  Kokkos::deep_copy(value, Kokkos::subview(data, 0));
  return value;
}
}  // namespace detail

/// Sum of x, x unchanged; the first pass writes the workspace's copy. The passes over
/// live lengths up to tail_length run in one work-group (any tail_length gives the same
/// sum, bit for bit).
template <class T, class ExecSpace>
T sum_pairwise(const ExecSpace& space, const Kokkos::View<const T*, typename ExecSpace::memory_space>& x,
               Workspace<T, ExecSpace>& ws, std::size_t tail_length = detail::pairwise_tail_length<ExecSpace>) {
  const std::size_t n = x.extent(0);
  if (n == 0) return T(0);
  const std::size_t half = kapi::ceil_div(n, std::size_t(2));
  auto copy = ws.pairwise_copy(half);
  std::vector<kapi::KernelEvent<ExecSpace>> events;
  events.push_back(detail::pairwise_pass(space, x, copy, n));
  return detail::pairwise_passes(space, copy, half, tail_length, events);
}

/// Sum of x computed in x itself (x is overwritten), as the seed did: no workspace.
template <class T, class ExecSpace>
T sum_pairwise_in_place(const ExecSpace& space, const Kokkos::View<T*, typename ExecSpace::memory_space>& x) {
  if (x.extent(0) == 0) return T(0);
  std::vector<kapi::KernelEvent<ExecSpace>> events;
  return detail::pairwise_passes(space, x, x.extent(0), detail::pairwise_tail_length<ExecSpace>, events);
}

/// Depth of the pairwise summation tree for n elements.
inline std::size_t pairwise_depth(std::size_t n) { return kapi::ceil_log2(n < 1 ? 1 : n); }

}  // namespace reduce
