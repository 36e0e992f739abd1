// SPDX-License-Identifier: Apache-2.0
#pragma once
// kapi::async_copy on CUDA sm_80 and later (async_copy.hpp forwards here in that device
// pass): cp.async, 16 bytes bypassing L1 (.cg), 4 and 8 bytes through it (.ca); a batch is
// a cp.async group; an invalid copy reads nothing and writes zeros (src-size 0).
#include <kapi/config.hpp>

#if KAPI_CUDA_ARCH >= 800
namespace kapi::detail::cuda_ops {

template <int Bytes>
__device__ inline void cp_async(void* dst, const void* src, bool valid) {
  const unsigned local = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  const int read = valid ? Bytes : 0;
  if constexpr (Bytes == 16)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(local), "l"(src), "r"(read) : "memory");
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(local), "l"(src), "n"(Bytes), "r"(read)
                 : "memory");
}

__device__ inline void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }

template <int Pending>
__device__ inline void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(Pending) : "memory");
}

}  // namespace kapi::detail::cuda_ops
#endif  // KAPI_CUDA_ARCH >= 800
