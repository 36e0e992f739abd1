// SPDX-License-Identifier: Apache-2.0
#pragma once
// Range kernels on CUDA, launched directly on the execution space's stream.
// Kokkos 3.4's RangePolicy and MDRangePolicy launches reach a fraction of HBM bandwidth
// on Hopper (MDRange tiling by block loops); a range kernel needs no team machinery.
// The grid's x dimension runs along the contiguous (last) dimension, and its threads
// stride over the rest, about cuda_range_items_per_thread work-items each, in between
// cuda_range_min_waves and cuda_range_max_waves times the blocks the device runs at once:
// a block per few work-items would spend more time being scheduled than storing (a
// work-item of a streaming kernel moves a few bytes), and a few long-lived blocks per SM
// leave SMs idle while the last ones finish; a few work-items per thread beat one.
// A 3-d range has more than one good shape, and which one wins depends on the GPU and the
// kernel: its shape is tuned per kernel and extent (launch_shapes.hpp, range_shapes.hpp).
//
// KAPI_CUDA_RANGE_LAUNCH (default 1) chooses it; -DKAPI_CUDA_RANGE_LAUNCH=0 launches range
// kernels through Kokkos's policies instead. It stays on for every Kokkos version until a
// newer Kokkos's policies are measured on Hopper against it (bench_init3d's kapi-range and
// raw-kokkos variants, bench_launch): 4.6's CUDA RangePolicy launch has 3.4's shape.
#include <kapi/config.hpp>

#ifndef KAPI_CUDA_RANGE_LAUNCH
#define KAPI_CUDA_RANGE_LAUNCH 1
#endif

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__) && KAPI_CUDA_RANGE_LAUNCH
#define KAPI_HAS_CUDA_RANGE_LAUNCH 1
#include <algorithm>
#include <cstdint>
#include <string>

#include <kapi/cuda/detail/launch_support.hpp>
#include <kapi/cuda/detail/range_shapes.hpp>
#include <kapi/detail/launch_shape_setting.hpp>
#include <kapi/integer_math.hpp>

namespace kapi::detail {

inline constexpr unsigned cuda_range_block_x = 32, cuda_range_block_y = 8;
inline constexpr unsigned cuda_range_block_1d = 256;
inline constexpr std::int64_t cuda_range_items_per_thread = 4, cuda_range_min_waves = 8, cuda_range_max_waves = 128;

/// A grid dimension of n blocks, at least 1 and at most hi.
inline unsigned cuda_grid_extent(std::int64_t n, std::int64_t hi) { return unsigned(n < 1 ? 1 : n < hi ? n : hi); }

/// Blocks for a range launch whose grid, at one work-item per thread, has `full` blocks.
inline std::int64_t cuda_range_grid_blocks(std::int64_t full, const Kokkos::Cuda& space) {
  const std::int64_t wave = cuda_blocks_per_wave(space, 256);
  return std::clamp(full / cuda_range_items_per_thread, cuda_range_min_waves * wave, cuda_range_max_waves * wave);
}

template <class Functor>
__global__ void __launch_bounds__(256) cuda_range_1d(const Functor f, const std::int64_t n) {
  for (std::int64_t i = std::int64_t(blockIdx.x) * cuda_range_block_1d + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * cuda_range_block_1d)
    f(i);
}

// Dimension 1 along x (contiguous); dimension 0 along y with a grid-stride loop where
// it exceeds the grid's y limit.
template <class Functor>
__global__ void __launch_bounds__(256) cuda_range_2d(const Functor f, const std::int64_t n0, const std::int64_t n1) {
  const std::int64_t j = std::int64_t(blockIdx.x) * cuda_range_block_x + threadIdx.x;
  if (j >= n1) return;
  for (std::int64_t i = std::int64_t(blockIdx.y) * cuda_range_block_y + threadIdx.y; i < n0;
       i += std::int64_t(gridDim.y) * cuda_range_block_y)
    f(i, j);
}

// Dimension 2 along x, dimension 1 along y (a grid-stride loop where it exceeds the grid's
// y limit); over dimension 0 the grid's z dimension strides (Planes 1: the strided
// shapes), or each block walks Planes consecutive planes, then strides by the grid's runs
// of them: in order, or Unrolled, the Planes work-items of a thread issued together.
template <class Functor, int Planes, bool Unrolled>
__global__ void __launch_bounds__(256)
    cuda_range_3d(const Functor f, const std::int64_t n0, const std::int64_t n1, const std::int64_t n2) {
  const std::int64_t k = std::int64_t(blockIdx.x) * cuda_range_block_x + threadIdx.x;
  if (k >= n2) return;
  const std::int64_t j0 = std::int64_t(blockIdx.y) * cuda_range_block_y + threadIdx.y,
                     j_stride = std::int64_t(gridDim.y) * cuda_range_block_y;
  if constexpr (Planes == 1) {
    for (std::int64_t i = blockIdx.z; i < n0; i += gridDim.z)
      for (std::int64_t j = j0; j < n1; j += j_stride) f(i, j, k);
  } else if constexpr (Unrolled) {
    for (std::int64_t first = std::int64_t(blockIdx.z) * Planes; first < n0; first += std::int64_t(gridDim.z) * Planes)
      for (std::int64_t j = j0; j < n1; j += j_stride) {
#pragma unroll
        for (int p = 0; p < Planes; ++p)
          if (first + p < n0) f(first + p, j, k);
      }
  } else {
    for (std::int64_t first = std::int64_t(blockIdx.z) * Planes; first < n0; first += std::int64_t(gridDim.z) * Planes)
      for (std::int64_t i = first, end = first + Planes < n0 ? first + Planes : n0; i < end; ++i)
        for (std::int64_t j = j0; j < n1; j += j_stride) f(i, j, k);
  }
}

inline constexpr int cuda_range_planes = 4;  // the planes-4 shape

struct CudaRange3dShape {
  dim3 grid;
  int planes;     // consecutive planes per block run, 1: the strided kernel
  bool unrolled;  // the planes' work-items issued together
};

/// The grid of candidate `shape` (cuda_range_shape_names) for a 3-d range.
inline CudaRange3dShape cuda_range_3d_shape(int shape, std::int64_t n0, std::int64_t n1, std::int64_t n2,
                                            const Kokkos::Cuda& space) {
  const std::int64_t gx = kapi::ceil_div(n2, std::int64_t(cuda_range_block_x));
  const unsigned gy = cuda_grid_extent(kapi::ceil_div(n1, std::int64_t(cuda_range_block_y)), cuda_max_grid_yz);
  if (shape == cuda_range_planes_4 || shape == cuda_range_planes_4_unrolled)
    return {
        dim3(unsigned(gx), gy, cuda_grid_extent(kapi::ceil_div(n0, std::int64_t(cuda_range_planes)), cuda_max_grid_yz)),
        cuda_range_planes, shape == cuda_range_planes_4_unrolled};
  const std::int64_t grid_blocks = cuda_range_grid_blocks(gx * gy * n0, space);
  const std::int64_t gz = std::min(cuda_max_grid_yz, kapi::ceil_div(grid_blocks, gx * gy));
  return {dim3(unsigned(gx), gy,
               cuda_grid_extent(shape == cuda_range_strided_few ? kapi::ceil_div(gz, std::int64_t(4)) : gz, n0)),
          1, false};
}

template <class Functor, int N>
void cuda_launch_range(const Kokkos::Cuda& space, const std::string& label, const Functor& f,
                       const std::size_t (&extent)[N]) {
  KAPI_CUDA_ENSURE_LOCK_ARRAYS();
  auto blocks = [](std::int64_t n, std::int64_t per) { return kapi::ceil_div(n, per); };
  cudaStream_t stream = space.cuda_stream();
  if constexpr (N == 1) {
    const auto n = std::int64_t(extent[0]);
    const std::int64_t full = blocks(n, cuda_range_block_1d);
    cuda_range_1d<<<dim3(cuda_grid_extent(full, cuda_range_grid_blocks(full, space))), dim3(cuda_range_block_1d), 0,
                    stream>>>(f, n);
  } else if constexpr (N == 2) {
    const auto n0 = std::int64_t(extent[0]), n1 = std::int64_t(extent[1]);
    const std::int64_t gx = blocks(n1, cuda_range_block_x), full_y = blocks(n0, cuda_range_block_y);
    const std::int64_t grid_blocks = cuda_range_grid_blocks(gx * full_y, space);
    const dim3 grid(unsigned(gx), cuda_grid_extent(full_y, std::min(cuda_max_grid_yz, blocks(grid_blocks, gx))));
    cuda_range_2d<<<grid, dim3(cuda_range_block_x, cuda_range_block_y), 0, stream>>>(f, n0, n1);
  } else {
    const std::int64_t n[3] = {std::int64_t(extent[0]), std::int64_t(extent[1]), std::int64_t(extent[2])};
    // The tuning is keyed by the strided kernel: one per functor.
    const auto strided = &cuda_range_3d<Functor, 1, false>;
    const CudaRangeTrial trial =
        cuda_range_trial(reinterpret_cast<const void*>(strided), label, n, space.cuda_device());
    const CudaRange3dShape shape = cuda_range_3d_shape(trial.shape, n[0], n[1], n[2], space);
    const auto kernel = shape.planes == 1 ? strided
                        : shape.unrolled  ? &cuda_range_3d<Functor, cuda_range_planes, true>
                                          : &cuda_range_3d<Functor, cuda_range_planes, false>;
    if (trial.start) check_cuda(cudaEventRecord(trial.start, stream), "timing a range kernel's launch shape");
    kernel<<<shape.grid, dim3(cuda_range_block_x, cuda_range_block_y), 0, stream>>>(f, n[0], n[1], n[2]);
    // A failed launch records no stop: the tuner drops that trial.
    if (trial.stop && cudaPeekAtLastError() == cudaSuccess)
      check_cuda(cudaEventRecord(trial.stop, stream), "timing a range kernel's launch shape");
  }
  check_cuda_launch("a range kernel");
}

}  // namespace kapi::detail
#else
#define KAPI_HAS_CUDA_RANGE_LAUNCH 0
#endif
