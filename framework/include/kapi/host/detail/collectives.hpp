// SPDX-License-Identifier: Apache-2.0
#pragma once
// Group algorithms for work-groups that run as host contexts (host/detail/group.hpp).
// Protocol of one collective: every work-item writes its value into its slot of the
// group's collective buffer and reaches a barrier. Both host engines run a group's
// work-items in local-id order between barriers (the contexts one after another, the
// work-group loops as loops over local ids), so work-item 0 is the first to go on after
// the barrier: it combines the slots once (reductions in host_group_fold's order, scans
// left to right in local-id order: results depend on the group size alone), then every
// work-item reads its result. The combine hangs on the local id alone, not on a flag in
// memory: in a loop over work-items it is a test of the loop's counter, not a store and a
// load per work-item. Collectives alternate between two halves of the buffer by the
// barrier count's parity: a half is written again only two barriers later, when
// every work-item has read it. A barrier-free group that calls a collective reaches that
// barrier, so its work-items get contexts like any group with barriers. The barrier, the
// work-item's id and the barrier count go through the C functions that the work-group
// loop pass turns into its loops' own (host/detail/work_group_loops.hpp); the protocol is
// the same there.
#include <cstddef>
#include <new>
#include <string>
#include <type_traits>

#include <kapi/detail/sequential_scan.hpp>
#include <kapi/host/detail/group.hpp>
#include <kapi/host/detail/group_fold.hpp>
#include <kapi/host/detail/work_group_loops.hpp>

namespace kapi::detail {

/// Largest value type a flat group collective carries (one slot per work-item).
inline constexpr std::size_t host_collective_slot_bytes = HostGroup::collective_slot_bytes;

template <class T>
struct HostCollectiveHalf {
  T* result;  // one value for reductions
  T* slots;   // one value per work-item
};

template <class T>
HostCollectiveHalf<T> host_collective_half(HostGroup& group, std::size_t parity) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= host_collective_slot_bytes &&
                    alignof(T) <= host_collective_slot_bytes,
                "kapi group algorithms carry trivially copyable values of at most 16 bytes");
  constexpr std::size_t header = HostGroup::collective_header_bytes;
  char* base = static_cast<char*>(group.collective_buffer()) + parity * HostGroup::collective_half_bytes(group.size());
  return {reinterpret_cast<T*>(base), reinterpret_cast<T*>(base + header)};
}

/// One collective: contributes `mine`; after the barrier work-item 0 runs combine(half)
/// once, and every work-item returns read(half, local_id).
template <class T, class Combine, class Read>
auto host_collective(HostGroup& group, const T& mine, const Combine& combine, const Read& read) {
  const std::size_t parity = kapi_host_barriers_passed(&group) & 1, me = kapi_host_work_item(&group);
  ::new (static_cast<void*>(host_collective_half<T>(group, parity).slots + me)) T(mine);
  kapi_host_group_barrier(&group);
  const auto h = host_collective_half<T>(group, parity);
  if (me == 0) combine(h);
  return read(h, me);
}

template <class T, class Op>
T host_reduce(HostGroup& group, const T& x, const Op& op) {
  return host_collective(
      group, x, [&](const HostCollectiveHalf<T>& h) { *h.result = host_group_fold<T>(group.size(), h.slots, op); },
      [](const HostCollectiveHalf<T>& h, std::size_t) { return *h.result; });
}

/// Inclusive or exclusive scan (detail/sequential_scan.hpp), init folded in first when
/// HasInit.
template <bool Inclusive, bool HasInit, class T, class Op>
T host_scan(HostGroup& group, const T& x, const Op& op, const T& init) {
  return host_collective(
      group, x,
      [&](const HostCollectiveHalf<T>& h) {
        sequential_scan<Inclusive, HasInit>(
            group.size(), [&](std::size_t i) { return h.slots[i]; }, [&](std::size_t i, const T& v) { h.slots[i] = v; },
            op, init);
      },
      [](const HostCollectiveHalf<T>& h, std::size_t me) { return h.slots[me]; });
}

/// `from` must be a local linear id of the group: any other is reported for the launch
/// (kapi::launch_error) and every work-item gets its own x back, still through the
/// collective (a barrier), rather than a slot past the group's.
template <class T>
T host_broadcast(HostGroup& group, const T& x, std::size_t from) {
  const bool valid = from < group.size();
  if (!valid)
    group.fail("group_broadcast: source local id " + std::to_string(from) + " is outside work-group " +
               std::to_string(group.group_linear_id()) + " of " + std::to_string(group.size()) +
               " work-items (local ids 0 to " + std::to_string(group.size() - 1) + ")");
  return host_collective(
      group, x, [](const HostCollectiveHalf<T>&) {},
      [from, valid](const HostCollectiveHalf<T>& h, std::size_t me) { return h.slots[valid ? from : me]; });
}

/// A collective whose whole work is done once, by work-item 0 after the barrier (joint
/// algorithms: the host thread runs the group anyway, so one sequential pass is both the
/// fastest and the exact order); `work()` returns the shared result.
template <class R, class Work>
R host_once(HostGroup& group, const Work& work) {
  return host_collective(
      group, char(0), [&](const HostCollectiveHalf<char>& h) { ::new (static_cast<void*>(h.result)) R(work()); },
      [](const HostCollectiveHalf<char>& h, std::size_t) { return *reinterpret_cast<const R*>(h.result); });
}

}  // namespace kapi::detail
