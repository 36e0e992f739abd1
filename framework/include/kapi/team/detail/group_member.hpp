// SPDX-License-Identifier: Apache-2.0
#pragma once
// A work-group's machinery in the team backend's device code: the block it runs on, one
// thread per work-item, the block's thread index y its local linear id (blocks of
// dim3(1, group size): Kokkos's team launches with vector length 1, which CUDA and HIP
// both lay out that way, and kapi's own CUDA launch, cuda/detail/group_launch.hpp). Every
// collective is a block-wide operation of the device backend (detail::block,
// kapi/detail/device_primitives.hpp), so a group needs no handle to a Kokkos team: the
// same code serves either launch. Its shared words live in device_collective_area()
// (collectives.hpp).
#include <kapi/config.hpp>
#include <kapi/detail/device_primitives.hpp>
#include <kapi/detail/group_handle.hpp>

namespace kapi::detail {

struct DeviceGroupMember {
#if KAPI_COMPILING_DEVICE_CODE
  __device__ int team_rank() const { return block::rank(); }
  __device__ int team_size() const { return block::size(); }
  __device__ void team_barrier() const { block::barrier(); }
#endif
};

KAPI_FUNCTION DeviceGroupMember GroupHandle::team() const { return {}; }

}  // namespace kapi::detail
