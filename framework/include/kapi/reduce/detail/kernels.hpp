// SPDX-License-Identifier: Apache-2.0
#pragma once
// The kernels of the device-wide reductions (device_reduce.hpp) and how a launch's
// work-items share the array, for each chunk layout of chunk_reduce.hpp.
#include <cstddef>

#include <kapi/atomic_ref.hpp>
#include <kapi/barrier.hpp>
#include <kapi/reduce/chunk_reduce.hpp>
#include <kapi/group_algorithms.hpp>
#include <kapi/item.hpp>
#include <kapi/local_accessor.hpp>

namespace kapi::detail {

/// A launch's split of x[0, n) over its groups and work-items, per chunk layout:
/// make() runs on the host, reduce() is work-item `lid`'s share in group `group`.
template <class Chunk>
struct GroupShare;

// Work-item lid of group g owns the contiguous run [(g * size + lid) * per_item, + per_item).
template <class T, int Lanes, int PerLane>
struct GroupShare<ContiguousChunk<T, Lanes, PerLane>> {
  using Chunk = ContiguousChunk<T, Lanes, PerLane>;
  std::size_t n, per_item;

  static GroupShare make(const T*, std::size_t n, std::size_t per_item) { return GroupShare{n, per_item}; }
  static std::size_t depth(std::size_t per_item) { return Chunk::depth(per_item); }

  template <class Op>
  KAPI_FUNCTION T reduce(const T* x, std::size_t group, std::size_t lid, std::size_t size, const T& identity,
                         const Op& op) const {
    return Chunk::reduce(x, (group * size + lid) * per_item, per_item, n, identity, op);
  }
};

// Group g owns the run of size * per_item / width vectors from vector g * size * per_item
// / width; its work-items interleave; work-item 0 of group 0 also takes the scalars
// outside the aligned body.
template <class T, int Vectors>
struct GroupShare<StridedChunk<T, Vectors>> {
  using Chunk = StridedChunk<T, Vectors>;
  std::size_t n;
  typename Chunk::Split split;
  unsigned steps;

  static GroupShare make(const T* x, std::size_t n, std::size_t per_item) {
    return GroupShare{n, Chunk::split(x, n), static_cast<unsigned>(per_item / Chunk::granule)};
  }
  static std::size_t depth(std::size_t per_item) { return Chunk::depth(per_item / Chunk::granule); }

  template <class Op>
  KAPI_FUNCTION T reduce(const T* x, std::size_t group, std::size_t lid, std::size_t size, const T& identity,
                         const Op& op) const {
    const std::size_t first_vector = group * size * steps * Vectors;
    return Chunk::reduce(x, n, split, first_vector, static_cast<unsigned>(lid), static_cast<unsigned>(size), steps,
                         group == 0 && lid == 0, identity, op);
  }
};

/// One pass of the recursive reduction: partial[g] = op over group g's share of in.
/// Each sub-group combines its work-items' values (warp shuffles on a device; on host
/// backends a sub-group is one work-item), its leader stores the result in local memory,
/// and after the group's one barrier the first sub-group combines those: in a halving
/// tree in local memory while they outnumber its work-items (host: one work-item alone,
/// so no barriers between levels; device: never, at most 32 warps), then one sub-group
/// reduction. Tree depth ceil_log2(size) either way. KAPI_GROUP_REDUCE_KOKKOS_TEAM selects
/// the previous form (a local-memory tree over all work-items, a group barrier per level)
/// to measure one against the other.
template <class T, class Share, class Op>
struct RecursiveReducePass {
  Share share;
  T identity;
  Op op;

  KAPI_FUNCTION void operator()(const NdItem<1>& it, const T* in, T* partial, const LocalAccessor<T, 1>& local) const {
    const std::size_t lid = it.get_local_id(0), size = it.get_local_range(0);
    const std::size_t g = it.get_group().get_group_id(0);
#if defined(KAPI_GROUP_REDUCE_KOKKOS_TEAM)
    local[lid] = share.reduce(in, g, lid, size, identity, op);
    std::size_t stride = 1;
    while (stride * 2 < size) stride *= 2;
    for (; size > 1 && stride > 0; stride /= 2) {
      group_barrier(it.get_group());
      if (lid < stride && lid + stride < size) local[lid] = T(op(local[lid], local[lid + stride]));
    }
    if (lid == 0) partial[g] = local[0];
#else
    const SubGroup sg = it.get_sub_group();
    const T mine = reduce_over_group(sg, share.reduce(in, g, lid, size, identity, op), op);
    const std::size_t subs = sg.get_group_range();
    if (subs == 1) {
      if (lid == 0) partial[g] = mine;
      return;
    }
    if (sg.leader()) local[sg.get_group_id()] = mine;
    group_barrier(it.get_group());
    if (sg.get_group_id() != 0) return;
    const std::size_t width = sg.get_local_range(), me = sg.get_local_id();
    std::size_t n = subs;
    while (n > width) {
      const std::size_t half = (n + 1) / 2;
      for (std::size_t i = me; i + half < n; i += width) local[i] = T(op(local[i], local[i + half]));
      n = half;
      group_barrier(sg);
    }
    const T total = reduce_over_group(sg, me < n ? T(local[me]) : identity, op);
    if (me == 0) partial[g] = total;
#endif
  }
};

/// The single-pass reduction: every group combines its share with reduce_over_group,
/// its leader stores the partial and counts the group as done (acq_rel); the group that
/// sees the count reach the number of groups combines the partials into
/// partial[groups] and resets the counter for the next call. The result does not depend
/// on the order in which groups finish.
template <class T, class Share, class Op>
struct SinglePassReduce {
  Share share;
  T identity;
  Op op;

  KAPI_FUNCTION void operator()(const NdItem<1>& it, const T* in, T* partial, unsigned* done) const {
    const auto& group = it.get_group();
    const std::size_t lid = it.get_local_id(0), size = it.get_local_range(0);
    const std::size_t g = group.get_group_id(0), groups = group.get_group_range(0);
    const T mine = reduce_over_group(group, share.reduce(in, g, lid, size, identity, op), op);
    bool last = false;
    if (lid == 0) {
      partial[g] = mine;
      // release: this partial is visible before the count; acquire: the last group sees all.
      const unsigned before = AtomicRef<unsigned, MemoryOrder::acq_rel>(*done).fetch_add(1u);
      last = before + 1 == groups;
    }
    if (any_of_group(group, last)) {  // the same for the whole group: the collective below is converged
      T run = identity;
      // Atomic (uncached) loads: other groups wrote the partials.
      for (std::size_t i = lid; i < groups; i += size) run = T(op(run, AtomicRef<T>(partial[i]).load()));
      const T total = reduce_over_group(group, run, op);
      if (lid == 0) {
        partial[groups] = total;
        AtomicRef<unsigned>(*done).store(0u);
      }
    }
  }
};

}  // namespace kapi::detail
