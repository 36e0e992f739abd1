// SPDX-License-Identifier: Apache-2.0
#pragma once
// Range kernels with reduction arguments on CUDA (one dimension), launched directly on the
// execution space's stream instead of through Kokkos' parallel_reduce, whose RangePolicy
// launch in Kokkos 3.4 reads memory well below what a plain grid-stride loop reaches.
//
// A few waves of blocks stride over the range, each thread combining its work-items into
// its own partials; a block combines its threads' partials in local memory and writes
// them out; the block that finishes last (a counter) combines the blocks' partials and
// calls the reduction's final hook, which stores the results in the variables. Every
// combination happens in a fixed order, so a launch gives the same bits every time.
//
// The blocks' partials and the counter live in scratch kept per stream (launches on one
// stream run in order and share it; the last block of each launch resets the counter).
// Partials that local memory cannot hold for a whole block, or that are not plain bytes,
// go through Kokkos' parallel_reduce as before (cuda_range_reduce_fits).
#include <kapi/config.hpp>
#include <kapi/cuda/detail/range_launch.hpp>  // KAPI_CUDA_RANGE_LAUNCH

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__) && KAPI_CUDA_RANGE_LAUNCH
#define KAPI_HAS_CUDA_RANGE_REDUCE 1
#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <type_traits>

#include <kapi/cuda/detail/launch_support.hpp>
#include <kapi/integer_math.hpp>

namespace kapi::detail {

inline constexpr unsigned cuda_reduce_block = 256;
// Blocks: enough for about cuda_reduce_items_per_thread work-items per thread, at most
// cuda_reduce_waves times what the device holds at once (fewer blocks leave fewer partials
// for the last block; a thread with several work-items has several loads in flight).
inline constexpr std::int64_t cuda_reduce_items_per_thread = 4, cuda_reduce_waves = 2;

/// Whether partials of type V take kapi's own reduction launch.
template <class V>
inline constexpr bool cuda_range_reduce_fits = std::is_trivially_copyable_v<V> && sizeof(V) % 4 == 0 &&
                                               sizeof(V) * cuda_reduce_block <= 32 * 1024;

/// Combines the block's threads' partials v into shared[0] (tree order, fixed).
template <class Functor, class V>
__device__ void cuda_block_combine(const Functor& f, V* shared, const V& v) {
  const unsigned t = threadIdx.x;
  shared[t] = v;
  __syncthreads();
  for (unsigned half = cuda_reduce_block / 2; half > 0; half /= 2) {
    if (t < half) f.join(shared[t], shared[t + half]);
    __syncthreads();
  }
}

/// Reads a partial another block wrote, from L2 (this SM's L1 may hold an older copy).
template <class V>
__device__ V cuda_load_partial(const V* p) {
  V v;
  const auto* words = reinterpret_cast<const unsigned*>(p);
  auto* out = reinterpret_cast<unsigned*>(&v);
  for (std::size_t w = 0; w < sizeof(V) / 4; ++w) out[w] = __ldcg(words + w);
  return v;
}

template <class Functor>
__global__ void __launch_bounds__(cuda_reduce_block)
    cuda_range_reduce_1d(const Functor f, const std::int64_t n, typename Functor::value_type* partials,
                         unsigned* arrivals) {
  using V = typename Functor::value_type;
  __shared__ alignas(V) unsigned char storage[cuda_reduce_block * sizeof(V)];
  __shared__ bool last;
  V* const shared = reinterpret_cast<V*>(storage);
  V v;
  f.init(v);
  const std::int64_t stride = std::int64_t(gridDim.x) * cuda_reduce_block;
#pragma unroll 4
  for (std::int64_t i = std::int64_t(blockIdx.x) * cuda_reduce_block + threadIdx.x; i < n; i += stride) f(i, v);
  cuda_block_combine(f, shared, v);
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = shared[0];
    __threadfence();  // the partial is visible before the count says so
    last = atomicAdd(arrivals, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  V w;
  f.init(w);
  for (unsigned b = threadIdx.x; b < gridDim.x; b += cuda_reduce_block) f.join(w, cuda_load_partial(partials + b));
  cuda_block_combine(f, shared, w);
  if (threadIdx.x == 0) {
    V total = shared[0];
    f.final(total);
    *arrivals = 0;  // ready for the stream's next launch
  }
}

/// The reduction scratch of each stream: a counter, then the blocks' partials. Grown (after
/// the stream's earlier launches finish) when a launch needs more; freed at
/// Kokkos::finalize. `launch(partials, arrivals)` runs with the scratch held, so that no
/// other thread grows it between the launch's choice of buffer and its submission.
template <class Launch>
void with_cuda_reduce_scratch(cudaStream_t stream, std::size_t partial_bytes, const Launch& launch) {
  struct Scratch {
    void* memory = nullptr;
    std::size_t bytes = 0;
  };
  static std::mutex mutex;
  static std::map<cudaStream_t, Scratch> scratch;
  constexpr std::size_t counter_bytes = 256;  // keeps the partials 256-byte aligned
  const std::lock_guard<std::mutex> lock(mutex);
  if (scratch.empty())
    Kokkos::push_finalize_hook([] {
      const std::lock_guard<std::mutex> hook_lock(mutex);
      for (auto& s : scratch) cudaFree(s.second.memory);
      scratch.clear();
    });
  Scratch& s = scratch[stream];
  const std::size_t need = counter_bytes + partial_bytes;
  if (s.bytes < need) {
    const std::string what = "a range kernel's reduction scratch: ";
    if (s.memory) {
      check_cuda(cudaStreamSynchronize(stream), what + "waiting for the stream");
      check_cuda(cudaFree(s.memory), what + "cudaFree");
      s = Scratch{};
    }
    const std::size_t bytes = std::max<std::size_t>(need, 64 * 1024);
    check_cuda(cudaMalloc(&s.memory, bytes), what + "cudaMalloc");
    s.bytes = bytes;
    check_cuda(cudaMemsetAsync(s.memory, 0, counter_bytes, stream), what + "clearing the counter");
  }
  auto* base = static_cast<unsigned char*>(s.memory);
  launch(static_cast<void*>(base + counter_bytes), reinterpret_cast<unsigned*>(base));
}

/// Runs the reduction functor f (value_type, init, join, final, operator()(i, partials))
/// over [0, n) on the space's stream; asynchronous.
template <class Functor>
void cuda_launch_range_reduce(const Kokkos::Cuda& space, const Functor& f, std::int64_t n) {
  using V = typename Functor::value_type;
  static_assert(cuda_range_reduce_fits<V>, "kapi: partials too large for one block's local memory");
  KAPI_CUDA_ENSURE_LOCK_ARRAYS();
  const std::int64_t wave = cuda_blocks_per_wave(space, cuda_reduce_block);
  const auto blocks = unsigned(std::clamp<std::int64_t>(
      kapi::ceil_div(n, cuda_reduce_items_per_thread * cuda_reduce_block), 1, cuda_reduce_waves * wave));
  cudaStream_t stream = space.cuda_stream();
  with_cuda_reduce_scratch(stream, blocks * sizeof(V), [&](void* partials, unsigned* arrivals) {
    cuda_range_reduce_1d<<<blocks, cuda_reduce_block, 0, stream>>>(f, n, static_cast<V*>(partials), arrivals);
    check_cuda_launch("a range kernel with reductions");
  });
}

}  // namespace kapi::detail
#else
#define KAPI_HAS_CUDA_RANGE_REDUCE 0
#endif
