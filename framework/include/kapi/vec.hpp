// SPDX-License-Identifier: Apache-2.0
#pragma once
// Vec<T, N>: SYCL's vec — N elements (1, 2, 3, 4, 8, 16, or another power of two) with
// element-wise arithmetic, and an aligned unit that moves them with one instruction.
//
//   kapi::Vec<float, 4> p(1, 2, 3, 0), q(0.5f);          // element-wise; broadcast
//   p = 2.0f * p + q;  p.x() += 1;  const float d = kapi::dot(p, q);
//   p.load(i, ptr);  p.store(i, out);                   // SYCL: elements [i*N, i*N+N)
//   const auto mask = p < q;                           // Vec<int32_t, 4> of -1 (true) and 0
//
// One type for both uses: what SYCL code writes as vec, and what kapi's tile copies and
// register blocks move as aligned units (a GPU moves a 16-byte Vec with one instruction
// where it would otherwise issue four 4-byte ones). It is trivially copyable and its
// default constructor leaves the elements uninitialised, as a local float is (`Vec v{}` and
// `Vec(0)` are zeros): an array of Vecs costs nothing to declare in a kernel.
// Vec<T, 3> occupies and aligns as four elements, as SYCL's does.
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <kapi/config.hpp>
#include <kapi/math.hpp>

namespace kapi {

namespace detail {
template <int N>
inline constexpr int vec_storage = N == 3 ? 4 : N;
// The element type of a comparison's result: a signed integer of T's size (SYCL's rule);
// bool for an element type without one (a Vec of structs moved as a unit never compares).
template <class T, std::size_t Bytes = sizeof(T), bool = std::is_arithmetic_v<T>>
struct vec_mask {
  using type = bool;
};
template <class T>
struct vec_mask<T, 1, true> {
  using type = std::int8_t;
};
template <class T>
struct vec_mask<T, 2, true> {
  using type = std::int16_t;
};
template <class T>
struct vec_mask<T, 4, true> {
  using type = std::int32_t;
};
template <class T>
struct vec_mask<T, 8, true> {
  using type = std::int64_t;
};
}  // namespace detail

template <class T, int N>
struct alignas(sizeof(T) * detail::vec_storage<N>) Vec {
  static_assert(N == 3 || (N >= 1 && (N & (N - 1)) == 0),
                "kapi::Vec: the width must be 3 or a power of two (SYCL's vec: 1, 2, 3, 4, 8 or 16)");
  static constexpr int width = N;
  using element_type = T;
  using value_type = T;
  T v[detail::vec_storage<N>];

  /// Uninitialised elements, as a local T (Vec v{} is zeros).
  Vec() = default;
  /// Every element x (SYCL's explicit vec(const DataT&)).
  KAPI_FUNCTION explicit constexpr Vec(const T& x) : v{} {
    for (int i = 0; i < N; ++i) v[i] = x;
  }
  /// One value per element: Vec<float, 3>(x, y, z).
  template <class... A, class = std::enable_if_t<(N > 1) && sizeof...(A) == N && (std::is_convertible_v<A, T> && ...)>>
  KAPI_FUNCTION constexpr Vec(const A&... a) : v{static_cast<T>(a)...} {}

  KAPI_FUNCTION static constexpr std::size_t size() { return std::size_t(N); }
  KAPI_FUNCTION static constexpr std::size_t byte_size() { return sizeof(Vec); }

  KAPI_FUNCTION constexpr T& operator[](int i) { return v[i]; }
  KAPI_FUNCTION constexpr const T& operator[](int i) const { return v[i]; }

  // Named elements: x() y() z() w(), r() g() b() a(), and s0() ... sF() (SYCL's names).
#define KAPI_IMPL_VEC_ELEMENT(name, i)                                            \
  KAPI_FUNCTION constexpr T& name() {                                             \
    static_assert((i) < N, "kapi::Vec::" #name "(): the Vec has fewer elements"); \
    return v[i];                                                                  \
  }                                                                               \
  KAPI_FUNCTION constexpr const T& name() const {                                 \
    static_assert((i) < N, "kapi::Vec::" #name "(): the Vec has fewer elements"); \
    return v[i];                                                                  \
  }
  KAPI_IMPL_VEC_ELEMENT(x, 0)
  KAPI_IMPL_VEC_ELEMENT(y, 1)
  KAPI_IMPL_VEC_ELEMENT(z, 2)
  KAPI_IMPL_VEC_ELEMENT(w, 3)
  KAPI_IMPL_VEC_ELEMENT(r, 0)
  KAPI_IMPL_VEC_ELEMENT(g, 1)
  KAPI_IMPL_VEC_ELEMENT(b, 2)
  KAPI_IMPL_VEC_ELEMENT(a, 3)
  KAPI_IMPL_VEC_ELEMENT(s0, 0)
  KAPI_IMPL_VEC_ELEMENT(s1, 1)
  KAPI_IMPL_VEC_ELEMENT(s2, 2)
  KAPI_IMPL_VEC_ELEMENT(s3, 3)
  KAPI_IMPL_VEC_ELEMENT(s4, 4)
  KAPI_IMPL_VEC_ELEMENT(s5, 5)
  KAPI_IMPL_VEC_ELEMENT(s6, 6)
  KAPI_IMPL_VEC_ELEMENT(s7, 7)
  KAPI_IMPL_VEC_ELEMENT(s8, 8)
  KAPI_IMPL_VEC_ELEMENT(s9, 9)
  KAPI_IMPL_VEC_ELEMENT(sA, 10)
  KAPI_IMPL_VEC_ELEMENT(sB, 11)
  KAPI_IMPL_VEC_ELEMENT(sC, 12)
  KAPI_IMPL_VEC_ELEMENT(sD, 13)
  KAPI_IMPL_VEC_ELEMENT(sE, 14)
  KAPI_IMPL_VEC_ELEMENT(sF, 15)
#undef KAPI_IMPL_VEC_ELEMENT

  // SYCL's load and store: the N elements at p + offset * N, any alignment of p.
  KAPI_FUNCTION void load(std::size_t offset, const T* p) {
    for (int i = 0; i < N; ++i) v[i] = p[offset * std::size_t(N) + std::size_t(i)];
  }
  KAPI_FUNCTION void store(std::size_t offset, T* p) const {
    for (int i = 0; i < N; ++i) p[offset * std::size_t(N) + std::size_t(i)] = v[i];
  }

  // kapi's aligned unit (tile copies, register blocks): one access of the whole Vec.
  /// True when p may be loaded from or stored to as a Vec (aligned to the Vec's size).
  KAPI_FUNCTION static bool aligned(const T* p) { return reinterpret_cast<std::uintptr_t>(p) % sizeof(Vec) == 0; }
  /// The N elements at p, which must be aligned().
  KAPI_FUNCTION static Vec load(const T* p) {
    if constexpr (N == 3) {  // the fourth element is padding: never read past the three
      Vec r{};
      r.load(0, p);
      return r;
    } else {
      return *reinterpret_cast<const Vec*>(p);
    }
  }
  /// Writes the N elements to p, which must be aligned().
  KAPI_FUNCTION void store(T* p) const {
    if constexpr (N == 3) {
      store(0, p);
    } else {
      *reinterpret_cast<Vec*>(p) = *this;
    }
  }

  /// Element-wise static_cast (SYCL's convert with the default rounding).
  template <class U>
  KAPI_FUNCTION Vec<U, N> convert() const {
    Vec<U, N> r{};
    for (int i = 0; i < N; ++i) r.v[i] = static_cast<U>(v[i]);
    return r;
  }

  // Element-wise arithmetic: with a Vec, or a scalar on either side; % and the bitwise
  // operators for integer elements only.
#define KAPI_IMPL_VEC_ARITHMETIC(OP, ALLOWED)                                  \
  template <class U = T, class = std::enable_if_t<ALLOWED>>                    \
  KAPI_FUNCTION friend constexpr Vec operator OP(const Vec& a, const Vec& b) { \
    Vec r{};                                                                   \
    for (int i = 0; i < N; ++i) r.v[i] = static_cast<T>(a.v[i] OP b.v[i]);     \
    return r;                                                                  \
  }                                                                            \
  template <class U = T, class = std::enable_if_t<ALLOWED>>                    \
  KAPI_FUNCTION friend constexpr Vec operator OP(const Vec& a, const T& s) {   \
    Vec r{};                                                                   \
    for (int i = 0; i < N; ++i) r.v[i] = static_cast<T>(a.v[i] OP s);          \
    return r;                                                                  \
  }                                                                            \
  template <class U = T, class = std::enable_if_t<ALLOWED>>                    \
  KAPI_FUNCTION friend constexpr Vec operator OP(const T& s, const Vec& b) {   \
    Vec r{};                                                                   \
    for (int i = 0; i < N; ++i) r.v[i] = static_cast<T>(s OP b.v[i]);          \
    return r;                                                                  \
  }                                                                            \
  template <class U = T, class = std::enable_if_t<ALLOWED>>                    \
  KAPI_FUNCTION constexpr Vec& operator OP##=(const Vec& b) {                  \
    for (int i = 0; i < N; ++i) v[i] = static_cast<T>(v[i] OP b.v[i]);         \
    return *this;                                                              \
  }                                                                            \
  template <class U = T, class = std::enable_if_t<ALLOWED>>                    \
  KAPI_FUNCTION constexpr Vec& operator OP##=(const T& s) {                    \
    for (int i = 0; i < N; ++i) v[i] = static_cast<T>(v[i] OP s);              \
    return *this;                                                              \
  }
  KAPI_IMPL_VEC_ARITHMETIC(+, true)
  KAPI_IMPL_VEC_ARITHMETIC(-, true)
  KAPI_IMPL_VEC_ARITHMETIC(*, true)
  KAPI_IMPL_VEC_ARITHMETIC(/, true)
  KAPI_IMPL_VEC_ARITHMETIC(%, std::is_integral_v<U>)
  KAPI_IMPL_VEC_ARITHMETIC(&, std::is_integral_v<U>)
  KAPI_IMPL_VEC_ARITHMETIC(|, std::is_integral_v<U>)
  KAPI_IMPL_VEC_ARITHMETIC(^, std::is_integral_v<U>)
  KAPI_IMPL_VEC_ARITHMETIC(<<, std::is_integral_v<U>)
  KAPI_IMPL_VEC_ARITHMETIC(>>, std::is_integral_v<U>)
#undef KAPI_IMPL_VEC_ARITHMETIC

  KAPI_FUNCTION friend constexpr Vec operator+(const Vec& a) { return a; }
  KAPI_FUNCTION friend constexpr Vec operator-(const Vec& a) {
    Vec r{};
    for (int i = 0; i < N; ++i) r.v[i] = static_cast<T>(-a.v[i]);
    return r;
  }
  template <class U = T, class = std::enable_if_t<std::is_integral_v<U>>>
  KAPI_FUNCTION friend constexpr Vec operator~(const Vec& a) {
    Vec r{};
    for (int i = 0; i < N; ++i) r.v[i] = static_cast<T>(~a.v[i]);
    return r;
  }

  // Comparisons, element-wise as in SYCL: a Vec of signed integers of T's size, -1 where
  // the comparison holds and 0 where it does not (not a bool: compare elements for that).
  using mask_type = Vec<typename detail::vec_mask<T>::type, N>;
#define KAPI_IMPL_VEC_COMPARISON(OP)                                                                               \
  KAPI_FUNCTION friend constexpr mask_type operator OP(const Vec& a, const Vec& b) {                               \
    mask_type r{};                                                                                                 \
    for (int i = 0; i < N; ++i) r.v[i] = static_cast<typename mask_type::element_type>(a.v[i] OP b.v[i] ? -1 : 0); \
    return r;                                                                                                      \
  }                                                                                                                \
  KAPI_FUNCTION friend constexpr mask_type operator OP(const Vec& a, const T& s) { return a OP Vec(s); }           \
  KAPI_FUNCTION friend constexpr mask_type operator OP(const T& s, const Vec& b) { return Vec(s) OP b; }
  KAPI_IMPL_VEC_COMPARISON(==)
  KAPI_IMPL_VEC_COMPARISON(!=)
  KAPI_IMPL_VEC_COMPARISON(<)
  KAPI_IMPL_VEC_COMPARISON(>)
  KAPI_IMPL_VEC_COMPARISON(<=)
  KAPI_IMPL_VEC_COMPARISON(>=)
#undef KAPI_IMPL_VEC_COMPARISON
  KAPI_FUNCTION friend constexpr mask_type operator!(const Vec& a) { return a == Vec(T(0)); }
};

/// The widest Vec of T a device moves in one instruction (16 bytes), at least 1.
template <class T>
inline constexpr int vec_width_16_bytes = sizeof(T) >= 16 ? 1 : int(16 / sizeof(T));

template <class T>
inline constexpr bool is_vec_v = false;
template <class T, int N>
inline constexpr bool is_vec_v<Vec<T, N>> = true;

// ---------------------------------------------------------------- math on Vecs
// SYCL's math built-ins take vecs element-wise; these are the ones n-body and stencil
// codes use. Each element computes with kapi's scalar built-in (math.hpp), so the bounds
// and the float-in-float rule are the same.
#define KAPI_IMPL_VEC_UNARY(name)                              \
  template <class T, int N>                                    \
  KAPI_FUNCTION Vec<T, N> name(const Vec<T, N>& x) {           \
    Vec<T, N> r{};                                             \
    for (int i = 0; i < N; ++i) r.v[i] = ::kapi::name(x.v[i]); \
    return r;                                                  \
  }
#define KAPI_IMPL_VEC_BINARY(name)                                       \
  template <class T, int N>                                              \
  KAPI_FUNCTION Vec<T, N> name(const Vec<T, N>& x, const Vec<T, N>& y) { \
    Vec<T, N> r{};                                                       \
    for (int i = 0; i < N; ++i) r.v[i] = ::kapi::name(x.v[i], y.v[i]);   \
    return r;                                                            \
  }
KAPI_IMPL_VEC_UNARY(sqrt)
KAPI_IMPL_VEC_UNARY(rsqrt)
KAPI_IMPL_VEC_UNARY(fabs)
KAPI_IMPL_VEC_UNARY(floor)
KAPI_IMPL_VEC_UNARY(ceil)
KAPI_IMPL_VEC_UNARY(exp)
KAPI_IMPL_VEC_UNARY(log)
KAPI_IMPL_VEC_UNARY(sin)
KAPI_IMPL_VEC_UNARY(cos)
KAPI_IMPL_VEC_BINARY(fmin)
KAPI_IMPL_VEC_BINARY(fmax)
KAPI_IMPL_VEC_BINARY(pow)
#undef KAPI_IMPL_VEC_UNARY
#undef KAPI_IMPL_VEC_BINARY

/// x * y + z element-wise, one rounding each.
template <class T, int N>
KAPI_FUNCTION Vec<T, N> fma(const Vec<T, N>& x, const Vec<T, N>& y, const Vec<T, N>& z) {
  Vec<T, N> r{};
  for (int i = 0; i < N; ++i) r.v[i] = ::kapi::fma(x.v[i], y.v[i], z.v[i]);
  return r;
}

/// SYCL's geometric functions, for float and double Vecs.
template <class T, int N, class = std::enable_if_t<std::is_floating_point_v<T>>>
KAPI_FUNCTION T dot(const Vec<T, N>& a, const Vec<T, N>& b) {
  T s = a.v[0] * b.v[0];
  for (int i = 1; i < N; ++i) s += a.v[i] * b.v[i];
  return s;
}
template <class T, int N, class = std::enable_if_t<std::is_floating_point_v<T>>>
KAPI_FUNCTION T length(const Vec<T, N>& a) {
  return ::kapi::sqrt(dot(a, a));
}
template <class T, int N, class = std::enable_if_t<std::is_floating_point_v<T>>>
KAPI_FUNCTION T distance(const Vec<T, N>& a, const Vec<T, N>& b) {
  return length(a - b);
}
template <class T, int N, class = std::enable_if_t<std::is_floating_point_v<T>>>
KAPI_FUNCTION Vec<T, N> normalize(const Vec<T, N>& a) {
  return a * ::kapi::rsqrt(dot(a, a));
}
/// The cross product of the first three elements (SYCL: vec of 3 or 4; the fourth is 0).
template <class T, int N, class = std::enable_if_t<std::is_floating_point_v<T> && (N == 3 || N == 4)>>
KAPI_FUNCTION Vec<T, N> cross(const Vec<T, N>& a, const Vec<T, N>& b) {
  Vec<T, N> r{};
  r.v[0] = a.v[1] * b.v[2] - a.v[2] * b.v[1];
  r.v[1] = a.v[2] * b.v[0] - a.v[0] * b.v[2];
  r.v[2] = a.v[0] * b.v[1] - a.v[1] * b.v[0];
  return r;
}

}  // namespace kapi
