// SPDX-License-Identifier: Apache-2.0
#pragma once
// The seed's multi-pass pairwise reduction, generalised: pass after pass, element
// i + ceil(m/2) is added into element i, halving the live length m until one
// element is left. Any n works: for odd m the middle element passes through. A range
// kernel runs the passes, on a device four of them per launch (the same additions, read
// once and stored once), and the last passes, over a few thousand elements, in one
// work-group. The first launch reads the caller's array and writes the workspace, so
// the input is left alone unless sum_pairwise_in_place is asked for.
// Error: a balanced tree, depth ceil(log2 n).
#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>
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

/// Levels halving passes over the live length m fused into one launch: work-item i
/// (i < the live length after them) computes the value element i has after Levels passes
/// (the same additions in the same order, bit for bit) and stores it. On a GPU a pass per
/// level moves 3n elements over the whole reduction, four levels per pass about 1.13n.
/// Each work-item loads its tree's 2^Levels leaves before it adds (enough bytes in
/// flight to cover HBM's latency). In place (in and out the same array) is safe: a
/// work-item's leaves other than element i lie at or above the output length, which no
/// work-item writes.
template <int Levels>
struct PairwiseStep {
  template <class In, class Out>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::Item<1>& it, const In& in, const Out& out, std::size_t m) const {
    constexpr int leaves = 1 << Levels;
    std::size_t live[Levels + 1];  // live[l]: the live length after l passes
    live[0] = m;
    for (int l = 1; l <= Levels; ++l) live[l] = kapi::ceil_div(live[l - 1], std::size_t(2));
    // Leaf b: element i plus live[l] for every set bit l - 1 of b (the pass-l partner).
    std::size_t at[leaves];
    typename Out::non_const_value_type value[leaves];
    for (int b = 0; b < leaves; ++b) {
      at[b] = it.get_id(0);
      for (int l = 1; l <= Levels; ++l)
        if (b >> (l - 1) & 1) at[b] += live[l];
      value[b] = at[b] < m ? in(at[b]) : typename Out::non_const_value_type();
    }
    // Pass l adds the node whose bit l - 1 is set into its left neighbour, where that
    // partner lies inside the live length before the pass (for odd lengths the middle
    // element passes through).
    for (int l = 1; l <= Levels; ++l) {
      const int step = 1 << (l - 1);
      for (int b = 0; b < leaves; b += 2 * step)
        if (at[b + step] < live[l - 1]) value[b] = value[b] + value[b + step];
    }
    out(it.get_id(0)) = value[0];
  }
};

namespace detail {
// Halving passes per launch: four on a device (see PairwiseStep); one on a host thread,
// whose caches already hold what the next pass reads.
template <class ExecSpace>
inline constexpr int pairwise_levels = kapi::is_host_execution_space_v<ExecSpace> ? 1 : 4;

template <int Levels, class ExecSpace, class In, class Out>
kapi::KernelEvent<ExecSpace> pairwise_pass_of(const ExecSpace& space, const In& in, const Out& out, std::size_t m,
                                              std::size_t out_length) {
  return kapi::call_kernel_async(space, PairwiseStep<Levels>{}, kapi::Range<1>(out_length), in, out, m);
}

inline constexpr int pairwise_max_levels = 4;

/// Queues the passes that take the live length m down to at most `down_to` (the first
/// from `in` to `out`, the others in `out`), up to max_levels of them per launch, and
/// returns the live length reached.
template <class ExecSpace, class In, class Out>
std::size_t pairwise_passes_down_to(const ExecSpace& space, const In& in, const Out& out, std::size_t m,
                                    std::size_t down_to, int max_levels,
                                    std::vector<kapi::KernelEvent<ExecSpace>>& events) {
  bool first = true;
  while (m > down_to) {
    int levels = 0;
    std::size_t after = m;
    for (; levels < max_levels && after > down_to; ++levels) after = kapi::ceil_div(after, std::size_t(2));
    auto pass = [&](const auto& from) {
      switch (levels) {
        case 1:
          return pairwise_pass_of<1>(space, from, out, m, after);
        case 2:
          return pairwise_pass_of<2>(space, from, out, m, after);
        case 3:
          return pairwise_pass_of<3>(space, from, out, m, after);
        default:
          return pairwise_pass_of<4>(space, from, out, m, after);
      }
    };
    events.push_back(first ? pass(in) : pass(out));
    first = false;
    m = after;
  }
  return m;
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
                                                    std::size_t tail_length, int levels,
                                                    std::vector<kapi::KernelEvent<ExecSpace>>& events) {
  m = pairwise_passes_down_to(space, data, data, m, std::max(tail_length, std::size_t(1)), levels, events);
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

/// Sum of x, x unchanged; the first launch writes the workspace's copy. The passes over
/// live lengths up to tail_length run in one work-group, the others up to `levels` per
/// launch (1 to 4): any tail_length and levels give the same sum, bit for bit.
template <class T, class ExecSpace>
T sum_pairwise(const ExecSpace& space, const Kokkos::View<const T*, typename ExecSpace::memory_space>& x,
               Workspace<T, ExecSpace>& ws, std::size_t tail_length = detail::pairwise_tail_length<ExecSpace>,
               int levels = detail::pairwise_levels<ExecSpace>) {
  if (levels < 1 || levels > detail::pairwise_max_levels)
    throw std::invalid_argument("reduce::sum_pairwise: levels per launch must be 1 to " +
                                std::to_string(detail::pairwise_max_levels) + ", got " + std::to_string(levels));
  const std::size_t n = x.extent(0);
  if (n == 0) return T(0);
  if (n == 1) {
    T value;
    Kokkos::deep_copy(value, Kokkos::subview(x, 0));
    return value;
  }
  auto copy = ws.pairwise_copy(kapi::ceil_div(n, std::size_t(2)));
  std::vector<kapi::KernelEvent<ExecSpace>> events;
  // The first launch reads x and writes the copy; it runs at least one pass.
  const std::size_t m = detail::pairwise_passes_down_to(space, x, copy, n,
                                                        std::clamp(tail_length, std::size_t(1), n - 1), levels, events);
  return detail::pairwise_passes(space, copy, m, tail_length, levels, events);
}

/// Sum of x computed in x itself (x is overwritten), as the seed did: no workspace.
template <class T, class ExecSpace>
T sum_pairwise_in_place(const ExecSpace& space, const Kokkos::View<T*, typename ExecSpace::memory_space>& x) {
  if (x.extent(0) == 0) return T(0);
  std::vector<kapi::KernelEvent<ExecSpace>> events;
  return detail::pairwise_passes(space, x, x.extent(0), detail::pairwise_tail_length<ExecSpace>,
                                 detail::pairwise_levels<ExecSpace>, events);
}

/// Depth of the pairwise summation tree for n elements.
inline std::size_t pairwise_depth(std::size_t n) { return kapi::ceil_log2(n < 1 ? 1 : n); }

}  // namespace reduce
