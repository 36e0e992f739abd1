// SPDX-License-Identifier: Apache-2.0
#pragma once
// copy_bytes: memcpy for code that runs on devices too (bit casts, byte-wise staging).
// It calls the global memcpy, never std::memcpy: <cstring>'s std::memcpy is a
// using-declaration that holds only the memcpy declared before it, so a user's file that
// includes <cstring> before Kokkos made it the host memcpy, which HIP device code cannot
// call. Kokkos (config.hpp, first) brings the device runtime's memcpy, and the global
// name sees every declaration made before this definition.
#include <kapi/config.hpp>

#include <cstddef>
#include <string.h>

namespace kapi::detail {

KAPI_FUNCTION void copy_bytes(void* dst, const void* src, std::size_t bytes) { ::memcpy(dst, src, bytes); }

}  // namespace kapi::detail
