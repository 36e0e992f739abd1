// SPDX-License-Identifier: Apache-2.0
#pragma once
// Division by a divisor fixed at launch, as one multiply and one shift (Granlund and
// Montgomery's method): device launches split linear group and work-item ids into N-d
// ids in every GPU thread, where an integer division is a long instruction sequence (about
// 25 instructions even on the 32-bit path) that would cost more than the work it indexes.
#include <cstddef>
#include <cstdint>

#include <kapi/config.hpp>

namespace kapi::detail {

/// n / d and n % d for 0 <= n < 2^31 and 1 <= d < 2^31, in 32-bit arithmetic: on a GPU the
/// quotient is one high multiply, an add and a shift (a 64-bit product and shift would be
/// five or six instructions).
class FastDivisor {
 public:
  FastDivisor() = default;
  explicit FastDivisor(std::uint32_t d) : d_(d) {
    unsigned l = 0;  // ceil(log2 d)
    while ((std::uint64_t(1) << l) < d) ++l;
    shift_ = l;
    // The 33-bit magic number M = ceil(2^(32+l) / d) = 2^32 + m: M·d − 2^(32+l) lies in
    // [0, d) ⊆ [0, 2^l), so floor(n·M / 2^(32+l)) = floor(n / d) for every n < 2^32, and
    // n·M / 2^32 = hi32(n·m) + n, below 2^32 for n < 2^31.
    m_ = std::uint32_t(((std::uint64_t(1) << (32 + l)) + d - 1) / d - (std::uint64_t(1) << 32));
  }
  KAPI_FUNCTION std::uint32_t divide(std::uint32_t n) const {
    const auto high = std::uint32_t((std::uint64_t(n) * m_) >> 32);
    return (high + n) >> shift_;
  }
  KAPI_FUNCTION std::uint32_t divisor() const { return d_; }

 private:
  std::uint32_t m_ = 1;  // d = 1: high = 0, the quotient n
  std::uint32_t d_ = 1;
  unsigned shift_ = 0;
};

/// The extents of an N-d shape as divisors: splits a linear id (SYCL order, last dimension
/// fastest) into N ids without dividing. Ids and extents below 2^31.
template <int N>
class FastExtents {
 public:
  FastExtents() = default;
  explicit FastExtents(const std::size_t (&extent)[N]) {
    // An extent of 0 (an empty launch) has no ids to split: any divisor serves.
    for (int d = 1; d < N; ++d) inner_[d - 1] = FastDivisor(extent[d] ? static_cast<std::uint32_t>(extent[d]) : 1u);
  }
  KAPI_FUNCTION void split(std::size_t linear, std::size_t (&id)[N]) const {
    auto rest = static_cast<std::uint32_t>(linear);
    for (int d = N - 1; d > 0; --d) {
      const std::uint32_t q = inner_[d - 1].divide(rest);
      id[d] = rest - q * inner_[d - 1].divisor();
      rest = q;
    }
    id[0] = rest;
  }

 private:
  FastDivisor inner_[N > 1 ? N - 1 : 1];
};

}  // namespace kapi::detail
