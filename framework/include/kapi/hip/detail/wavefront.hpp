// SPDX-License-Identifier: Apache-2.0
#pragma once
// HIP's wavefront and block primitives, the ones the team backend's device collectives are
// built on (team/detail/warp.hpp, team/detail/collectives.hpp, team/detail/group_member.hpp;
// kapi/detail/device_primitives.hpp picks this file in a HIP device pass). A sub-group is
// one 64-lane wavefront, which runs in lockstep: the lane masks are kept for the interface
// CUDA needs and not used here. A work-group is one block whose thread index y is the
// local linear id.
#include <cstddef>

#include <kapi/config.hpp>
#include <kapi/space_traits.hpp>

#if KAPI_COMPILING_HIP_DEVICE_CODE
namespace kapi::detail {
namespace warp {

inline constexpr int size = static_cast<int>(hip_wavefront_size);
inline constexpr bool direct_shuffles = false;  // words only
using Mask = unsigned long long;                // a wavefront runs in lockstep: the masks are not needed
__device__ inline Mask mask_of(int lanes) { return lanes >= 64 ? ~0ull : (1ull << lanes) - 1ull; }
__device__ inline int shuffle_word(int w, int src, Mask) { return __shfl(w, src); }
__device__ inline bool any(bool p, Mask) { return __any(p ? 1 : 0) != 0; }
__device__ inline bool all(bool p, Mask) { return __all(p ? 1 : 0) != 0; }
__device__ inline void sync(Mask) {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
  __builtin_amdgcn_wave_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
}
template <class T>
__device__ T shuffle_direct(const T& v, int, Mask) {
  return v;  // not used (direct_shuffles)
}

}  // namespace warp

namespace block {

/// The calling thread's local linear id in its work-group, and the group's size.
__device__ inline int rank() { return static_cast<int>(threadIdx.y); }
__device__ inline int size() { return static_cast<int>(blockDim.y); }
__device__ inline void barrier() { __syncthreads(); }
/// A block barrier that also returns whether p is nonzero on any / on every thread.
__device__ inline int barrier_or(int p) { return __syncthreads_or(p); }
__device__ inline int barrier_and(int p) { return __syncthreads_and(p); }
/// The block's static shared array of Bytes (a multiple of 8), one per Bytes.
template <std::size_t Bytes>
__device__ inline void* shared_words() {
  __shared__ double words[Bytes / sizeof(double)];
  return words;
}

}  // namespace block
}  // namespace kapi::detail
#endif  // KAPI_COMPILING_HIP_DEVICE_CODE
