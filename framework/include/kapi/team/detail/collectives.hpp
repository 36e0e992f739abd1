// SPDX-License-Identifier: Apache-2.0
#pragma once
// Group collectives in the team backend's device code, where a work-group is one block
// (group_member.hpp), so hardware warps are runs of 32 (64 on AMD) consecutive work-items:
// the group's sub-groups (warp.hpp). Every collective is built from warp shuffles, block
// barriers and the block's shared words, device_collective_area() (a static shared array
// of device_collective_bytes), all primitives of the device backend
// (kapi/detail/device_primitives.hpp), never from a Kokkos team: it runs alike under
// kapi's own CUDA launch and under a Kokkos team launch.
//  - reduce: a warp reduction (shuffles) per sub-group, the warps' totals through the area,
//    then every work-item folds the totals itself in warp order (at most 32 values), so
//    one block barrier exchanges them and none broadcasts the result; a group of one
//    warp needs no block barrier at all. Totals wider than 8 bytes go through the area as
//    many at a time as fit (rounds), totals wider than the area one by one in slices;
//  - broadcast: the value through the area (in slices of the area's size);
//  - any/all: the block vote (block::barrier_or / barrier_and);
//  - scans: a warp-shuffle scan, then the warps' totals through the area.
// Every collective that uses the area starts with a block barrier, so it never overwrites
// words the previous collective's readers still need.
#include <kapi/config.hpp>

#include <cstddef>
#include <type_traits>

#include <kapi/detail/copy_bytes.hpp>
#include <kapi/detail/device_primitives.hpp>
#include <kapi/functional.hpp>
#include <kapi/team/detail/group_member.hpp>
#include <kapi/team/detail/warp.hpp>

namespace kapi::detail {

/// Static shared memory a kernel that reduces or scans over a group adds to its local
/// memory (one value of at most 8 bytes per warp).
inline constexpr std::size_t device_collective_bytes = 32 * sizeof(double);

template <class T>
struct ScanParts {
  T inclusive;  // op over work-items 0 … me
  T exclusive;  // op over work-items 0 … me-1, when has_exclusive
  bool has_exclusive;
};

#if KAPI_COMPILING_DEVICE_CODE

__device__ inline void* device_collective_area() { return block::shared_words<device_collective_bytes>(); }

/// Where a work-item sits in its warp: lane, existing lanes of the warp, their mask.
struct WarpPlace {
  int lane, warp, lanes, warps;
  warp::Mask mask;
};
__device__ inline WarpPlace warp_place(DeviceGroupMember team) {
  const int rank = team.team_rank(), size = team.team_size();
  WarpPlace p;
  p.lane = rank % warp::size;
  p.warp = rank / warp::size;
  const int first = rank - p.lane;
  p.lanes = size - first < warp::size ? size - first : warp::size;  // the last warp may be partial
  p.warps = (size + warp::size - 1) / warp::size;
  p.mask = warp::mask_of(p.lanes);
  return p;
}

/// The value of work-item `from` to every work-item of the group (a block barrier).
/// Through the area in slices of its size; values move as bytes (Kokkos::complex, whose
/// volatile assignment makes it not trivially copyable, is copied as its bits).
template <class T>
__device__ T device_broadcast(DeviceGroupMember team, const T& x, std::size_t from) {
  constexpr std::size_t slice = device_collective_bytes;
  T value = x;
  char* const bytes = reinterpret_cast<char*>(static_cast<void*>(&value));
  char* const area = static_cast<char*>(device_collective_area());
  const bool source = static_cast<std::size_t>(team.team_rank()) == from;
  for (std::size_t at = 0; at < sizeof(T); at += slice) {
    const std::size_t n = sizeof(T) - at < slice ? sizeof(T) - at : slice;
    team.team_barrier();  // the previous collective's readers are done with the area
    if (source) copy_bytes(area, bytes + at, n);
    team.team_barrier();
    if (!source) copy_bytes(bytes + at, area, n);
  }
  return value;
}

/// Each warp's total, folded in warp order by every work-item: `round` totals at a time
/// through the area, or one at a time by broadcast when a total is wider than the area.
template <class T, class Op>
__device__ T fold_warp_totals(DeviceGroupMember team, const WarpPlace& p, const T& mine, const Op& op) {
  constexpr int round = int(device_collective_bytes / sizeof(T));
  if constexpr (round == 0) {
    T total = device_broadcast(team, mine, 0);
    for (int w = 1; w < p.warps; ++w) total = T(op(total, device_broadcast(team, mine, std::size_t(w) * warp::size)));
    return total;
  } else {
    char* const area = static_cast<char*>(device_collective_area());
    T total = mine;
    for (int first = 0; first < p.warps; first += round) {
      team.team_barrier();  // the previous readers are done with the area
      if (p.lane == 0 && p.warp >= first && p.warp < first + round)
        copy_bytes(area + (p.warp - first) * sizeof(T), static_cast<const void*>(&mine), sizeof(T));
      team.team_barrier();
      const int last = p.warps < first + round ? p.warps : first + round;
      for (int w = first; w < last; ++w) {
        T t = mine;
        copy_bytes(static_cast<void*>(&t), area + (w - first) * sizeof(T), sizeof(T));
        total = w == 0 ? t : T(op(total, t));
      }
    }
    return total;
  }
}

template <class T, class Op>
__device__ T device_reduce(DeviceGroupMember team, const T& x, const Op& op) {
  const WarpPlace p = warp_place(team);
  const T mine = warp::reduce(x, op, p.lane, p.lanes, p.mask);
  if (p.warps == 1) {
    warp::sync(p.mask);  // the group is one warp: its barrier is the group barrier
    return mine;
  }
  if constexpr (sizeof(T) > sizeof(double)) {
    return fold_warp_totals(team, p, mine, op);
  } else {
    T* totals = static_cast<T*>(device_collective_area());
    team.team_barrier();  // the previous collective's readers are done with the area
    if (p.lane == 0) totals[p.warp] = mine;
    team.team_barrier();
    T total = totals[0];
    for (int w = 1; w < p.warps; ++w) total = T(op(total, totals[w]));
    return total;
  }
}

__device__ inline bool device_any(DeviceGroupMember, bool p) { return block::barrier_or(p ? 1 : 0) != 0; }
__device__ inline bool device_all(DeviceGroupMember, bool p) { return block::barrier_and(p ? 1 : 0) != 0; }

template <class T, class Op>
__device__ ScanParts<T> device_scan(DeviceGroupMember team, const T& x, const Op& op) {
  const WarpPlace p = warp_place(team);
  const int lane = p.lane, warp = p.warp, lanes = p.lanes;
  // Hillis-Steele inside the warp: every lane then holds op over lanes 0 … lane.
  const T incl = warp::inclusive_scan(x, op, lane, lanes, p.mask);
  const T below = warp::shuffle(incl, lane > 0 ? lane - 1 : 0, p.mask);
  T* totals = static_cast<T*>(device_collective_area());
  team.team_barrier();
  if (lane == lanes - 1) totals[warp] = incl;
  team.team_barrier();
  // Each work-item folds the totals of the warps before its own (at most 31 values).
  T prefix = totals[0];
  for (int w = 1; w < warp; ++w) prefix = T(op(prefix, totals[w]));
  ScanParts<T> r;
  r.inclusive = warp > 0 ? T(op(prefix, incl)) : incl;
  if (lane > 0) {
    r.exclusive = warp > 0 ? T(op(prefix, below)) : below;
    r.has_exclusive = true;
  } else {
    r.exclusive = prefix;
    r.has_exclusive = warp > 0;
  }
  return r;
}

#endif  // KAPI_COMPILING_DEVICE_CODE

}  // namespace kapi::detail
