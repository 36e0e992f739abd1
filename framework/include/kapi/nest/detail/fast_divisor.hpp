// SPDX-License-Identifier: Apache-2.0
#pragma once
// The block and tile mappings split a block id and a thread id into (i, j, k) in every
// GPU thread, with kapi's FastDivisor (detail/fast_divisor.hpp): no integer division.
#include <cstdint>

#include <kapi/config.hpp>
#include <kapi/detail/fast_divisor.hpp>

namespace kapi::nest::detail {

using kapi::detail::FastDivisor;

/// A 3-d shape {i, j, k} that splits linear ids (k fastest) without dividing.
struct FastShape {
  FastDivisor j, k;  // extents of the two inner dimensions
  KAPI_FUNCTION void split(std::uint32_t linear, std::uint32_t (&out)[3]) const {
    const std::uint32_t q = k.divide(linear);
    out[2] = linear - q * k.divisor();
    out[0] = j.divide(q);
    out[1] = q - out[0] * j.divisor();
  }
};

}  // namespace kapi::nest::detail
