// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one place register blocks (register_block.hpp) find their SIMD multiply-accumulate:
// the host backend's over the compiler's vector extension (host/detail/simd_multiply.hpp),
// where host_simd_multiply_fits says it takes the block; every other block and pass keeps
// register_block.hpp's own loops.
#include <kapi/host/detail/simd_multiply.hpp>
