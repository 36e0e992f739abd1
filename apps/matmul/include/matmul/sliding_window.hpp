// SPDX-License-Identifier: Apache-2.0
#pragma once
// The sliding-window matrix product C = A·B (the project's seed program) as a flat
// nd-range kernel, the variants sliding-window-t2/t8/t16/t32: each
// work-group slides a tile-wide window along A's rows and down B's columns, staging both
// tiles in local memory between two barriers. The work-group is square; its side is the
// tile. The global range is M×N padded up to multiples of the tile; loads beyond the
// matrices read zeros and stores beyond them are skipped.
//   SlidingWindow           the tile side is the local range (as the seed program wrote it)
//   SlidingWindowTile<Tile> the tile side is a compile-time constant: the inner product
//                           loop has a fixed trip count and unrolls
#include <cstddef>

#include <kapi/barrier.hpp>
#include <kapi/integer_math.hpp>
#include <kapi/item.hpp>
#include <kapi/launch.hpp>
#include <kapi/local_accessor.hpp>
#include <kapi/math.hpp>
#include <kapi/range.hpp>
#include <kapi/unroll.hpp>

#include "completion.hpp"

namespace matmul {

struct SlidingWindow {
  template <class A, class B, class C, class T>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<2>& it, const A& a, const B& b, const C& c,
                                         const kapi::LocalAccessor<T, 2>& a_tile,
                                         const kapi::LocalAccessor<T, 2>& b_tile) const {
    const std::size_t i = it.get_global_id(0), j = it.get_global_id(1);
    const std::size_t li = it.get_local_id(0), lj = it.get_local_id(1);
    const std::size_t tile = it.get_local_range(0);
    const std::size_t m = c.extent(0), n = c.extent(1), k_extent = a.extent(1);
    T acc = 0;
    for (std::size_t k0 = 0; k0 < k_extent; k0 += tile) {
      a_tile(li, lj) = (i < m && k0 + lj < k_extent) ? a(i, k0 + lj) : T(0);
      b_tile(li, lj) = (k0 + li < k_extent && j < n) ? b(k0 + li, j) : T(0);
      kapi::group_barrier(it.get_group());
      for (std::size_t k = 0; k < tile; ++k) acc += a_tile(li, k) * b_tile(k, lj);
      kapi::group_barrier(it.get_group());
    }
    if (i < m && j < n) c(i, j) = acc;
  }
};

template <std::size_t Tile>
struct SlidingWindowTile {
  template <class A, class B, class C, class T>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<2>& it, const A& a, const B& b, const C& c,
                                         const kapi::LocalAccessor<T, 2>& a_tile,
                                         const kapi::LocalAccessor<T, 2>& b_tile) const {
    const std::size_t i = it.get_global_id(0), j = it.get_global_id(1);
    const std::size_t li = it.get_local_id(0), lj = it.get_local_id(1);
    const std::size_t m = c.extent(0), n = c.extent(1), k_extent = a.extent(1);
    const T* as = a_tile.get_pointer() + li * Tile;  // row li of the A tile
    const T* bs = b_tile.get_pointer() + lj;         // column lj of the B tile
    T acc = 0;
    for (std::size_t k0 = 0; k0 < k_extent; k0 += Tile) {
      a_tile(li, lj) = (i < m && k0 + lj < k_extent) ? a(i, k0 + lj) : T(0);
      b_tile(li, lj) = (k0 + li < k_extent && j < n) ? b(k0 + li, j) : T(0);
      kapi::group_barrier(it.get_group());
      KAPI_UNROLL
      for (std::size_t k = 0; k < Tile; ++k) acc += as[k] * bs[k * Tile];
      kapi::group_barrier(it.get_group());
    }
    if (i < m && j < n) c(i, j) = acc;
  }
};

/// The nd-range that covers an m×n result with tile×tile work-groups.
inline kapi::NdRange<2> sliding_window_range(std::size_t m, std::size_t n, std::size_t tile) {
  return kapi::NdRange<2>(kapi::Range<2>(kapi::round_up(m, tile), kapi::round_up(n, tile)), kapi::Range<2>(tile, tile));
}

/// C = A·B with the sliding-window kernel and Tile×Tile work-groups.
template <std::size_t Tile, class ExecSpace, class A, class B, class C>
void multiply_sliding_window(const ExecSpace& space, const A& a, const B& b, const C& c,
                             Completion done = Completion::written) {
  using T = typename C::non_const_value_type;
  kapi::LocalAccessor<T, 2> a_tile(Tile, Tile), b_tile(Tile, Tile);
  finish(kapi::call_kernel_async(space, SlidingWindowTile<Tile>{}, sliding_window_range(c.extent(0), c.extent(1), Tile),
                                 a, b, c, a_tile, b_tile),
         done);
}

}  // namespace matmul
