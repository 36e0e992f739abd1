// SPDX-License-Identifier: Apache-2.0
#pragma once
// The sliding-window matrix product C = A·B as a phased kernel (the variant phased-t16):
// the computation of SlidingWindow (sliding_window.hpp) written per work-group. Each step
// of the window is two phases — stage the A and B tiles in local memory, then every
// work-item adds its row-times-column of the tiles to its running sum — with the group
// barrier implied after each. Each C element sums its products in the same order as the
// flat kernel, so both give identical results. Same arguments and nd-range as
// SlidingWindow.
#include <kapi/hierarchical.hpp>
#include <kapi/item.hpp>
#include <kapi/local_accessor.hpp>
#include <kapi/phased.hpp>
#include <kapi/work_group.hpp>

namespace matmul {

struct SlidingWindowPhased {
  template <class A, class B, class C, class T>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::WorkGroup<2>& wg, const A& a, const B& b, const C& c,
                                         const kapi::LocalAccessor<T, 2>& a_tile,
                                         const kapi::LocalAccessor<T, 2>& b_tile) const {
    // The inner product's count and stride (a tile side is at most a group's 1024 items).
    // Device code counts in int, as the raw twin does: with std::size_t nvcc unrolled the
    // loop 4 times on a 64-bit counter, with int 16 times (on an H100 it then caught up
    // with the raw twin; results/ has the A/B). Host code counts in std::size_t:
    // with int, g++ made phased-t16 on serial a quarter slower (results
    // cuda-hopper-h100-2026-11-27-2).
#if KAPI_COMPILING_DEVICE_CODE
    using Count = int;
#else
    using Count = std::size_t;
#endif
    const std::size_t tile = wg.get_local_range(0), b_stride = b_tile.get_range()[1];
    const std::size_t m = c.extent(0), n = c.extent(1), k_extent = a.extent(1);
    kapi::PerWorkItem<T> acc(wg, T(0));
    for (std::size_t k0 = 0; k0 < k_extent; k0 += tile) {
      kapi::for_each_work_item(wg, [&](const kapi::NdItem<2>& it) {
        const std::size_t i = it.get_global_id(0), j = it.get_global_id(1);
        const std::size_t li = it.get_local_id(0), lj = it.get_local_id(1);
        a_tile(li, lj) = (i < m && k0 + lj < k_extent) ? a(i, k0 + lj) : T(0);
        b_tile(li, lj) = (k0 + li < k_extent && j < n) ? b(k0 + li, j) : T(0);
      });
      // Through the row and column pointers (as SlidingWindowTile): on an H100 2–3 points
      // closer to the raw twin than a_tile(li, k) * b_tile(k, lj), the same on the host.
      const Count tile_k = static_cast<Count>(tile), b_step = static_cast<Count>(b_stride);
      kapi::for_each_work_item(wg, [&](const kapi::NdItem<2>& it) {
        const T* as = &a_tile(it.get_local_id(0), 0);
        const T* bs = &b_tile(0, it.get_local_id(1));
        T sum = acc(it);
        for (Count k = 0; k < tile_k; ++k) sum += as[k] * bs[k * b_step];
        acc(it) = sum;
      });
    }
    kapi::for_each_work_item(wg, [&](const kapi::NdItem<2>& it) {
      const std::size_t i = it.get_global_id(0), j = it.get_global_id(1);
      if (i < m && j < n) c(i, j) = acc(it);
    });
  }
};

}  // namespace matmul
