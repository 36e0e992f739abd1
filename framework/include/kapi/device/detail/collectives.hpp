#pragma once
// Group collectives on a device backend, where a work-group is a Kokkos team that is
// exactly one CUDA/HIP block: launch.hpp asks for vector length 1, and Kokkos then runs
// one team per block with team rank = threadIdx.y, so hardware warps are runs of 32 (64
// on AMD) consecutive work-items.
//  - reduce: Kokkos team_reduce with a reducer over the kapi operator (warp shuffles and
//    a few shared words, inside Kokkos);
//  - broadcast: Kokkos team_broadcast;
//  - any/all: the block vote __syncthreads_or/_and;
//  - scans (Kokkos's team_scan is sum-only): a warp-shuffle scan, then the warps'
//    totals through device_collective_area(), a static __shared__ array of
//    device_collective_bytes that exists only in kernels that scan.
// Every collective starts with a team barrier, so it never overwrites shared words the
// previous collective's readers still need.
#include <cstddef>
#include <type_traits>

#include <kapi/functional.hpp>
#include <kapi/detail/group_handle.hpp>

namespace kapi::detail {

/// Static shared memory a kernel that scans adds to its local memory (one word per warp).
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
  T inclusive;     // op over work-items 0 … me
  T exclusive;     // op over work-items 0 … me-1, when has_exclusive
  bool has_exclusive;
};

#if KAPI_COMPILING_DEVICE_CODE

#if defined(__CUDA_ARCH__)
inline constexpr int warp_lanes = 32;
template <class T>
__device__ T shuffle_up(const T& v, int delta, unsigned mask) {
  if constexpr (std::is_floating_point_v<T>) {
    return __shfl_up_sync(mask, v, delta);
  } else if constexpr (sizeof(T) == 8) {
    return T(__shfl_up_sync(mask, static_cast<long long>(v), delta));
  } else {
    return T(__shfl_up_sync(mask, static_cast<int>(v), delta));
  }
}
#define KAPI_SYNC_OR(p) __syncthreads_or(p)
#define KAPI_SYNC_AND(p) __syncthreads_and(p)
#elif defined(__HIP_DEVICE_COMPILE__)
inline constexpr int warp_lanes = 64;
template <class T>
__device__ T shuffle_up(const T& v, int delta, unsigned) {
  if constexpr (std::is_floating_point_v<T>) {
    return __shfl_up(v, delta);
  } else if constexpr (sizeof(T) == 8) {
    return T(__shfl_up(static_cast<long long>(v), delta));
  } else {
    return T(__shfl_up(static_cast<int>(v), delta));
  }
}
#define KAPI_SYNC_OR(p) __syncthreads_or(p)
#define KAPI_SYNC_AND(p) __syncthreads_and(p)
#endif

__device__ inline void* device_collective_area() {
  __shared__ double area[device_collective_bytes / sizeof(double)];
  return area;
}

template <class T, class Op>
__device__ T device_reduce(const DeviceTeamMember& team, const T& x, const Op& op) {
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
  const int rank = team.team_rank(), size = team.team_size();
  const int lane = rank % warp_lanes, warp = rank / warp_lanes, first = rank - lane;
  const int lanes = size - first < warp_lanes ? size - first : warp_lanes;  // the last warp may be partial
  const unsigned mask = lanes >= 32 ? 0xffffffffu : (1u << lanes) - 1u;
  // Hillis-Steele inside the warp: after step d every lane holds op over lanes lane-2d+1 … lane.
  T incl = x;
  for (int d = 1; d < lanes; d *= 2) {
    const T lower = shuffle_up(incl, d, mask);
    if (lane >= d) incl = T(op(lower, incl));
  }
  const T below = shuffle_up(incl, 1, mask);
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
