// SPDX-License-Identifier: Apache-2.0
#pragma once
// The binary operators of the group algorithms (SYCL 2020's plus, multiplies, minimum,
// maximum, bit_and, bit_or, bit_xor, logical_and, logical_or), each with its identity.
//   kapi::plus<int>()(2, 3) == 5;   kapi::maximum<>::identity<float>() == -inf
// Op<void> (the default) is transparent: it takes any two operands. The identity is a
// static member function rather than a variable so that device code can call it
// without relaxed-constexpr compiler flags.
#include <cmath>
#include <type_traits>

#include <kapi/config.hpp>

namespace kapi {

namespace detail {

template <class T, class A, class B>
using op_result_t = std::conditional_t<std::is_void_v<T>, std::common_type_t<A, B>, T>;

/// Largest and smallest values of an arithmetic type; ±infinity for floating point.
template <class U>
KAPI_FUNCTION constexpr U highest() {
  if constexpr (std::is_floating_point_v<U>) {
    return U(HUGE_VAL);
  } else if constexpr (std::is_same_v<U, bool>) {
    return true;
  } else if constexpr (std::is_signed_v<U>) {
    return U(~(std::make_unsigned_t<U>(1) << (sizeof(U) * 8 - 1)));
  } else {
    return U(~U(0));
  }
}

template <class U>
KAPI_FUNCTION constexpr U lowest() {
  if constexpr (std::is_floating_point_v<U>) {
    return U(-HUGE_VAL);
  } else if constexpr (std::is_same_v<U, bool>) {
    return false;
  } else if constexpr (std::is_signed_v<U>) {
    return U(-highest<U>() - 1);
  } else {
    return U(0);
  }
}

}  // namespace detail

template <class T = void>
struct plus {
  template <class A, class B>
  KAPI_FUNCTION constexpr detail::op_result_t<T, A, B> operator()(const A& a, const B& b) const {
    return a + b;
  }
  template <class U>
  KAPI_FUNCTION static constexpr U identity() {
    return U(0);
  }
};

template <class T = void>
struct multiplies {
  template <class A, class B>
  KAPI_FUNCTION constexpr detail::op_result_t<T, A, B> operator()(const A& a, const B& b) const {
    return a * b;
  }
  template <class U>
  KAPI_FUNCTION static constexpr U identity() {
    return U(1);
  }
};

template <class T = void>
struct minimum {
  template <class A, class B>
  KAPI_FUNCTION constexpr detail::op_result_t<T, A, B> operator()(const A& a, const B& b) const {
    return b < a ? b : a;
  }
  template <class U>
  KAPI_FUNCTION static constexpr U identity() {
    return detail::highest<U>();
  }
};

template <class T = void>
struct maximum {
  template <class A, class B>
  KAPI_FUNCTION constexpr detail::op_result_t<T, A, B> operator()(const A& a, const B& b) const {
    return a < b ? b : a;
  }
  template <class U>
  KAPI_FUNCTION static constexpr U identity() {
    return detail::lowest<U>();
  }
};

template <class T = void>
struct bit_and {
  template <class A, class B>
  KAPI_FUNCTION constexpr detail::op_result_t<T, A, B> operator()(const A& a, const B& b) const {
    return a & b;
  }
  template <class U>
  KAPI_FUNCTION static constexpr U identity() {
    static_assert(std::is_integral_v<U>, "kapi::bit_and is defined for integer types only");
    return U(~U(0));
  }
};

template <class T = void>
struct bit_or {
  template <class A, class B>
  KAPI_FUNCTION constexpr detail::op_result_t<T, A, B> operator()(const A& a, const B& b) const {
    return a | b;
  }
  template <class U>
  KAPI_FUNCTION static constexpr U identity() {
    static_assert(std::is_integral_v<U>, "kapi::bit_or is defined for integer types only");
    return U(0);
  }
};

template <class T = void>
struct bit_xor {
  template <class A, class B>
  KAPI_FUNCTION constexpr detail::op_result_t<T, A, B> operator()(const A& a, const B& b) const {
    return a ^ b;
  }
  template <class U>
  KAPI_FUNCTION static constexpr U identity() {
    static_assert(std::is_integral_v<U>, "kapi::bit_xor is defined for integer types only");
    return U(0);
  }
};

/// Result is 1 or 0 in the operand type (bool for logical_and<>).
template <class T = void>
struct logical_and {
  template <class A, class B>
  KAPI_FUNCTION constexpr std::conditional_t<std::is_void_v<T>, bool, T> operator()(const A& a, const B& b) const {
    return bool(a) && bool(b);
  }
  template <class U>
  KAPI_FUNCTION static constexpr U identity() {
    return U(true);
  }
};

template <class T = void>
struct logical_or {
  template <class A, class B>
  KAPI_FUNCTION constexpr std::conditional_t<std::is_void_v<T>, bool, T> operator()(const A& a, const B& b) const {
    return bool(a) || bool(b);
  }
  template <class U>
  KAPI_FUNCTION static constexpr U identity() {
    return U(false);
  }
};

namespace detail {
template <class Op, class T, class = void>
inline constexpr bool has_identity_v = false;
template <class Op, class T>
inline constexpr bool has_identity_v<Op, T, std::void_t<decltype(Op::template identity<T>())>> = true;
}  // namespace detail

/// The identity of `Op` for values of type T: op(identity, x) == x. Your own operator
/// gains one with a `template <class U> static U identity()` member.
template <class Op, class T>
KAPI_FUNCTION constexpr T known_identity() {
  static_assert(detail::has_identity_v<Op, T>,
                "kapi: this operator has no identity (give it `template <class U> static constexpr U identity()`), "
                "or pass an init value");
  return Op::template identity<T>();
}

}  // namespace kapi
