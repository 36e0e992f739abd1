// SPDX-License-Identifier: Apache-2.0
#pragma once
// Integer helpers every layer needs: group counts, padded extents, tree depths.
#include <type_traits>

#include <kapi/config.hpp>

namespace kapi {

/// ⌈a / b⌉ for a ≥ 0, b > 0, in a's type (never overflows, unlike (a + b - 1) / b).
template <class I, class J>
KAPI_FUNCTION constexpr I ceil_div(I a, J b) {
  static_assert(std::is_integral_v<I> && std::is_integral_v<J>, "kapi::ceil_div takes integers");
  const I d = static_cast<I>(b);
  return a / d + (a % d != 0 ? 1 : 0);
}

/// The smallest multiple of `multiple` (> 0) that is ≥ a (≥ 0), in a's type.
template <class I, class J>
KAPI_FUNCTION constexpr I round_up(I a, J multiple) {
  return ceil_div(a, multiple) * static_cast<I>(multiple);
}

/// ⌈log2 x⌉ for x ≥ 1 (0 for x ≤ 1): the depth of a binary tree over x leaves.
template <class I>
KAPI_FUNCTION constexpr I ceil_log2(I x) {
  static_assert(std::is_integral_v<I>, "kapi::ceil_log2 takes integers");
  using U = std::make_unsigned_t<I>;
  I depth = 0;
  for (U rest = x > 1 ? static_cast<U>(x - 1) : U(0); rest != 0; rest >>= 1) ++depth;
  return depth;
}

}  // namespace kapi
