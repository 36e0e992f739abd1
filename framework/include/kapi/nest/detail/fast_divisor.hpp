#pragma once
// Division by a divisor fixed at launch, as one multiply and one shift (Granlund and
// Montgomery's method): the block and tile mappings split a block id and a thread id
// into (i, j, k) in every GPU thread, where an integer division is a long instruction
// sequence that would cost more than the memory access it indexes.
#include <cstdint>

#include <kapi/config.hpp>

namespace kapi::nest::detail {

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
