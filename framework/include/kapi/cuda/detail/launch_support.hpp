// SPDX-License-Identifier: Apache-2.0
#pragma once
// What kapi's own CUDA launches (range_launch.hpp, range_reduce.hpp, group_launch.hpp)
// share: the error checks, the size of a wave of blocks and the lock arrays' copy.
#include <kapi/config.hpp>

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
#include <algorithm>
#include <cstdint>
#include <string>

#include <kapi/errors.hpp>

namespace kapi::detail {

inline void check_cuda_launch(const char* what) {
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) throw launch_error(std::string(what) + " failed to launch on CUDA: " + cudaGetErrorString(e));
}

/// Throws launch_error naming `what` when a CUDA call returned an error.
inline void check_cuda(cudaError_t e, const std::string& what) {
  if (e != cudaSuccess) throw launch_error(what + " failed: " + cudaGetErrorString(e));
}

/// A grid's y and z dimensions hold at most this many blocks (x: 2^31 - 1).
inline constexpr std::int64_t cuda_max_grid_yz = 65535;

/// Blocks of `threads` threads the device holds at once (one wave), at least 1.
inline std::int64_t cuda_blocks_per_wave(const Kokkos::Cuda& space, unsigned threads) {
  return std::max<std::int64_t>(1, std::int64_t(space.concurrency()) / threads);
}

}  // namespace kapi::detail

// Lock-based atomics (types wider than 8 bytes; on desul, whatever it has no native form
// for) read lock arrays whose device address each translation unit holds a copy of,
// unless built with relocatable device code. Kokkos copies it before each of its own
// launches; kapi's launches must too, or a kernel's first such atomic reads a null lock
// array where no Kokkos launch of the same unit ran before (illegal memory accesses in
// most CUDA tests against a Kokkos 5.0-line snapshot). A macro, used in the function that
// launches: the copy must name the same unit's symbol as the launch.
#if KOKKOS_VERSION >= 40100 || defined(KOKKOS_ENABLE_IMPL_DESUL_ATOMICS)
#define KAPI_CUDA_ENSURE_LOCK_ARRAYS() desul::ensure_cuda_lock_arrays_on_device()
#else
#define KAPI_CUDA_ENSURE_LOCK_ARRAYS()                                                 \
  do {                                                                                 \
    using Kokkos::Impl::lock_array_copied; /* Kokkos 3's macro names it unqualified */ \
    KOKKOS_ENSURE_CUDA_LOCK_ARRAYS_ON_DEVICE();                                        \
  } while (false)
#endif

#endif  // KOKKOS_ENABLE_CUDA && __CUDACC__
