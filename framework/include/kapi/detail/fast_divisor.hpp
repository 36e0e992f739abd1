#pragma once
// Division by a divisor fixed at launch, as one multiply and one shift (Granlund and
// Montgomery's method): device launches split linear group and work-item ids into N-d
// ids in every GPU thread, where an integer division is a long instruction sequence (about
// 25 instructions even on the 32-bit path) that would cost more than the work it indexes.
#include <cstddef>
#include <cstdint>

#include <kapi/config.hpp>

namespace kapi::detail {

/// n / d and n % d for 0 <= n < 2^31 and 1 <= d < 2^31.
class FastDivisor {
 public:
  FastDivisor() = default;
  explicit FastDivisor(std::uint32_t d) : d_(d) {
    unsigned l = 0;  // ceil(log2 d)
    while ((std::uint64_t(1) << l) < d) ++l;
    shift_ = 31 + l;
    // m·d − 2^(31+l) lies in (0, d] ⊆ (0, 2^l]: exact for every 31-bit n, and n·m < 2^64.
    m_ = (std::uint64_t(1) << shift_) / d + 1;
  }
  KAPI_FUNCTION std::uint32_t divide(std::uint32_t n) const { return std::uint32_t((std::uint64_t(n) * m_) >> shift_); }
  KAPI_FUNCTION std::uint32_t divisor() const { return d_; }

 private:
  std::uint64_t m_ = (std::uint64_t(1) << 31) + 1;
  std::uint32_t d_ = 1;
  unsigned shift_ = 31;
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
