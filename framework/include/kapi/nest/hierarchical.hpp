// SPDX-License-Identifier: Apache-2.0
#pragma once
// The loop-nest policy in Kokkos' own hierarchical form: TeamPolicy for the outer loop,
// TeamThreadRange for the middle loop, ThreadVectorRange for the inner loop.
#include <string>

#include <kapi/detail/launch_rules.hpp>
#include <kapi/nest/detail/extents.hpp>

namespace kapi::nest {

namespace detail {

template <class Body, class Member>
struct HierarchicalNest {
  Body body;
  Extents e;

  KAPI_FUNCTION void operator()(const Member& team) const {
    const index_type i = team.league_rank();
    const Body& b = body;
    const index_type nk = e.n[2];
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, e.n[1]), [&](const index_type j) {
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, nk), [&](const index_type k) { b(i, j, k); });
    });
  }
};

}  // namespace detail

/// One team per i (league), the team's threads share the j loop (TeamThreadRange), each
/// thread's vector lanes the contiguous k loop (ThreadVectorRange): on a GPU the lanes
/// of a warp write consecutive k; on a host backend a team is one thread and the k loop
/// is a vectorisable inner loop.
struct Hierarchical {
  std::string name() const { return "hierarchical"; }

  template <class ExecSpace, class Body>
  void run(const ExecSpace& space, const Range<3>& range, const Body& body) const {
    const auto e = detail::extents_of(range);
    using Policy = Kokkos::TeamPolicy<ExecSpace, Kokkos::IndexType<index_type>>;
    detail::HierarchicalNest<Body, typename Policy::member_type> f{body, e};
    const int league = detail::checked_league(e.n[0], name());
    if constexpr (kapi::is_host_execution_space_v<ExecSpace>) {
      const auto turn = kapi::detail::host_dispatch_turn<ExecSpace>(kapi::detail::HostDispatch::teams);
      Kokkos::parallel_for(detail::label<Body>(name()), Policy(space, league, 1, 1), f);
    } else {
      int lanes = 1;  // a power of two up to a warp, no wider than the k loop
      while (lanes < 32 && lanes < e.n[2]) lanes *= 2;
      Kokkos::parallel_for(detail::label<Body>(name()), Policy(space, league, Kokkos::AUTO, lanes), f);
    }
  }
};

}  // namespace kapi::nest
