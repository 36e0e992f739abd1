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
// Groups of a 2-d or 3-d kernel without local memory (a streaming kernel, whose work-item
// does little more than compute its ids) run on a grid of groups instead: the grid's x
// dimension is the last dimension's groups, y the middle one's, and each block walks runs
// of cuda_group_planes consecutive groups along dimension 0, issued together, as the range
// launch's planes-4-unrolled shape does (range_launch.hpp). A thread then splits no group
// id, and only the first dimension's id changes from one group to the next.
//
// KAPI_CUDA_GROUP_LAUNCH (default 1) chooses it; -DKAPI_CUDA_GROUP_LAUNCH=0 launches every
// work-group kernel through Kokkos teams (to measure one against the other).
#include <kapi/config.hpp>

#ifndef KAPI_CUDA_GROUP_LAUNCH
#define KAPI_CUDA_GROUP_LAUNCH 1
#endif
// KAPI_CUDA_GROUP_GRID (default 1) runs 2-d and 3-d kernels without local memory on a grid
// of groups; 0 runs them league-stride, as every other work-group kernel.
#ifndef KAPI_CUDA_GROUP_GRID
#define KAPI_CUDA_GROUP_GRID 1
#endif

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__) && KAPI_CUDA_GROUP_LAUNCH
#define KAPI_HAS_CUDA_GROUP_LAUNCH 1
#include <algorithm>
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

inline constexpr unsigned cuda_group_planes = 4;

/// The block's groups on a grid of groups (N = 2 or 3, no local memory): blockIdx.x is
/// the group's id in the last dimension; for N = 3, blockIdx.y (stepping by the grid's y)
/// the middle one; the grid's last dimension steps runs of cuda_group_planes groups along
/// dimension 0. Every loop bound is the same for the block's threads, so a kernel's
/// barriers and group algorithms see every work-item.
template <class Body, bool Phased>
__device__ void cuda_run_group_grid(const Body& body, const unsigned first_groups, const unsigned middle_groups) {
  constexpr int N = Body::dimensions;
  static_assert(N == 2 || N == 3, "a grid of groups has 2 or 3 dimensions");
  const unsigned me = threadIdx.y;
  const unsigned run = N == 3 ? blockIdx.z : blockIdx.y, runs = N == 3 ? gridDim.z : gridDim.y;
  const unsigned middle_start = N == 3 ? blockIdx.y : 0, middle_stride = N == 3 ? gridDim.y : 1;
  std::size_t id[N];
  id[N - 1] = blockIdx.x;
  for (unsigned first = run * cuda_group_planes; first < first_groups; first += runs * cuda_group_planes)
    for (unsigned middle = middle_start; middle < middle_groups; middle += middle_stride) {
      if constexpr (N == 3) id[1] = middle;
#pragma unroll
      for (unsigned p = 0; p < cuda_group_planes; ++p)
        if (first + p < first_groups) {
          id[0] = first + p;
          if constexpr (Phased)
            body.run_group_of(id, me, nullptr, GroupHandle{});
          else
            body.run_item_of(id, me, nullptr, GroupHandle{});
        }
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

template <class Body, bool Phased>
__global__ void cuda_group_grid(const Body body, const unsigned first_groups, const unsigned middle_groups) {
  cuda_run_group_grid<Body, Phased>(body, first_groups, middle_groups);
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

template <class Body, bool Phased, unsigned MaxItems, unsigned MinGroups>
__global__ void __launch_bounds__(MaxItems, MinGroups)
    cuda_group_grid_bounded(const Body body, const unsigned first_groups, const unsigned middle_groups) {
  cuda_run_group_grid<Body, Phased>(body, first_groups, middle_groups);
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
  constexpr int N = Body::dimensions;
  constexpr bool on_grid = KAPI_CUDA_GROUP_GRID && !Captured && !Body::has_local_memory && (N == 2 || N == 3);
  const auto kernel = [] {
    if constexpr (on_grid && Bounds::max_work_items == 0)
      return &cuda_group_grid<Body, Plan::phased>;
    else if constexpr (on_grid)
      return &cuda_group_grid_bounded<Body, Plan::phased, Bounds::max_work_items, Bounds::min_groups_per_unit>;
    else if constexpr (Captured && Bounds::max_work_items == 0)
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
  const dim3 block(1, static_cast<unsigned>(plan.group_size));
  if constexpr (on_grid) {
    // (Every group count is below 2^31: validate_group_count.)
    const std::size_t(&g)[N] = plan.body.group_range.extent;
    const auto runs = static_cast<unsigned>(
        std::min<std::size_t>((g[0] + cuda_group_planes - 1) / cuda_group_planes, std::size_t(cuda_max_grid_yz)));
    const auto last = static_cast<unsigned>(g[N - 1]);
    if (plan.groups) {
      if constexpr (N == 3) {
        const auto middle = static_cast<unsigned>(std::min<std::size_t>(g[1], std::size_t(cuda_max_grid_yz)));
        kernel<<<dim3(last, middle, runs), block, 0, space.cuda_stream()>>>(plan.body, static_cast<unsigned>(g[0]),
                                                                            static_cast<unsigned>(g[1]));
      } else {
        kernel<<<dim3(last, runs), block, 0, space.cuda_stream()>>>(plan.body, static_cast<unsigned>(g[0]), 1u);
      }
    }
    (void)blocks;
  } else if constexpr (Captured) {
    const dim3 grid(static_cast<unsigned>(blocks));
    kernel<<<grid, block, local_bytes, space.cuda_stream()>>>(plan.body, plan.captured,
                                                              static_cast<unsigned>(plan.groups));
  } else {
    const dim3 grid(static_cast<unsigned>(blocks));
    kernel<<<grid, block, local_bytes, space.cuda_stream()>>>(plan.body, static_cast<unsigned>(plan.groups));
  }
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
