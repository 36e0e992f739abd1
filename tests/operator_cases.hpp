// SPDX-License-Identifier: Apache-2.0
#pragma once
// The kapi operators as test cases: an enum of them, the kapi functor for each, and
// independent host references (plain C++ operators, std::numeric_limits identities), for
// the group and sub-group algorithm tests.
#include <kapi/functional.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace kapi_test {

enum class OpKind { plus, multiplies, minimum, maximum, bit_and, bit_or, bit_xor, logical_and, logical_or };

template <OpKind K>
struct KapiOp;
template <>
struct KapiOp<OpKind::plus> {
  using type = kapi::plus<>;
};
template <>
struct KapiOp<OpKind::multiplies> {
  using type = kapi::multiplies<>;
};
template <>
struct KapiOp<OpKind::minimum> {
  using type = kapi::minimum<>;
};
template <>
struct KapiOp<OpKind::maximum> {
  using type = kapi::maximum<>;
};
template <>
struct KapiOp<OpKind::bit_and> {
  using type = kapi::bit_and<>;
};
template <>
struct KapiOp<OpKind::bit_or> {
  using type = kapi::bit_or<>;
};
template <>
struct KapiOp<OpKind::bit_xor> {
  using type = kapi::bit_xor<>;
};
template <>
struct KapiOp<OpKind::logical_and> {
  using type = kapi::logical_and<>;
};
template <>
struct KapiOp<OpKind::logical_or> {
  using type = kapi::logical_or<>;
};

/// Calls f with kapi's functor for `kind`, the one of K... that equals it (nothing when none
/// does): a kernel takes its operator as a run-time value, one kernel for several
/// operators, and still calls the collectives with kapi's functor types, which select
/// their code paths and identities. The same branch in every work-item of a launch.
template <OpKind... K, class F>
KOKKOS_INLINE_FUNCTION void with_kapi_op(OpKind kind, const F& f) {
  (void)((kind == K && (f(typename KapiOp<K>::type()), true)) || ...);
}

inline const char* op_name(OpKind k) {
  static const char* names[] = {"plus",   "multiplies", "minimum",     "maximum",   "bit_and",
                                "bit_or", "bit_xor",    "logical_and", "logical_or"};
  return names[int(k)];
}

template <class T>
T ref_apply(OpKind k, T a, T b) {
  switch (k) {
    case OpKind::plus:
      return T(a + b);
    case OpKind::multiplies:
      return T(a * b);
    case OpKind::minimum:
      return std::min(a, b);
    case OpKind::maximum:
      return std::max(a, b);
    case OpKind::logical_and:
      return T(a != T(0) && b != T(0));
    case OpKind::logical_or:
      return T(a != T(0) || b != T(0));
    default:
      if constexpr (std::is_integral_v<T>) {
        if (k == OpKind::bit_and) return T(a & b);
        if (k == OpKind::bit_or) return T(a | b);
        return T(a ^ b);
      }
      return T(0);
  }
}

template <class T>
T ref_identity(OpKind k) {
  using L = std::numeric_limits<T>;
  switch (k) {
    case OpKind::multiplies:
      return T(1);
    case OpKind::minimum:
      return L::has_infinity ? L::infinity() : L::max();
    case OpKind::maximum:
      return L::has_infinity ? -L::infinity() : L::lowest();
    case OpKind::bit_and:
      return T(~std::uint64_t(0));
    case OpKind::logical_and:
      return T(1);
    default:
      return T(0);
  }
}

/// An init value for the algorithms' init forms, exact in every type.
template <class T>
T op_init(OpKind k) {
  switch (k) {
    case OpKind::plus:
      return T(10);
    case OpKind::multiplies:
      return T(3);
    case OpKind::minimum:
      return T(1000);
    case OpKind::maximum:
      return T(-1000 * std::is_signed_v<T>);
    case OpKind::bit_and:
      return T(~std::uint64_t(0x10));
    case OpKind::bit_or:
      return T(0x100);
    case OpKind::bit_xor:
      return T(0x5555);
    case OpKind::logical_and:
      return T(1);
    case OpKind::logical_or:
      return T(0);
  }
  return T(0);
}

/// How often the inputs that change a result appear among op_input's values: a factor
/// other than 1 (a 2, for signed types also a -1) once per `factor_period` indices, a true
/// for logical_or (a false for logical_and) about once per `truth_period`. A product over
/// a span of s work-items holds at most s / factor_period + 1 twos: keep that below 31 so
/// that no signed product overflows (undefined behaviour, caught by UBSan).
struct RareInputs {
  std::size_t factor_period;
  std::size_t truth_period;
};
/// For algorithms over sub-groups (up to 64 work-items): every sub-group sees factors.
inline constexpr RareInputs rare_in_sub_groups{7, 11};
/// For algorithms over work-groups of up to 1024 work-items (at most 11 twos).
inline constexpr RareInputs rare_in_work_groups{97, 53};

/// Inputs that keep every result exact in every type and every combining order: small
/// integers for sums, mostly ones for products, spread values for min/max/xor.
template <class T>
T op_input(OpKind k, std::size_t i, RareInputs rare) {
  const std::uint64_t h = (i * 2654435761u) % 1000003u;
  switch (k) {
    case OpKind::plus:
      return std::is_signed_v<T> ? T(std::int64_t(h % 101) - 50) : T(h % 101);
    case OpKind::multiplies:
      if (i % rare.factor_period == 5 % rare.factor_period) return T(2);
      return std::is_signed_v<T> && i % (rare.factor_period + 2) == 3 ? T(-1) : T(1);
    case OpKind::minimum:
    case OpKind::maximum:
      return std::is_signed_v<T> ? T(std::int64_t(h) - 500001) : T(h);
    case OpKind::bit_and:
      return T(~(std::uint64_t(1) << (h % (8 * sizeof(T)))));
    case OpKind::bit_or:
      return T(std::uint64_t(1) << (h % (8 * sizeof(T))));
    case OpKind::bit_xor:
      return T(h * 40503u);
    case OpKind::logical_and:
      return T(h % rare.truth_period != 0);
    case OpKind::logical_or:
      return T(h % rare.truth_period == 0);
  }
  return T(0);
}

}  // namespace kapi_test
