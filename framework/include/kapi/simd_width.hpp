// SPDX-License-Identifier: Apache-2.0
#pragma once
// The host's SIMD width, for kernels that size their register blocks by it: the matmul
// app's tuned kernel keeps two SIMD registers per row of a work-item's block, where a
// fixed width spilled on the narrower machines.
#include <cstddef>

#include <kapi/config.hpp>

namespace kapi {

/// Bytes of the widest SIMD register the host pass compiles for (its -march): 64 with
/// AVX-512, 32 with AVX or AVX2, 16 otherwise (SSE2, NEON, ...).
inline constexpr std::size_t host_simd_bytes = KAPI_HOST_SIMD_BYTES;

/// How many such registers the host pass has: 32 with AVX-512 and on aarch64, 16 otherwise.
inline constexpr int host_simd_registers = KAPI_HOST_SIMD_REGISTERS;

/// Elements of type T in one such register (at least one).
template <class T>
inline constexpr std::size_t host_simd_lanes = host_simd_bytes >= sizeof(T) ? host_simd_bytes / sizeof(T) : 1;

}  // namespace kapi
