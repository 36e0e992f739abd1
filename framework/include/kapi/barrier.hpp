#pragma once
// group_barrier: every work-item of the group waits until all have arrived; memory
// written to local (and, with device scope, global) memory before it is visible after it.
#include <kapi/group.hpp>
#include <kapi/memory_model.hpp>
#include <kapi/sub_group.hpp>
#if !KAPI_COMPILING_DEVICE_CODE
#include <kapi/host/detail/group.hpp>
#endif

namespace kapi {

template <int N>
KAPI_FUNCTION void group_barrier(const Group<N>& group, MemoryScope scope = MemoryScope::work_group) {
  (void)scope;  // a Kokkos team barrier orders local and global memory for the team alike
#if KAPI_COMPILING_DEVICE_CODE
  group.impl_handle().team().team_barrier();
#else
  group.impl_handle().host().barrier();
#endif
}

/// Every work-item of the sub-group waits until all have arrived; memory written before is
/// visible to the sub-group after it. A warp barrier on CUDA/HIP (only the sub-group's
/// lanes: a partial last sub-group's mask comes from its size), nothing on host backends,
/// where a sub-group is one work-item.
KAPI_FUNCTION void group_barrier(const SubGroup& sg, MemoryScope scope = MemoryScope::sub_group) {
  (void)scope;
#if defined(__CUDA_ARCH__)
  const unsigned lanes = static_cast<unsigned>(sg.get_local_range());
  __syncwarp(lanes >= 32 ? 0xffffffffu : (1u << lanes) - 1u);
#elif defined(__HIP_DEVICE_COMPILE__)
  (void)sg;
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
  __builtin_amdgcn_wave_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
#else
  (void)sg;
#endif
}

}  // namespace kapi
