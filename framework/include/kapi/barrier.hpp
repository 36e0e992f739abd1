#pragma once
// group_barrier: every work-item of the group waits until all have arrived; memory
// written to local (and, with device scope, global) memory before it is visible after it.
#include <kapi/group.hpp>
#include <kapi/memory_model.hpp>
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

}  // namespace kapi
