// SPDX-License-Identifier: Apache-2.0
#pragma once
// Launch shapes of the device-wide reductions (device_reduce.hpp), per kind of backend,
// and the options a caller may fix instead.
//   device: 256 work-items per group on group-interleaved 16-byte vectors, 4 loads in
//           flight per work-item and step; enough groups for about two waves of the
//           machine, each work-item taking at most 32 steps (so the summation tree stays
//           shallow: larger arrays get more groups, not longer chains).
//   host:   one host thread runs a group, so groups of 16 work-items, each reducing a
//           contiguous run in SIMD lanes (at least 1024 elements); 8 groups per thread
//           for load balance.
#include <algorithm>
#include <cstddef>
#include <type_traits>

#include <kapi/reduce/chunk_reduce.hpp>
#include <kapi/config.hpp>
#include <kapi/execution_space.hpp>
#include <kapi/integer_math.hpp>

namespace kapi {

/// How the groups' results are combined.
enum class ReduceAlgorithm {
  recursive,   // each group combines its work-items in a local-memory tree and writes one
               // partial; the partials are reduced the same way, pass after pass
  single_pass  // one launch: reduce_over_group per group, then the last group to finish
               // (an atomic counter) combines the partials
};

/// What a caller may fix; `automatic` leaves the choice to ReduceTuning.
struct ReduceOptions {
  static constexpr std::size_t automatic = ~std::size_t(0);
  ReduceAlgorithm algorithm = ReduceAlgorithm::recursive;
  std::size_t group_size = automatic;  // work-items per group
  std::size_t per_item = automatic;    // elements a work-item reduces before its group combines
                                       // (rounded up to the chunk's granule)
};

/// The backend's defaults for values of type T.
template <class T, class ExecSpace>
struct ReduceTuning {
  static constexpr bool host = kapi::is_host_execution_space_v<ExecSpace>;
  using Chunk = std::conditional_t<host, ContiguousChunk<T, (sizeof(T) <= 4 ? 32 : 16), 16>, StridedChunk<T, 4>>;
  static constexpr std::size_t group_size = host ? 16 : 256;
  /// Fewest and most elements a work-item reduces when the choice is automatic.
  static constexpr std::size_t min_per_item = host ? 1024 : Chunk::granule;
  static constexpr std::size_t max_per_item = host ? ReduceOptions::automatic : 32 * Chunk::granule;

  /// Groups to aim for: enough to fill the machine (and to balance host threads).
  static std::size_t target_groups(const ExecSpace& space, std::size_t group) {
    const auto concurrency = static_cast<std::size_t>(space.concurrency());
    return host ? 8 * concurrency : std::max<std::size_t>(1, 2 * concurrency / group);
  }
};

namespace detail {

/// One launch: `groups` groups of `group_size` work-items, each reducing `per_item` of
/// the pass's `n` elements.
struct ReducePass {
  std::size_t n, group_size, per_item, groups;
};

template <class T, class ExecSpace>
ReducePass reduce_pass(const ExecSpace& space, std::size_t n, const ReduceOptions& options) {
  using Tune = ReduceTuning<T, ExecSpace>;
  const std::size_t granule = Tune::Chunk::granule;
  const std::size_t group = options.group_size == ReduceOptions::automatic ? Tune::group_size : options.group_size;
  std::size_t per_item = options.per_item;
  if (per_item == ReduceOptions::automatic) {
    const std::size_t items = std::max<std::size_t>(1, Tune::target_groups(space, group) * group);
    per_item = std::min(Tune::max_per_item, std::max(Tune::min_per_item, kapi::ceil_div(n, items)));
  }
  per_item = kapi::round_up(per_item, granule);
  // Every pass must shrink the array: a group of one work-item reducing one element would not.
  if (group * per_item < 2) per_item = 2;
  const std::size_t per_group = group * per_item;
  return ReducePass{n, group, per_item, std::max<std::size_t>(1, kapi::ceil_div(n, per_group))};
}

/// The passes of a reduction of n >= 1 elements: one for single_pass; for recursive,
/// pass after pass until one group is left (each pass at least halves the count).
struct ReducePlan {
  static constexpr int max_passes = 64;
  ReducePass pass[max_passes];
  int count = 0;
};

template <class T, class ExecSpace>
ReducePlan reduce_plan(const ExecSpace& space, std::size_t n, const ReduceOptions& options) {
  ReducePlan plan;
  do {
    plan.pass[plan.count] = reduce_pass<T>(space, n, options);
    n = plan.pass[plan.count++].groups;
  } while (n > 1 && options.algorithm == ReduceAlgorithm::recursive);
  return plan;
}

}  // namespace detail
}  // namespace kapi
