// SPDX-License-Identifier: Apache-2.0
#pragma once
// Asynchronous copies from global to local memory: a work-item starts copies, closes them
// into a batch, and later waits until at most N of its batches are still in flight. A
// group barrier after the wait makes every work-item's landed copies visible to the group.
// This is what a multi-stage pipeline needs: tiles for steps k+1 … k+S-1 in flight while
// step k is multiplied, without holding them in registers on the way.
//
//   kapi::async_copy<16>(&tile[i], &x(r, c), inside);   // 16 bytes, zeros when !inside
//   kapi::async_copy_commit();                          // one batch per pipeline stage
//   ...
//   kapi::async_copy_wait<S - 2>();                     // this work-item's oldest batch landed
//   kapi::group_barrier(it.get_group());                // ... and everyone's
//
// Backends:
//   CUDA sm_80+ (device pass): cp.async (cuda/detail/async_copy.hpp), a batch is a
//     cp.async group; an invalid copy reads nothing and writes zeros.
//   Everything else: the copy happens at once (a load and a store), commit and wait do
//     nothing: the group barrier that follows the wait still orders it.
// The local address must be aligned to Bytes, and so must the global one when valid.
#include <kapi/config.hpp>

#include <kapi/detail/copy_bytes.hpp>
#include <kapi/detail/device_instructions.hpp>

#if KAPI_CUDA_ARCH >= 800
#define KAPI_ASYNC_COPY_CP_ASYNC 1
#else
#define KAPI_ASYNC_COPY_CP_ASYNC 0
#endif

namespace kapi {

/// Starts copying Bytes (4, 8 or 16) from global `src` to local `dst`; `valid` false
/// writes Bytes zeros instead and reads nothing (`src` may then be any address).
template <int Bytes>
KAPI_FUNCTION void async_copy(void* dst, const void* src, bool valid) {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "kapi::async_copy copies 4, 8 or 16 bytes");
#if KAPI_ASYNC_COPY_CP_ASYNC
  detail::cuda_ops::cp_async<Bytes>(dst, src, valid);
#else
  struct Chunk {
    unsigned char bytes[Bytes];
  };
  Chunk chunk{};
  if (valid) detail::copy_bytes(&chunk, src, Bytes);
  detail::copy_bytes(dst, &chunk, Bytes);
#endif
}

/// Closes this work-item's copies started since the last commit into one batch.
KAPI_FUNCTION void async_copy_commit() {
#if KAPI_ASYNC_COPY_CP_ASYNC
  detail::cuda_ops::cp_async_commit();
#endif
}

/// Waits until at most Pending of this work-item's batches are still in flight.
template <int Pending>
KAPI_FUNCTION void async_copy_wait() {
  static_assert(Pending >= 0 && Pending <= 7, "kapi::async_copy_wait: 0 to 7 batches may stay in flight");
#if KAPI_ASYNC_COPY_CP_ASYNC
  detail::cuda_ops::cp_async_wait<Pending>();
#endif
}

}  // namespace kapi
