// SPDX-License-Identifier: Apache-2.0
#pragma once
// CUDA's warp and block primitives, the ones the team backend's device collectives are
// built on (team/detail/warp.hpp, team/detail/collectives.hpp, team/detail/group_member.hpp;
// kapi/detail/device_primitives.hpp picks this file in a CUDA device pass). A sub-group is
// one 32-lane warp; a work-group is one block whose thread index y is the local linear id.
// Every warp primitive takes the mask of the existing lanes, computed from the lane count,
// never __activemask(), which reports divergence rather than membership.
#include <cstddef>

#include <kapi/config.hpp>
#include <kapi/space_traits.hpp>

#if KAPI_COMPILING_CUDA_DEVICE_CODE
namespace kapi::detail {
namespace warp {

inline constexpr int size = static_cast<int>(cuda_warp_size);
inline constexpr bool direct_shuffles = true;  // __shfl_sync takes every integer type, float and double
using Mask = unsigned;
/// The existing lanes of a warp of `lanes` lanes.
__device__ inline Mask mask_of(int lanes) { return lanes >= 32 ? 0xffffffffu : (1u << lanes) - 1u; }
__device__ inline int shuffle_word(int w, int src, Mask mask) { return __shfl_sync(mask, w, src); }
__device__ inline bool any(bool p, Mask mask) { return __any_sync(mask, p ? 1 : 0) != 0; }
__device__ inline bool all(bool p, Mask mask) { return __all_sync(mask, p ? 1 : 0) != 0; }
__device__ inline void sync(Mask mask) { __syncwarp(mask); }
template <class T>
__device__ T shuffle_direct(const T& v, int src, Mask mask) {
  return __shfl_sync(mask, v, src);
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
#endif  // KAPI_COMPILING_CUDA_DEVICE_CODE
