// SPDX-License-Identifier: Apache-2.0
#pragma once
// The loop-nest policies written the way GPU code is: blocks of threads. On a device
// backend a block is a Kokkos team (TeamPolicy, one team thread per block thread, k the
// fastest-varying thread index so a warp touches consecutive elements), except a CUDA
// tile, which is the work-group of a padded nd-range kernel (kernels.hpp); on a host
// backend a block is one host thread (RangePolicy over blocks), which walks the block's
// points with k innermost and contiguous so the compiler vectorises it.
#include <algorithm>
#include <string>

#include <kapi/detail/launch_rules.hpp>
#include <kapi/nest/detail/extents.hpp>
#include <kapi/nest/detail/fast_divisor.hpp>
#include <kapi/nest/kernels.hpp>
#include <kapi/space_traits.hpp>

namespace kapi::nest {

namespace detail {

template <class ExecSpace>
using TeamMember = typename Kokkos::TeamPolicy<ExecSpace>::member_type;

// Splits a linear id into {i, j, k} over `shape`, k fastest (host code).
KAPI_FUNCTION void split3(index_type linear, const index_type (&shape)[3], index_type (&out)[3]) {
  out[2] = linear % shape[2];
  linear /= shape[2];
  out[1] = linear % shape[1];
  out[0] = linear / shape[1];
}

inline FastShape fast_shape(const index_type (&shape)[3]) {
  return FastShape{FastDivisor(static_cast<std::uint32_t>(shape[1])),
                   FastDivisor(static_cast<std::uint32_t>(shape[2]))};
}

template <class Body, class Member>
struct BlockStrideOnTeams {
  Body body;
  Extents e;
  index_type block[3], grid[3];
  FastShape block_shape, grid_shape;

  KAPI_FUNCTION void operator()(const Member& team) const {
    std::uint32_t g[3], t[3];
    grid_shape.split(static_cast<std::uint32_t>(team.league_rank()), g);
    block_shape.split(static_cast<std::uint32_t>(team.team_rank()), t);
    const index_type si = grid[0] * block[0], sj = grid[1] * block[1], sk = grid[2] * block[2];
    for (index_type i = g[0] * block[0] + t[0]; i < e.n[0]; i += si)
      for (index_type j = g[1] * block[1] + t[1]; j < e.n[1]; j += sj)
        for (index_type k = g[2] * block[2] + t[2]; k < e.n[2]; k += sk) body(i, j, k);
  }
};

template <class Body>
struct BlockStrideOnHostThreads {
  Body body;
  Extents e;
  index_type block[2], grid[2];  // {i, j}; k is walked whole by each block

  KAPI_FUNCTION void operator()(index_type linear) const {
    const index_type g1 = linear % grid[1], g0 = linear / grid[1];
    for (index_type i0 = g0 * block[0]; i0 < e.n[0]; i0 += grid[0] * block[0])
      for (index_type i = i0; i < i0 + block[0] && i < e.n[0]; ++i)
        for (index_type j0 = g1 * block[1]; j0 < e.n[1]; j0 += grid[1] * block[1])
          for (index_type j = j0; j < j0 + block[1] && j < e.n[1]; ++j)
            for (index_type k = 0; k < e.n[2]; ++k) body(i, j, k);
  }
};

template <class Body, class Member>
struct TilesOnTeams {
  Body body;
  Extents e;
  index_type tile[3], tiles_i;  // tiles along i
  FastShape tile_shape;
  FastDivisor columns_k;       // tile columns {j, k} -> (g1, g2)
  FastDivisor columns;         // work units -> (chunk of i tiles, tile column)
  std::uint32_t units, chunk;  // work units; tiles along i per unit

  // A work unit is a column of tiles along i (fixed j and k tiles) or a chunk of one: a
  // thread keeps its j and k and steps i, so moving to the next tile costs an add, not a
  // division, and the body's j and k terms stay loop-invariant. A team takes unit after
  // unit (league-stride) when there are more units than teams.
  KAPI_FUNCTION void operator()(const Member& team) const {
    std::uint32_t t[3];
    tile_shape.split(static_cast<std::uint32_t>(team.team_rank()), t);
    for (std::uint32_t unit = team.league_rank(); unit < units; unit += team.league_size()) {
      const std::uint32_t c = columns.divide(unit), column = unit - c * columns.divisor();
      const std::uint32_t g1 = columns_k.divide(column), g2 = column - g1 * columns_k.divisor();
      const index_type j = g1 * tile[1] + t[1], k = g2 * tile[2] + t[2];
      if (j >= e.n[1] || k >= e.n[2]) continue;
      const index_type chunk_end = index_type(c + 1) * chunk, g0_end = chunk_end < tiles_i ? chunk_end : tiles_i;
      for (index_type g0 = index_type(c) * chunk; g0 < g0_end; ++g0) {
        const index_type i = g0 * tile[0] + t[0];
        if (i < e.n[0]) body(i, j, k);
      }
    }
  }
};

template <class Body>
struct TilesOnHostThreads {
  Body body;
  Extents e;
  index_type tile[3], tiles[3];

  KAPI_FUNCTION void operator()(index_type linear) const {
    index_type g[3];
    split3(linear, tiles, g);
    const index_type i0 = g[0] * tile[0], j0 = g[1] * tile[1], k0 = g[2] * tile[2];
    const index_type i1 = i0 + tile[0] < e.n[0] ? i0 + tile[0] : e.n[0];
    const index_type j1 = j0 + tile[1] < e.n[1] ? j0 + tile[1] : e.n[1];
    const index_type k1 = k0 + tile[2] < e.n[2] ? k0 + tile[2] : e.n[2];
    for (index_type i = i0; i < i1; ++i)
      for (index_type j = j0; j < j1; ++j)
        for (index_type k = k0; k < k1; ++k) body(i, j, k);
  }
};

// Launches `functor` on teams of `threads` members, after checking the backend takes it.
template <class ExecSpace, class Functor>
void launch_blocks(const ExecSpace& space, const std::string& label, int league, index_type threads,
                   const Functor& functor, const std::string& policy) {
  Kokkos::TeamPolicy<ExecSpace> probe(space, 1, 1);
  const index_type max = probe.team_size_max(functor, Kokkos::ParallelForTag());
  if (threads > max)
    throw launch_error("loop-nest policy " + policy + ": a block of " + std::to_string(threads) +
                       " threads is more than " + ExecSpace::name() + " runs for this body (" + std::to_string(max) +
                       ")");
  const auto turn = kapi::detail::host_dispatch_turn<ExecSpace>(kapi::detail::HostDispatch::teams);
  Kokkos::parallel_for(label, Kokkos::TeamPolicy<ExecSpace>(space, league, static_cast<int>(threads), 1), functor);
}

}  // namespace detail

/// GPU-style 3-d thread blocks with block-stride loops (RAJA's cuda_block_*_loop with
/// cuda_thread_*_loop; CUDA's grid-stride loop in three dimensions). A grid of blocks
/// covers the index space; a block whose indices run past the grid's coverage strides
/// on by the grid's extent, so the grid may be smaller than the problem. Block threads
/// are ordered k fastest: consecutive GPU threads write consecutive k (contiguous).
/// Block {i, j, k} default {1, 8, 32} ("32x8x1"); grid 0 = backend default (device:
/// up to 64 blocks along i and j, enough along k to cover it; host: up to 64 along i
/// and j, each host block walking whole contiguous k rows).
struct BlockStride {
  index_type block[3] = {1, 8, 32};
  index_type grid[3] = {0, 0, 0};

  std::string name() const {
    const bool default_block = block[0] == 1 && block[1] == 8 && block[2] == 32;
    std::string n = default_block ? "blocks-3d" : "blocks-3d-" + detail::shape_name(block);
    if (grid[0] || grid[1] || grid[2]) n += "-grid-" + detail::shape_name(grid);
    return n;
  }

  template <class ExecSpace, class Body>
  void run(const ExecSpace& space, const Range<3>& range, const Body& body) const {
    const auto e = detail::extents_of(range);
    detail::require_positive_shape(block, name(), "block");
    for (int d = 0; d < 3; ++d)
      if (grid[d] < 0) detail::require_positive_shape(grid, name(), "grid");
    const index_type caps[3] = {64, 64, INT32_MAX};
    index_type g[3];
    for (int d = 0; d < 3; ++d)
      g[d] = grid[d] > 0 ? grid[d] : std::max<index_type>(1, std::min(kapi::ceil_div(e.n[d], block[d]), caps[d]));
    if constexpr (kapi::is_host_execution_space_v<ExecSpace>) {
      detail::BlockStrideOnHostThreads<Body> f{body, e, {block[0], block[1]}, {g[0], g[1]}};
      const auto turn = kapi::detail::host_dispatch_turn<ExecSpace>();
      Kokkos::parallel_for(detail::label<Body>(name()),
                           Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<index_type>>(space, 0, g[0] * g[1]), f);
    } else {
      detail::BlockStrideOnTeams<Body, detail::TeamMember<ExecSpace>> f{body,
                                                                        e,
                                                                        {block[0], block[1], block[2]},
                                                                        {g[0], g[1], g[2]},
                                                                        detail::fast_shape(block),
                                                                        detail::fast_shape(g)};
      detail::launch_blocks(space, detail::label<Body>(name()), detail::checked_league(g[0] * g[1] * g[2], name()),
                            block[0] * block[1] * block[2], f, name());
    }
  }
};

/// Fixed tiles mapped directly onto blocks and threads (RAJA's tile_fixed with
/// cuda_block_*_direct and cuda_thread_*_direct): a block has one thread per point of a
/// tile, bounds-checked at the edges; when there are more tiles than eight times the
/// blocks the device holds at once, a block takes tile after tile. On CUDA a tile is the
/// work-group of a padded nd-range kernel (NdRangeKernel's launch). Tile {i, j, k},
/// default {1, 8, 32} ("32x8x1": 32 consecutive k per warp, 8 rows of j). On a host
/// backend each tile is walked by one host thread with k innermost and contiguous.
struct Tiles {
  index_type tile[3] = {1, 8, 32};

  std::string name() const { return "tiles-" + detail::shape_name(tile); }

  template <class ExecSpace, class Body>
  void run(const ExecSpace& space, const Range<3>& range, const Body& body) const {
    const auto e = detail::extents_of(range);
    detail::require_positive_shape(tile, name(), "tile");
    index_type tiles[3];
    for (int d = 0; d < 3; ++d) tiles[d] = kapi::ceil_div(e.n[d], tile[d]);
    const index_type count = tiles[0] * tiles[1] * tiles[2];
    if constexpr (kapi::is_host_execution_space_v<ExecSpace>) {
      detail::TilesOnHostThreads<Body> f{body, e, {tile[0], tile[1], tile[2]}, {tiles[0], tiles[1], tiles[2]}};
      const auto turn = kapi::detail::host_dispatch_turn<ExecSpace>();
      Kokkos::parallel_for(detail::label<Body>(name()),
                           Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<index_type>>(space, 0, count), f);
    } else if constexpr (kapi::space_traits<ExecSpace>::is_cuda) {
      // A tile is a work-group: kapi's own CUDA launch runs it on a grid of groups
      // (cuda/detail/group_launch.hpp), with no division per tile.
      try {
        detail::call_padded_nd_range(detail::label<Body>(name()), space, range, Range<3>(tile[0], tile[1], tile[2]),
                                     body);
      } catch (const launch_error& e) {
        throw launch_error("loop-nest policy " + name() + ": " + e.what());
      }
    } else {
      const index_type threads = tile[0] * tile[1] * tile[2];
      // Units: tile columns, split along i into enough chunks for ~64 waves of teams (a
      // thread then writes some tens of points: enough to amortise its start, and teams
      // short enough to balance).
      const index_type columns = tiles[1] * tiles[2];
      const index_type resident = std::max<index_type>(1, index_type(space.concurrency()) / threads);
      const index_type chunks = std::min(tiles[0], std::max<index_type>(1, kapi::ceil_div(64 * resident, columns)));
      const index_type chunk = kapi::ceil_div(tiles[0], chunks);
      const index_type units = kapi::ceil_div(tiles[0], chunk) * columns;
      detail::checked_league(units, name());
      detail::TilesOnTeams<Body, detail::TeamMember<ExecSpace>> f{
          body,
          e,
          {tile[0], tile[1], tile[2]},
          tiles[0],
          detail::fast_shape(tile),
          detail::FastDivisor(static_cast<std::uint32_t>(tiles[2])),
          detail::FastDivisor(static_cast<std::uint32_t>(columns)),
          static_cast<std::uint32_t>(units),
          static_cast<std::uint32_t>(chunk)};
      detail::launch_blocks(space, detail::label<Body>(name()), static_cast<int>(std::min(units, 256 * resident)),
                            threads, f, name());
    }
  }
};

}  // namespace kapi::nest
