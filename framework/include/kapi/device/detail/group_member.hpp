#pragma once
// A work-group's machinery on a device backend: the CUDA/HIP block it runs on, one thread
// per work-item, threadIdx.y its local linear id (blocks of dim3(1, group size): kapi's
// own CUDA launch, cuda_group_launch.hpp, and Kokkos's team launches with vector length 1,
// which both backends lay out that way). Every collective is a block-wide CUDA/HIP
// operation, so a group needs no handle to a Kokkos team: the same code serves either
// launch. Its shared words live in device_collective_area() (collectives.hpp).
#include <kapi/config.hpp>

namespace kapi::detail {

struct DeviceGroupMember {
#if KAPI_COMPILING_DEVICE_CODE
  __device__ int team_rank() const { return static_cast<int>(threadIdx.y); }
  __device__ int team_size() const { return static_cast<int>(blockDim.y); }
  __device__ void team_barrier() const { __syncthreads(); }
#endif
};

}  // namespace kapi::detail
