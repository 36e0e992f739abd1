// SPDX-License-Identifier: Apache-2.0
#pragma once
// Work-groups on CUDA, launched directly on the execution space's stream: a block of
// dim3(1, group size) threads runs groups league-stride (as the Kokkos team launch does,
// device_teams in team/detail/launcher.hpp says how many blocks), one thread per
// work-item, threadIdx.y its local linear id (team/detail/group_member.hpp), the group's
// local memory in dynamic shared memory.
// What it gives over a Kokkos TeamPolicy launch:
//  - local memory up to the device's opt-in limit per block (after the collectives'
//    static words), where Kokkos 3.4 caps fast team scratch well below it and puts the
//    rest in global memory: deeper pipelines for tiled kernels;
//  - no team set-up per block (Kokkos's scratch cursors, its reduction buffers).
// Kernels with reduction arguments, and groups whose local memory exceeds shared memory,
// keep the Kokkos team launch (level-1 scratch, Kokkos's reduction).
//
// KAPI_CUDA_GROUP_LAUNCH (default 1) chooses it; -DKAPI_CUDA_GROUP_LAUNCH=0 launches every
// work-group kernel through Kokkos teams (to measure one against the other).
#include <kapi/config.hpp>

#ifndef KAPI_CUDA_GROUP_LAUNCH
#define KAPI_CUDA_GROUP_LAUNCH 1
#endif

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__) && KAPI_CUDA_GROUP_LAUNCH
#define KAPI_HAS_CUDA_GROUP_LAUNCH 1
#include <cstddef>
#include <type_traits>

#include <kapi/detail/group_handle.hpp>
#include <kapi/detail/kernel_names.hpp>
#include <kapi/detail/launch_plan.hpp>
#include <kapi/cuda/detail/launch_support.hpp>

namespace kapi::detail {

/// The groups of one block, league-stride; a block's groups that share its local memory
/// are separated by a block barrier (the next group's first writes wait for the last
/// reads of the one before). The group loop counts in 32 bits (a launch has fewer than
/// 2^31 groups, validate_group_count): with a 64-bit counter nvcc kept the group's ids in
/// 64-bit arithmetic and rematerialised them inside the kernel's loops, which cost
/// instructions and time in every nd-range kernel with inner loops.
template <class Body, bool Phased>
__device__ void cuda_run_groups(const Body& body, unsigned groups, char* local_memory) {
  const unsigned me = threadIdx.y, stride = gridDim.x;
  for (unsigned group = blockIdx.x; group < groups; group += stride) {
    if constexpr (Phased)
      body.run_group(group, me, local_memory, GroupHandle{});
    else
      body.run_item(group, me, local_memory, GroupHandle{});
    if (Body::has_local_memory && group + stride < groups) __syncthreads();
  }
}

// Dynamic shared memory starts aligned to scratch_alignment (16), as LocalAccessor
// placement (kernel_args.hpp) expects.
#define KAPI_CUDA_GROUP_KERNEL_BODY                              \
  extern __shared__ __align__(16) char kapi_cuda_group_memory[]; \
  cuda_run_groups<Body, Phased>(body, groups, Body::has_local_memory ? kapi_cuda_group_memory : nullptr);

template <class Body, bool Phased>
__global__ void cuda_groups(const Body body, const unsigned groups) {
  KAPI_CUDA_GROUP_KERNEL_BODY
}

/// With the kernel's kapi::LaunchBounds (launch_bounds.hpp).
template <class Body, bool Phased, unsigned MaxItems, unsigned MinGroups>
__global__ void __launch_bounds__(MaxItems, MinGroups) cuda_groups_bounded(const Body body, const unsigned groups) {
  KAPI_CUDA_GROUP_KERNEL_BODY
}
#undef KAPI_CUDA_GROUP_KERNEL_BODY

/// What the compiled kernel allows, read once per kernel: threads per block (its
/// registers), its static shared memory, and the device's shared memory per block with
/// the opt-in, which the kernel is then allowed to use.
struct CudaGroupKernelLimits {
  std::size_t max_items = 0, static_bytes = 0, shared_bytes = 0;
};

template <class Kernel>
CudaGroupKernelLimits cuda_group_kernel_limits(Kernel kernel, int device) {
  cudaFuncAttributes attributes{};
  int optin = 0;
  if (cudaFuncGetAttributes(&attributes, kernel) != cudaSuccess ||
      cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) != cudaSuccess)
    check_cuda_launch("a work-group kernel (reading its attributes)");
  CudaGroupKernelLimits limits;
  limits.max_items = static_cast<std::size_t>(attributes.maxThreadsPerBlock);
  limits.static_bytes = attributes.sharedSizeBytes;
  limits.shared_bytes = static_cast<std::size_t>(optin);
  const int dynamic = optin - static_cast<int>(attributes.sharedSizeBytes);
  if (dynamic > 0 && cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, dynamic) != cudaSuccess)
    check_cuda_launch("a work-group kernel (opting in to its shared memory)");
  return limits;
}

/// Launches the plan's groups directly when its local memory fits the block's shared
/// memory; false (nothing launched) otherwise, for the Kokkos team launch.
template <class Plan>
bool cuda_launch_groups(const Kokkos::Cuda& space, const Plan& plan, std::size_t blocks) {
  static_assert(!Plan::reduces, "kernels with reduction arguments take the Kokkos team launch");
  using Body = std::decay_t<decltype(plan.body)>;
  using Bounds = typename Plan::Bounds;
  const auto kernel = [] {
    if constexpr (Bounds::max_work_items == 0)
      return &cuda_groups<Body, Plan::phased>;
    else
      return &cuda_groups_bounded<Body, Plan::phased, Bounds::max_work_items, Bounds::min_groups_per_unit>;
  }();
  static const CudaGroupKernelLimits limits = cuda_group_kernel_limits(kernel, space.cuda_device());
  const std::size_t local_bytes = plan.body.layout.total;
  if (limits.static_bytes + local_bytes > limits.shared_bytes) return false;
  validate_group_size(plan.group_size, limits.max_items, space_name<Kokkos::Cuda>(), " for this kernel's register use");
  const ToolsParallelFor region(plan.label, space);
  KAPI_CUDA_ENSURE_LOCK_ARRAYS();  // here, next to the launch (launch_support.hpp)
  kernel<<<dim3(static_cast<unsigned>(blocks)), dim3(1, static_cast<unsigned>(plan.group_size)), local_bytes,
           space.cuda_stream()>>>(plan.body, static_cast<unsigned>(plan.groups));
  check_cuda_launch("a work-group kernel");
  return true;
}

}  // namespace kapi::detail
#else
#define KAPI_HAS_CUDA_GROUP_LAUNCH 0
#endif
