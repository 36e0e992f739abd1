#pragma once
// Group collectives on a device backend, where a work-group is a Kokkos team that is
// exactly one CUDA/HIP block: launch.hpp asks for vector length 1, and Kokkos then runs
// one team per block with team rank = threadIdx.y, so hardware warps are runs of 32 (64
// on AMD) consecutive work-items: the group's sub-groups (warp.hpp).
//  - reduce: a warp reduction (shuffles) per sub-group, the warps' totals through
//    device_collective_area() (a static __shared__ array of device_collective_bytes),
//    then every work-item folds the totals itself in warp order (at most 32 values), so
//    one block barrier exchanges them and none broadcasts the result; a group of one
//    warp needs no block barrier at all. Defining KAPI_GROUP_REDUCE_KOKKOS_TEAM selects
//    the previous path, Kokkos team_reduce with a reducer over the kapi operator (to
//    measure one against the other);
//  - broadcast: Kokkos team_broadcast;
//  - any/all: the block vote __syncthreads_or/_and;
//  - scans (Kokkos's team_scan is sum-only): a warp-shuffle scan, then the warps'
//    totals through device_collective_area().
// Every collective that uses the area starts with a team barrier, so it never overwrites
// words the previous collective's readers still need.
#include <cstddef>
#include <type_traits>

#include <kapi/functional.hpp>
#include <kapi/detail/group_handle.hpp>
#include <kapi/device/detail/warp.hpp>

namespace kapi::detail {

/// Static shared memory a kernel that reduces or scans over a group adds to its local
/// memory (one value of at most 8 bytes per warp).
inline constexpr std::size_t device_collective_bytes = 32 * sizeof(double);

/// A Kokkos reducer over a kapi operator for values of type T, carried as V (values
/// narrower than 4 bytes travel as int: Kokkos's shuffles move whole words).
template <class V, class T, class Op>
struct OpReducer {
  using reducer = OpReducer;
  using value_type = V;
  V* value;
  Op op;
  KAPI_FUNCTION void join(V& dest, const V& src) const { dest = V(T(op(T(dest), T(src)))); }
  KAPI_FUNCTION void init(V& v) const { v = V(known_identity<Op, T>()); }
  KAPI_FUNCTION V& reference() const { return *value; }
  KAPI_FUNCTION bool references_scalar() const { return true; }
};

template <class T>
struct ScanParts {
  T inclusive;  // op over work-items 0 … me
  T exclusive;  // op over work-items 0 … me-1, when has_exclusive
  bool has_exclusive;
};

#if KAPI_COMPILING_DEVICE_CODE

#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define KAPI_SYNC_OR(p) __syncthreads_or(p)
#define KAPI_SYNC_AND(p) __syncthreads_and(p)
#endif

__device__ inline void* device_collective_area() {
  __shared__ double area[device_collective_bytes / sizeof(double)];
  return area;
}

/// Where a work-item sits in its warp: lane, existing lanes of the warp, their mask.
struct WarpPlace {
  int lane, warp, lanes, warps;
  warp::Mask mask;
};
__device__ inline WarpPlace warp_place(const DeviceTeamMember& team) {
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

/// The Kokkos path: team_reduce with a reducer over the kapi operator.
template <class T, class Op>
__device__ T device_team_reduce(const DeviceTeamMember& team, const T& x, const Op& op) {
  using V = std::conditional_t<(sizeof(T) < sizeof(int)), int, T>;
  V value = V(x);
#if KOKKOS_VERSION < 30701
  // Before 3.7.01 Kokkos' inter-warp step stores into its shared slots without a barrier
  // and ends without one, so a team_reduce right after another could overwrite slots slow
  // warps still read (Kokkos PR 5540). Later versions end it with one. Either way every
  // thread passes a block barrier inside team_reduce: the call stays a group barrier.
  team.team_barrier();
#endif
  team.team_reduce(OpReducer<V, T, Op>{&value, op}, value);
  return T(value);
}

template <class T, class Op>
__device__ T device_reduce(const DeviceTeamMember& team, const T& x, const Op& op) {
#if defined(KAPI_GROUP_REDUCE_KOKKOS_TEAM)
  constexpr bool kokkos_path = true;
#else
  // Values wider than the area's words (a phase may reduce any type) take the Kokkos path.
  constexpr bool kokkos_path = sizeof(T) > sizeof(double) || !std::is_trivially_copyable_v<T>;
#endif
  if constexpr (kokkos_path) {
    return device_team_reduce(team, x, op);
  } else {
    const WarpPlace p = warp_place(team);
    const T mine = warp::reduce(x, op, p.lane, p.lanes, p.mask);
    if (p.warps == 1) {
      warp::sync(p.mask);  // the group is one warp: its barrier is the group barrier
      return mine;
    }
    T* totals = static_cast<T*>(device_collective_area());
    team.team_barrier();  // the previous collective's readers are done with the area
    if (p.lane == 0) totals[p.warp] = mine;
    team.team_barrier();
    T total = totals[0];
    for (int w = 1; w < p.warps; ++w) total = T(op(total, totals[w]));
    return total;
  }
}

template <class T>
__device__ T device_broadcast(const DeviceTeamMember& team, const T& x, std::size_t from) {
  T value = x;
  team.team_broadcast(value, static_cast<int>(from));
  return value;
}

__device__ inline bool device_any(const DeviceTeamMember&, bool p) { return KAPI_SYNC_OR(p ? 1 : 0) != 0; }
__device__ inline bool device_all(const DeviceTeamMember&, bool p) { return KAPI_SYNC_AND(p ? 1 : 0) != 0; }

template <class T, class Op>
__device__ ScanParts<T> device_scan(const DeviceTeamMember& team, const T& x, const Op& op) {
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

#undef KAPI_SYNC_OR
#undef KAPI_SYNC_AND

#endif  // KAPI_COMPILING_DEVICE_CODE

}  // namespace kapi::detail
