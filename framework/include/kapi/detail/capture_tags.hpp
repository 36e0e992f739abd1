// SPDX-License-Identifier: Apache-2.0
#pragma once
// The marks by which a launch finds the LocalAccessors and reductions a kernel captured
// (detail/captured_locals.hpp): a kernel is an opaque object (a lambda's captures have no
// names), so each of these objects begins with a tag the launch can recognise in its bytes.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <limits>

namespace kapi::detail {

/// The first member of a LocalAccessor made with a shape; copies share its id.
struct LocalMemoryTag {
  static constexpr std::uint64_t local_magic = 0x6b6170694c6f6341ull;  // "kapiLocA"
  std::uint64_t magic = 0;
  std::uint64_t id = 0;
  std::uint64_t bytes = 0;  // its size; all ones when that overflows

  template <int N>
  static LocalMemoryTag make(std::size_t element_bytes, const std::size_t (&extent)[N]) {
    std::uint64_t bytes = element_bytes;
    bool overflow = false;
    for (int d = 0; d < N; ++d) overflow |= __builtin_mul_overflow(bytes, std::uint64_t(extent[d]), &bytes);
    return {local_magic, ++counter(), overflow ? std::numeric_limits<std::uint64_t>::max() : bytes};
  }
  /// The ids handed out so far (1 … last()).
  static std::uint64_t last() { return counter().load(std::memory_order_relaxed); }

 private:
  static std::atomic<std::uint64_t>& counter() {
    static std::atomic<std::uint64_t> n{0};
    return n;
  }
};

/// The first member of a kapi::reduction: the magic word and its complement.
struct ReductionTag {
  static constexpr std::uint64_t reduction_magic = 0x6b61706952656475ull;  // "kapiRedu"
  std::uint64_t magic = reduction_magic;
  std::uint64_t check = ~reduction_magic;
};

}  // namespace kapi::detail
