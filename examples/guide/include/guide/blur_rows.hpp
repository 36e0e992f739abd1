// SPDX-License-Identifier: Apache-2.0
#pragma once
// The box blur over every row of a volume (out(i, j, :) = the blur of in(i, j, :), along
// the contiguous k direction) as a loop nest, run under any loop-nest policy of
// kapi/loop_nest.hpp or under TeamPerRow, a policy of our own.
//
//   guide::blur_rows(space, "tiles-32x8x1", in, out, radius);
//   guide::blur_rows(space, guide::TeamPerRow{}, in, out, radius);
#include <kapi/kapi.hpp>
#include <kapi/loop_nest.hpp>

#include <climits>
#include <stdexcept>
#include <string>

#include "blur_window.hpp"

namespace guide {

template <class MemorySpace>
using Volume = Kokkos::View<float***, Kokkos::LayoutRight, MemorySpace>;

// [guide:rows-body]
/// The loop body: one point (i, j, k) of the output.
template <class In, class Out>
struct BlurAlongRows {
  In in;
  Out out;
  int radius;
  KOKKOS_INLINE_FUNCTION void operator()(kapi::nest::index_type i, kapi::nest::index_type j,
                                         kapi::nest::index_type k) const {
    const std::size_t n = in.extent(2);
    out(i, j, k) = window_mean([&](std::ptrdiff_t kk) { return in(i, j, clamp_index(kk, n)); }, k - radius, radius);
  }
};
// [guide:end]

// [guide:rows-policy]
/// What TeamPerRow launches: team r takes row (r / nj, r % nj), its threads share the k loop.
template <class Body>
struct TeamPerRowFunctor {
  Body body;
  kapi::nest::index_type nj, nk;
  template <class TeamMember>
  KOKKOS_INLINE_FUNCTION void operator()(const TeamMember& team) const {
    const kapi::nest::index_type row = team.league_rank(), i = row / nj, j = row % nj;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, nk), [&](kapi::nest::index_type k) { body(i, j, k); });
  }
};

/// A loop-nest policy of our own: one Kokkos team per row (i, j), its threads over k
/// (consecutive GPU threads read consecutive elements; on a host backend a team is one
/// core's hardware threads, often just one, and runs the row as a plain loop).
struct TeamPerRow {
  std::string name() const { return "team-per-row"; }

  template <class ExecSpace, class Body>
  void run(const ExecSpace& space, const kapi::Range<3>& extents, const Body& body) const {
    const auto rows = kapi::nest::index_type(extents[0] * extents[1]);
    if (rows > INT_MAX)
      throw kapi::launch_error("team-per-row: " + std::to_string(rows) + " rows are more teams than a launch takes (" +
                               std::to_string(INT_MAX) + ")");
    Kokkos::parallel_for(
        "guide::team_per_row", Kokkos::TeamPolicy<ExecSpace>(space, int(rows), Kokkos::AUTO),
        TeamPerRowFunctor<Body>{body, kapi::nest::index_type(extents[1]), kapi::nest::index_type(extents[2])});
  }
};
// [guide:end]

// [guide:rows-run]
/// Blurs every row of `in` into `out` under `policy`: a policy object (TeamPerRow{},
/// kapi::nest::Tiles{}, ...) or a built-in policy's name ("collapsed", "tiles-32x8x1", ...).
template <class ExecSpace, class Policy>
void blur_rows(const ExecSpace& space, const Policy& policy, const Volume<typename ExecSpace::memory_space>& in,
               const Volume<typename ExecSpace::memory_space>& out, int radius) {
  using View = Volume<typename ExecSpace::memory_space>;
  if (radius < 0) throw std::invalid_argument("box blur: radius " + std::to_string(radius) + " is negative");
  if (in.extent(0) != out.extent(0) || in.extent(1) != out.extent(1) || in.extent(2) != out.extent(2))
    throw std::invalid_argument("box blur: output volume is not the input's shape");
  kapi::loop_nest(space, policy, kapi::Range<3>(in.extent(0), in.extent(1), in.extent(2)),
                  BlurAlongRows<View, View>{in, out, radius});
}
// [guide:end]

}  // namespace guide
