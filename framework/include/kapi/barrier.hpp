// SPDX-License-Identifier: Apache-2.0
#pragma once
// group_barrier: every work-item of the group waits until all have arrived; memory
// written to local (and, with device scope, global) memory before it is visible after it.
// Each backend's barrier is chosen in detail/barriers.hpp.
#include <kapi/config.hpp>
#include <kapi/detail/barriers.hpp>
#include <kapi/group.hpp>
#include <kapi/memory_model.hpp>
#include <kapi/sub_group.hpp>

namespace kapi {

template <int N>
KAPI_FUNCTION void group_barrier(const Group<N>& group, MemoryScope scope = MemoryScope::work_group) {
  (void)scope;  // a Kokkos team barrier orders local and global memory for the team alike
  detail::group_barrier(group.impl_handle());
}

/// Every work-item of the sub-group waits until all have arrived; memory written before is
/// visible to the sub-group after it. A warp barrier on CUDA/HIP (only the sub-group's
/// lanes: a partial last sub-group's mask comes from its size), nothing on host backends,
/// where a sub-group is one work-item.
KAPI_FUNCTION void group_barrier(const SubGroup& sg, MemoryScope scope = MemoryScope::sub_group) {
  (void)scope;
  detail::sub_group_barrier(static_cast<int>(sg.get_local_range()));
}

}  // namespace kapi
