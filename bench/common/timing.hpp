// SPDX-License-Identifier: Apache-2.0
#pragma once
// How one run of an operation is timed on each execution space.
//
// Host spaces: wall clock (std::chrono::steady_clock) around the call and a fence of the
// execution space, so asynchronous launches are finished before the clock stops; the
// benchmarks use Google Benchmark's real time (UseRealTime), never CPU time, which
// would count one thread only.
//
// CUDA: two cudaEvents recorded on the execution space's stream around the call, their
// elapsed time read after the stop event completed (manual time). Events measure the
// GPU's own timeline: no host launch latency or fence round trip at either end.
#include <Kokkos_Core.hpp>
#include <chrono>
#include <kapi/space_traits.hpp>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace kapi_bench {

template <class Space>
inline constexpr bool is_cuda_space = kapi::space_traits<Space>::is_cuda;

/// Wall-clock timer: host spaces, any space without an event timer, and latencies.
template <class Space>
class WallTimer {
 public:
  static constexpr bool manual_time = false;
  static const char* method() {
    return "wall clock (steady_clock) around the call + execution-space fence; Google Benchmark real time";
  }
  template <class Op>
  double operator()(const Space& space, Op&& op) {
    const auto t0 = std::chrono::steady_clock::now();
    op();
    space.fence();
    const auto t1 = std::chrono::steady_clock::now();
    return std::chrono::duration<double>(t1 - t0).count();
  }
};

#if defined(KOKKOS_ENABLE_CUDA)
inline void cuda_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

/// CUDA events on the space's stream (manual time).
template <class Space>
class CudaEventTimer {
 public:
  static constexpr bool manual_time = true;
  static const char* method() {
    return "cudaEvent pair on the execution space's stream around the call; Google Benchmark manual time";
  }
  CudaEventTimer() {
    cuda_check(cudaEventCreate(&start_), "cudaEventCreate");
    cuda_check(cudaEventCreate(&stop_), "cudaEventCreate");
  }
  CudaEventTimer(const CudaEventTimer&) = delete;
  CudaEventTimer& operator=(const CudaEventTimer&) = delete;
  ~CudaEventTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  template <class Op>
  double operator()(const Space& space, Op&& op) {
    cuda_check(cudaEventRecord(start_, space.cuda_stream()), "cudaEventRecord");
    op();
    cuda_check(cudaEventRecord(stop_, space.cuda_stream()), "cudaEventRecord");
    cuda_check(cudaEventSynchronize(stop_), "cudaEventSynchronize");
    space.fence();  // work on other streams of the space (none expected) is finished too
    float ms = 0;
    cuda_check(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
    return 1e-3 * static_cast<double>(ms);
  }

 private:
  cudaEvent_t start_{}, stop_{};
};
#endif

/// The timer of an execution space's benchmarks.
template <class Space, class Enable = void>
struct RunTimerOf {
  using type = WallTimer<Space>;
};
#if defined(KOKKOS_ENABLE_CUDA)
template <class Space>
struct RunTimerOf<Space, std::enable_if_t<is_cuda_space<Space>>> {
  using type = CudaEventTimer<Space>;
};
#endif
template <class Space>
using RunTimer = typename RunTimerOf<Space>::type;

}  // namespace kapi_bench
