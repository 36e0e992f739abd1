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
template <class Body, bool Phased, bool HasLocalMemory>
__device__ void cuda_run_groups(const Body& body, unsigned groups, char* local_memory) {
  const unsigned me = threadIdx.y, stride = gridDim.x;
  for (unsigned group = blockIdx.x; group < groups; group += stride) {
    if constexpr (Phased)
      body.run_group(group, me, local_memory, GroupHandle{});
    else
      body.run_item(group, me, local_memory, GroupHandle{});
    if (HasLocalMemory && group + stride < groups) __syncthreads();
  }
}

/// The block's groups; a kernel that captured LocalAccessors (Captured) runs a copy of the
/// body whose kernel points them at the block's dynamic shared memory.
template <class Body, bool Phased, bool Captured>
__device__ void cuda_run_block(const Body& body, const CapturedLocalsIf<Captured>& captured, unsigned groups) {
  // Dynamic shared memory starts aligned to scratch_alignment (16), as LocalAccessor
  // placement (kernel_args.hpp) expects.
  extern __shared__ __align__(16) char kapi_cuda_group_memory[];
  if constexpr (Captured) {
    Body bound = body;
    bound.bind_captured(captured, kapi_cuda_group_memory);
    cuda_run_groups<Body, Phased, true>(bound, groups, kapi_cuda_group_memory);
  } else {
    (void)captured;
    cuda_run_groups<Body, Phased, Body::has_local_memory>(body, groups,
                                                          Body::has_local_memory ? kapi_cuda_group_memory : nullptr);
  }
}

// Only the Captured form takes the captures (the other's parameters stay as they were).
template <class Body, bool Phased>
__global__ void cuda_groups(const Body body, const unsigned groups) {
  cuda_run_block<Body, Phased, false>(body, NoCapturedLocals{}, groups);
}
template <class Body, bool Phased>
__global__ void cuda_groups_captured(const Body body, const CapturedLocals captured, const unsigned groups) {
  cuda_run_block<Body, Phased, true>(body, captured, groups);
}

/// With the kernel's kapi::LaunchBounds (launch_bounds.hpp).
template <class Body, bool Phased, unsigned MaxItems, unsigned MinGroups>
__global__ void __launch_bounds__(MaxItems, MinGroups) cuda_groups_bounded(const Body body, const unsigned groups) {
  cuda_run_block<Body, Phased, false>(body, NoCapturedLocals{}, groups);
}
template <class Body, bool Phased, unsigned MaxItems, unsigned MinGroups>
__global__ void __launch_bounds__(MaxItems, MinGroups)
    cuda_groups_captured_bounded(const Body body, const CapturedLocals captured, const unsigned groups) {
  cuda_run_block<Body, Phased, true>(body, captured, groups);
}

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
template <bool Captured, class Plan>
bool cuda_launch_groups_as(const Kokkos::Cuda& space, const Plan& plan, std::size_t blocks) {
  static_assert(!Plan::reduces, "kernels with reduction arguments take the Kokkos team launch");
  using Body = std::decay_t<decltype(plan.body)>;
  using Bounds = typename Plan::Bounds;
  const auto kernel = [] {
    if constexpr (Captured && Bounds::max_work_items == 0)
      return &cuda_groups_captured<Body, Plan::phased>;
    else if constexpr (Captured)
      return &cuda_groups_captured_bounded<Body, Plan::phased, Bounds::max_work_items, Bounds::min_groups_per_unit>;
    else if constexpr (Bounds::max_work_items == 0)
      return &cuda_groups<Body, Plan::phased>;
    else
      return &cuda_groups_bounded<Body, Plan::phased, Bounds::max_work_items, Bounds::min_groups_per_unit>;
  }();
  static const CudaGroupKernelLimits limits = cuda_group_kernel_limits(kernel, space.cuda_device());
  const std::size_t local_bytes = plan.body.layout.total;
  if (limits.static_bytes + local_bytes > limits.shared_bytes) return false;
  validate_group_size(plan.group_size, limits.max_items, Kokkos::Cuda::name(), " for this kernel's register use");
  const ToolsParallelFor region(plan.label, space);
  KAPI_CUDA_ENSURE_LOCK_ARRAYS();  // here, next to the launch (launch_support.hpp)
  const dim3 grid(static_cast<unsigned>(blocks)), block(1, static_cast<unsigned>(plan.group_size));
  if constexpr (Captured)
    kernel<<<grid, block, local_bytes, space.cuda_stream()>>>(plan.body, plan.captured,
                                                              static_cast<unsigned>(plan.groups));
  else
    kernel<<<grid, block, local_bytes, space.cuda_stream()>>>(plan.body, static_cast<unsigned>(plan.groups));
  check_cuda_launch("a work-group kernel");
  return true;
}

/// A kernel that captured LocalAccessors runs a second compiled form, which binds them.
template <class Plan>
bool cuda_launch_groups(const Kokkos::Cuda& space, const Plan& plan, std::size_t blocks) {
  if constexpr (Plan::may_capture)
    if (plan.captured.count) return cuda_launch_groups_as<true>(space, plan, blocks);
  return cuda_launch_groups_as<false>(space, plan, blocks);
}

}  // namespace kapi::detail
#else
#define KAPI_HAS_CUDA_GROUP_LAUNCH 0
#endif
