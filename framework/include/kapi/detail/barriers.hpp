// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one place the barriers (barrier.hpp) pick their backend:
// - a work-group barrier is the block barrier of the team backend's device code
//   (team/detail/group_member.hpp) in a device pass, the host engine's context switch
//   (host/detail/group.hpp) in host code, through the C function the work-group loop
//   pass recognises (host/detail/work_group_loops.hpp);
// - a sub-group barrier is the device backend's warp barrier over the sub-group's lanes
//   (detail/device_primitives.hpp: cuda/detail/warp.hpp, hip/detail/wavefront.hpp) in a
//   device pass, nothing in host code, where a sub-group is one work-item.
#include <kapi/config.hpp>
#include <kapi/detail/group_handle.hpp>

#if KAPI_COMPILING_DEVICE_CODE
#include <kapi/detail/device_primitives.hpp>
#include <kapi/team/detail/group_member.hpp>
#else
#include <kapi/host/detail/group.hpp>
#include <kapi/host/detail/work_group_loops.hpp>
#endif

namespace kapi::detail {

/// Every work-item of the group that `handle` reaches waits until all have arrived.
KAPI_FUNCTION void group_barrier(const GroupHandle& handle) {
#if KAPI_COMPILING_DEVICE_CODE
  handle.team().team_barrier();
#else
  kapi_host_group_barrier(&handle.host());
#endif
}

/// Every work-item of a sub-group of `lanes` work-items waits until all have arrived.
KAPI_FUNCTION void sub_group_barrier(int lanes) {
  (void)lanes;
  KAPI_IF_ON_DEVICE((warp::sync(warp::mask_of(lanes));))
}

}  // namespace kapi::detail
