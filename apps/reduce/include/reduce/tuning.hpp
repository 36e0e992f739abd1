#pragma once
// Launch shapes of the group-based reductions per kind of backend.
//   device: 256 work-items per group, elements strided by the group size so that the
//           lanes of a warp load consecutive elements, 64 loads unrolled per step to keep
//           many in flight; enough groups for two waves.
//   host:   one host thread runs a group, so a group of 16 work-items, each summing a
//           contiguous chunk with SIMD lanes; 8 groups per thread for load balance.
#include <algorithm>
#include <cstddef>

#include <kapi/kapi.hpp>

#include "chunk_sum.hpp"

namespace reduce {

template <class T, class ExecSpace>
struct Tuning {
  static constexpr bool host = kapi::detail::runs_on_host<ExecSpace>;
  static constexpr bool contiguous = host;
  static constexpr int lanes = host ? (sizeof(T) <= 4 ? 32 : 16) : 8;
  static constexpr int per_lane = host ? 16 : 8;  // device: a block is 64 loads in flight per thread
  using Leaf = ChunkSum<T, lanes, per_lane, contiguous>;

  static constexpr std::size_t default_group_size = host ? 16 : 256;
  /// Fewest elements a work-item sums before the group's tree (small arrays: one group).
  static constexpr std::size_t min_per_item = host ? 1024 : 8;

  /// Groups to aim for: enough to fill the machine (and to balance host threads).
  static std::size_t target_groups(const ExecSpace& space, std::size_t group_size) {
    const auto concurrency = static_cast<std::size_t>(space.concurrency());
    return host ? 8 * concurrency : std::max<std::size_t>(1, 2 * concurrency / group_size);
  }
};

/// One pass of a group reduction: `groups` groups of `group_size` work-items, each
/// summing `per_item` elements.
struct PassShape {
  std::size_t group_size, per_item, groups;
};

/// The shape that covers n elements: per_item chosen for about target groups (at least
/// min_per_item, or `per_item` when the caller fixes it). A group always sums at least
/// two elements, so every pass shrinks the array (a group of one work-item summing one
/// element each would never finish).
inline PassShape pass_shape(std::size_t n, std::size_t group_size, std::size_t per_item, std::size_t min_per_item,
                            std::size_t target_groups) {
  if (per_item == 0) {
    const std::size_t items = std::max<std::size_t>(1, target_groups * group_size);
    per_item = std::max(min_per_item, (n + items - 1) / items);
  }
  if (group_size * per_item < 2) per_item = 2;
  const std::size_t per_group = group_size * per_item;
  return PassShape{group_size, per_item, std::max<std::size_t>(1, (n + per_group - 1) / per_group)};
}

}  // namespace reduce
