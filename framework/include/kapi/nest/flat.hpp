// SPDX-License-Identifier: Apache-2.0
#pragma once
// The loop-nest policies that map onto Kokkos' flat policies: one sequential nest,
// a parallel outer loop (RangePolicy), and all three loops collapsed (MDRangePolicy).
#include <algorithm>
#include <string>

#include <kapi/nest/detail/extents.hpp>

namespace kapi::nest {

namespace detail {

template <class Body>
struct SequentialNest {
  Body body;
  Extents e;
  KAPI_FUNCTION void operator()(index_type) const {
    for (index_type i = 0; i < e.n[0]; ++i)
      for (index_type j = 0; j < e.n[1]; ++j)
        for (index_type k = 0; k < e.n[2]; ++k) body(i, j, k);
  }
};

template <class Body>
struct OuterParallelNest {
  Body body;
  Extents e;
  KAPI_FUNCTION void operator()(index_type i) const {
    for (index_type j = 0; j < e.n[1]; ++j)
      for (index_type k = 0; k < e.n[2]; ++k) body(i, j, k);
  }
};

template <class Body>
struct CollapsedNest {
  Body body;
  KAPI_FUNCTION void operator()(index_type i, index_type j, index_type k) const { body(i, j, k); }
};

}  // namespace detail

/// The three loops in order, run by one thread of the execution space (RAJA's seq_exec
/// nest). k is innermost and contiguous. For reference and debugging: on a GPU one
/// thread does everything.
struct Sequential {
  std::string name() const { return "sequential"; }

  template <class ExecSpace, class Body>
  void run(const ExecSpace& space, const Range<3>& range, const Body& body) const {
    Kokkos::parallel_for(detail::label<Body>(name()),
                         Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<index_type>>(space, 0, 1),
                         detail::SequentialNest<Body>{body, detail::extents_of(range)});
  }
};

/// The outer i loop in parallel (Kokkos RangePolicy; RAJA's omp_parallel_for_exec on
/// the outer loop), j and k sequential inside each iteration, k innermost and
/// contiguous: every thread streams whole i-planes, which suits host threads. On a GPU
/// only extent(0) threads run, each walking its own plane (uncoalesced): prefer the
/// block and tile policies there.
struct ParallelOuter {
  std::string name() const { return "parallel-outer"; }

  template <class ExecSpace, class Body>
  void run(const ExecSpace& space, const Range<3>& range, const Body& body) const {
    const auto e = detail::extents_of(range);
    Kokkos::parallel_for(detail::label<Body>(name()),
                         Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<index_type>>(space, 0, e.n[0]),
                         detail::OuterParallelNest<Body>{body, e});
  }
};

/// All three loops collapsed into one parallel iteration space (RAJA's collapse;
/// Kokkos MDRangePolicy<Rank<3, Right, Right>>), cut into tiles. k is the fastest index
/// within a tile and maps to consecutive GPU threads. Tile 0 in a dimension picks the
/// backend default: host {1, 4, all of k} (a thread streams rows), device {1, 8, 32}.
struct Collapsed {
  index_type tile[3] = {0, 0, 0};  // {i, j, k}; 0 = backend default

  std::string name() const {
    return tile[0] || tile[1] || tile[2] ? "collapsed-" + detail::shape_name(tile) : "collapsed";
  }

  template <class ExecSpace>
  Kokkos::Array<index_type, 3> tiles_for(const detail::Extents& e) const {
    constexpr bool host = kapi::is_host_execution_space_v<ExecSpace>;
    const index_type defaults[3] = {1, host ? 4 : 8, host ? e.n[2] : 32};
    Kokkos::Array<index_type, 3> t;
    for (int d = 0; d < 3; ++d) t[d] = std::max<index_type>(1, std::min(tile[d] > 0 ? tile[d] : defaults[d], e.n[d]));
    return t;
  }

  template <class ExecSpace, class Body>
  void run(const ExecSpace& space, const Range<3>& range, const Body& body) const {
    const auto e = detail::extents_of(range);
    for (int d = 0; d < 3; ++d)
      if (tile[d] < 0) detail::require_positive_shape(tile, name(), "tile");
    const auto t = tiles_for<ExecSpace>(e);
    if (!kapi::is_host_execution_space_v<ExecSpace> && t[0] * t[1] * t[2] > 1024)
      throw launch_error("loop-nest policy " + name() + ": a tile of " + std::to_string(t[0] * t[1] * t[2]) +
                         " points is more than a GPU block holds (1024)");
    using Policy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<3, Kokkos::Iterate::Right, Kokkos::Iterate::Right>,
                                         Kokkos::IndexType<index_type>>;
    const Kokkos::Array<index_type, 3> lower = {0, 0, 0}, upper = {e.n[0], e.n[1], e.n[2]};
    Kokkos::parallel_for(detail::label<Body>(name()), Policy(space, lower, upper, t),
                         detail::CollapsedNest<Body>{body});
  }
};

}  // namespace kapi::nest
