#pragma once
// The seed's multi-pass pairwise reduction, generalised: pass after pass, work-item i
// adds element i + ceil(m/2) into element i, halving the live length m until one
// element is left (ceil(log2 n) launches of a range kernel). Any n works: for odd m the
// middle element passes through. The first pass reads the caller's array and writes the
// workspace, so the input is left alone unless sum_pairwise_in_place is asked for.
// Error: a balanced tree, depth ceil(log2 n).
#include <cstddef>
#include <vector>

#include <kapi/integer_math.hpp>
#include <kapi/kapi.hpp>

#include "workspace.hpp"

namespace reduce {

/// One pass over the live length m: out(i) = in(i) + in(i + half) for i < ceil(m/2),
/// where half = ceil(m/2) and in(i + half) exists. In place (in and out the same array)
/// is safe: item i writes only i < half and reads only i and i + half >= half.
struct PairwiseStep {
  template <class In, class Out>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::Item<1>& it, const In& in, const Out& out, std::size_t m) const {
    const std::size_t i = it.get_id(0), half = kapi::ceil_div(m, std::size_t(2));
    out(i) = i + half < m ? in(i) + in(i + half) : in(i);
  }
};

namespace detail {
// The passes are queued back to back (an in-order device stream needs no wait between
// them) and waited for once.
template <class ExecSpace, class View>
typename View::non_const_value_type pairwise_passes(const ExecSpace& space, const View& data, std::size_t m,
                                                    std::vector<kapi::KernelEvent<ExecSpace>>& events) {
  while (m > 1) {
    const std::size_t half = kapi::ceil_div(m, std::size_t(2));
    events.push_back(kapi::call_kernel_async(space, PairwiseStep{}, kapi::Range<1>(half), data, data, m));
    m = half;
  }
  for (const auto& e : events) e.wait();
  typename View::non_const_value_type value;
  Kokkos::deep_copy(value, Kokkos::subview(data, 0));
  return value;
}
}  // namespace detail

/// Sum of x, x unchanged; the first pass writes the workspace's copy.
template <class T, class ExecSpace>
T sum_pairwise(const ExecSpace& space, const Kokkos::View<const T*, typename ExecSpace::memory_space>& x,
               Workspace<T, ExecSpace>& ws) {
  const std::size_t n = x.extent(0);
  if (n == 0) return T(0);
  const std::size_t half = kapi::ceil_div(n, std::size_t(2));
  auto copy = ws.pairwise_copy(half);
  std::vector<kapi::KernelEvent<ExecSpace>> events;
  events.push_back(kapi::call_kernel_async(space, PairwiseStep{}, kapi::Range<1>(half), x, copy, n));
  return detail::pairwise_passes(space, copy, half, events);
}

/// Sum of x computed in x itself (x is overwritten), as the seed did: no workspace.
template <class T, class ExecSpace>
T sum_pairwise_in_place(const ExecSpace& space, const Kokkos::View<T*, typename ExecSpace::memory_space>& x) {
  if (x.extent(0) == 0) return T(0);
  std::vector<kapi::KernelEvent<ExecSpace>> events;
  return detail::pairwise_passes(space, x, x.extent(0), events);
}

/// Depth of the pairwise summation tree for n elements.
inline std::size_t pairwise_depth(std::size_t n) { return kapi::ceil_log2(n < 1 ? 1 : n); }

}  // namespace reduce
