// SPDX-License-Identifier: Apache-2.0
#pragma once
// The arithmetic of one box-blur output element, shared by every form of the kernel: the
// forms differ only in where a work-item reads its window from (global or local memory).
#include <kapi/kapi.hpp>

#include <cstddef>

namespace guide {

// [guide:window]
/// Index i clamped into [0, n): the signal's edge values repeat beyond its ends.
KOKKOS_INLINE_FUNCTION std::size_t clamp_index(std::ptrdiff_t i, std::size_t n) {
  return i < 0 ? 0 : std::size_t(i) >= n ? n - 1 : std::size_t(i);
}

/// The mean of value(first), value(first + 1), ..., value(first + 2 * radius), summed
/// left to right.
template <class Value>
KOKKOS_INLINE_FUNCTION float window_mean(const Value& value, std::ptrdiff_t first, int radius) {
  float sum = 0;
  for (std::ptrdiff_t d = 0; d <= 2 * radius; ++d) sum += value(first + d);
  return sum / float(2 * radius + 1);
}

/// Work-item `local_id` of a group of `local` work-items copies its share of the group's
/// inputs into the tile: tile[t] = in(tile_start + t) for t = local_id, local_id + local, ...
template <class In>
KOKKOS_INLINE_FUNCTION void load_tile_share(const kapi::LocalAccessor<float, 1>& tile, const In& in,
                                            std::ptrdiff_t tile_start, std::size_t local_id, std::size_t local) {
  for (std::size_t t = local_id; t < tile.size(); t += local)
    tile[t] = in(clamp_index(tile_start + std::ptrdiff_t(t), in.extent(0)));
}
// [guide:end]

}  // namespace guide
