// SPDX-License-Identifier: Apache-2.0
#pragma once
// Math built-ins for kernels: the SYCL 2020 math set that numba-dpex kernels reach through
// Python's math module and SYCL kernels through sycl::, as kapi::sqrt, kapi::exp, ... for
// float and double (integer arguments compute in double, as <cmath> does).
//   const float r = kapi::sqrt(x * x + y * y);     // sycl::sqrt / math.sqrt
//   out(i) = kapi::exp(-kapi::fabs(a(i))) * kapi::rsqrt(b(i));
//
// Each resolves to the fastest correct implementation where it is compiled:
//  - CUDA/HIP device code: the device math library (::sqrtf, ::rsqrtf, ::exp10, ...),
//    hardware instructions where they exist;
//  - host code (host backends, and the host pass of a CUDA build): <cmath>, except where
//    libm's version is a library call and an inline one is exact: fmin, fmax, fdim and
//    round are written here (branch-free, vectorisable, IEEE results including NaN and
//    signed zeros), rsqrt is 1/sqrt, sinpi and cospi reduce their argument exactly.
//    Float overloads compute in float (float's libm and operations), never through double.
// Nothing here depends on the Kokkos version (Kokkos 3.4 keeps its math functions in
// Kokkos::Experimental, 3.7 and later in Kokkos::).
//
// Accuracy: the README's API page lists the bound in ULPs of each function on every
// backend (tests/test_math.cpp checks them against long double references on every
// execution space).
//
// The set: trigonometric sin cos tan sincos sinpi cospi asin acos atan atan2; hyperbolic
// sinh cosh tanh asinh acosh atanh; exponential and logarithmic exp exp2 exp10 expm1 log
// log2 log10 log1p logb ilogb ldexp frexp; powers pow pown sqrt rsqrt cbrt hypot; special
// erf erfc tgamma lgamma; rounding floor ceil round trunc rint modf; arithmetic fabs fmin
// fmax fdim fmod remainder copysign nextafter fma; SYCL's common functions clamp degrees
// radians mix sign step, and abs, min, max; classification isnan isinf isfinite signbit.
//
// How it is written: the float and double overloads of each function come from one macro
// per signature shape (KAPI_IMPL_MATH_UNARY, _BINARY, ...), given the function's name and
// its host implementation; the device one is the device library's ::namef / ::name.
// The device/host choice is made once, in KAPI_IMPL_LIBM_OR_HOST.
#include <cmath>
#include <limits>
#include <type_traits>

#include <kapi/config.hpp>

// KAPI_IMPL_LIBM_OR_HOST(device, host): the function a generated overload calls, the CUDA/HIP
// device math library's in device passes. kapi's device passes are CUDA's and HIP's only: any
// other device compiler fails to compile (config.hpp, or names such as ::rsqrtf here), never
// silently computing with host code.
#if KAPI_COMPILING_DEVICE_CODE
#define KAPI_IMPL_LIBM_OR_HOST(device, host) device
#else
#define KAPI_IMPL_LIBM_OR_HOST(device, host) host
#endif

namespace kapi {

namespace detail {
template <class T>
inline constexpr bool math_float_v = std::is_same_v<T, float> || std::is_same_v<T, double>;
template <class A, class B>
inline constexpr bool math_mixed_v =
    std::is_arithmetic_v<A>&& std::is_arithmetic_v<B> &&
    !(math_float_v<A> && std::is_same_v<A, B>)&&!std::is_same_v<A, long double> && !std::is_same_v<B, long double>;
/// The type a mixed call computes in: double, unless both are float (as <cmath> promotes).
template <class A, class B>
using math_promoted_t = std::conditional_t<std::is_same_v<A, float> && std::is_same_v<B, float>, float, double>;

// --------------------------------------------------- host implementations other than <cmath>

// Float overloads compute in float on a host too: a round trip through double costs a
// double-precision libm call and halves the vector width, and float's own operations
// already meet the bounds (README). 1/sqrt rounds twice: within 1.5 ULP.
template <class T>
T host_rsqrt(T x) {
  return T(1) / std::sqrt(x);
}

// powf of an exact 10 is within 1 ULP of 10^x.
inline float host_exp10(float x) { return std::pow(10.0f, x); }

// glibc has exp10 (a GNU extension, declared with _GNU_SOURCE, which g++ defines) and
// lgamma_r: lgamma itself writes the global signgam, a data race between work-items.
#if defined(__GLIBC__)
inline double host_exp10(double x) { return ::exp10(x); }
inline float host_lgamma(float x) {
  int sign;
  return ::lgammaf_r(x, &sign);
}
inline double host_lgamma(double x) {
  int sign;
  return ::lgamma_r(x, &sign);
}
#else
inline double host_exp10(double x) { return std::pow(10.0, x); }
inline float host_lgamma(float x) { return std::lgamma(x); }
inline double host_lgamma(double x) { return std::lgamma(x); }
#endif

// sin(pi x) and cos(pi x) on a host: x reduced exactly to r in [-1/4, 1/4] and a quadrant
// (x - 2 rint(x/2) and the folds are exact in floating point), then sin or cos of pi r.
template <class T, bool Cos>
T host_sincos_pi(T x) {
  if (!(std::fabs(x) < std::numeric_limits<T>::infinity())) return x - x;  // NaN for inf and NaN
  T r = x - T(2) * std::rint(x * T(0.5));                                  // r in [-1, 1], exact
  // sin(pi r) = sin(pi (1 - r)) for r in [1/2, 1], and cos(pi r) = -cos(pi (1 - r)).
  const bool neg_half = r < T(0);
  T a = neg_half ? -r : r;  // a in [0, 1]
  T sign_sin = neg_half ? T(-1) : T(1), sign_cos = T(1);
  if (a > T(0.5)) {
    a = T(1) - a;  // exact (Sterbenz)
    sign_cos = T(-1);
  }
  constexpr long double pi = 3.141592653589793238462643383279502884L;
  // a in [0, 1/2]: near 1/2, use the other function of the complement (exact again). For
  // float, pi a is one double product rounded once to float; sinf and cosf of it, in float.
  using W = std::conditional_t<std::is_same_v<T, float>, double, T>;
  const W p = static_cast<W>(pi);
  const bool near = a <= T(0.25);
  const T t = static_cast<T>(p * W(near ? a : T(0.5) - a));  // pi a or pi (1/2 - a), in [0, pi/4]
  if (Cos) return sign_cos * (near ? std::cos(t) : std::sin(t));
  if (a == T(0)) return x * T(0);  // at integers: +0 or -0 with x's sign (IEEE 754 sinPi)
  return sign_sin * (near ? std::sin(t) : std::cos(t));
}
template <class T>
T host_sinpi(T x) {
  return host_sincos_pi<T, false>(x);
}
template <class T>
T host_cospi(T x) {
  return host_sincos_pi<T, true>(x);
}

// The device library's signature: both results through pointers.
template <class T>
void host_sincos(T x, T* s, T* c) {
  *c = std::cos(x);
  *s = std::sin(x);  // g++ merges the pair into one sincos call
}

// IEEE minNum / maxNum: a NaN operand is ignored.
template <class T>
T host_fmin(T x, T y) {
  return (y < x || x != x) ? y : x;
}
template <class T>
T host_fmax(T x, T y) {
  return (x < y || x != x) ? y : x;
}
template <class T>
T host_fdim(T x, T y) {
  return (x != x || y != y) ? x + y : x > y ? x - y : T(0);
}
// Halfway cases away from zero: x - trunc(x) is exact, so is the comparison with 1/2.
template <class T>
T host_round(T x) {
  const T t = std::trunc(x);
  return std::fabs(x - t) >= T(0.5) ? t + std::copysign(T(1), x) : t;
}
}  // namespace detail

// ------------------------------------------------------------------ the shapes
// Each defines name(float), calling ::name##f on a device, and name(double), calling ::name;
// host is the host implementation, called with the same arguments.

// T -> R, with R float/double as given (ilogb returns int).
#define KAPI_IMPL_MATH_UNARY_TO(RF, RD, name, host)                                     \
  KAPI_FUNCTION RF name(float x) { return KAPI_IMPL_LIBM_OR_HOST(::name##f, host)(x); } \
  KAPI_FUNCTION RD name(double x) { return KAPI_IMPL_LIBM_OR_HOST(::name, host)(x); }

// T -> T, and integers computed in double.
#define KAPI_IMPL_MATH_UNARY(name, host)                              \
  KAPI_IMPL_MATH_UNARY_TO(float, double, name, host)                  \
  template <class I, class = std::enable_if_t<std::is_integral_v<I>>> \
  KAPI_FUNCTION double name(I x) {                                    \
    return name(static_cast<double>(x));                              \
  }

// (T, T) -> T, and mixed arithmetic arguments computed in their promoted type.
#define KAPI_IMPL_MATH_BINARY(name, host)                                                              \
  KAPI_FUNCTION float name(float x, float y) { return KAPI_IMPL_LIBM_OR_HOST(::name##f, host)(x, y); } \
  KAPI_FUNCTION double name(double x, double y) { return KAPI_IMPL_LIBM_OR_HOST(::name, host)(x, y); } \
  template <class A, class B, class = std::enable_if_t<detail::math_mixed_v<A, B>>>                    \
  KAPI_FUNCTION detail::math_promoted_t<A, B> name(A x, B y) {                                         \
    using P = detail::math_promoted_t<A, B>;                                                           \
    return name(static_cast<P>(x), static_cast<P>(y));                                                 \
  }

// (T, T, T) -> T.
#define KAPI_IMPL_MATH_TERNARY(name, host)                                                                         \
  KAPI_FUNCTION float name(float x, float y, float z) { return KAPI_IMPL_LIBM_OR_HOST(::name##f, host)(x, y, z); } \
  KAPI_FUNCTION double name(double x, double y, double z) { return KAPI_IMPL_LIBM_OR_HOST(::name, host)(x, y, z); }

// (T, extra) -> T, extra of type EF for float and ED for double (an int, or a pointer to a result).
#define KAPI_IMPL_MATH_WITH_EXTRA(name, EF, ED, host)                                               \
  KAPI_FUNCTION float name(float x, EF e) { return KAPI_IMPL_LIBM_OR_HOST(::name##f, host)(x, e); } \
  KAPI_FUNCTION double name(double x, ED e) { return KAPI_IMPL_LIBM_OR_HOST(::name, host)(x, e); }

// T -> T with a second result stored at *r2, where the library stores both: (x, &r1, r2).
#define KAPI_IMPL_MATH_TWO_RESULTS(name, host)           \
  KAPI_FUNCTION float name(float x, float* r2) {         \
    float r1;                                            \
    KAPI_IMPL_LIBM_OR_HOST(::name##f, host)(x, &r1, r2); \
    return r1;                                           \
  }                                                      \
  KAPI_FUNCTION double name(double x, double* r2) {      \
    double r1;                                           \
    KAPI_IMPL_LIBM_OR_HOST(::name, host)(x, &r1, r2);    \
    return r1;                                           \
  }

// ------------------------------------------------------------------ the functions

// Trigonometric and hyperbolic
KAPI_IMPL_MATH_UNARY(sin, std::sin)
KAPI_IMPL_MATH_UNARY(cos, std::cos)
KAPI_IMPL_MATH_UNARY(tan, std::tan)
KAPI_IMPL_MATH_UNARY(asin, std::asin)
KAPI_IMPL_MATH_UNARY(acos, std::acos)
KAPI_IMPL_MATH_UNARY(atan, std::atan)
KAPI_IMPL_MATH_BINARY(atan2, std::atan2)
KAPI_IMPL_MATH_UNARY(sinh, std::sinh)
KAPI_IMPL_MATH_UNARY(cosh, std::cosh)
KAPI_IMPL_MATH_UNARY(tanh, std::tanh)
KAPI_IMPL_MATH_UNARY(asinh, std::asinh)
KAPI_IMPL_MATH_UNARY(acosh, std::acosh)
KAPI_IMPL_MATH_UNARY(atanh, std::atanh)
/// sin(pi x) and cos(pi x), exact at integers and half-integers.
KAPI_IMPL_MATH_UNARY(sinpi, detail::host_sinpi)
KAPI_IMPL_MATH_UNARY(cospi, detail::host_cospi)
/// sin(x), and cos(x) stored at *cosval (SYCL's sincos).
KAPI_IMPL_MATH_TWO_RESULTS(sincos, detail::host_sincos)

// Exponential and logarithmic
KAPI_IMPL_MATH_UNARY(exp, std::exp)
KAPI_IMPL_MATH_UNARY(exp2, std::exp2)
/// 10 to the power x.
KAPI_IMPL_MATH_UNARY(exp10, detail::host_exp10)
KAPI_IMPL_MATH_UNARY(expm1, std::expm1)
KAPI_IMPL_MATH_UNARY(log, std::log)
KAPI_IMPL_MATH_UNARY(log2, std::log2)
KAPI_IMPL_MATH_UNARY(log10, std::log10)
KAPI_IMPL_MATH_UNARY(log1p, std::log1p)
KAPI_IMPL_MATH_UNARY(logb, std::logb)
/// The unbiased exponent of x as an int (FP_ILOGB0 for 0, FP_ILOGBNAN for NaN, INT_MAX for inf).
KAPI_IMPL_MATH_UNARY_TO(int, int, ilogb, std::ilogb)
/// x * 2^n, exact unless it overflows or underflows.
KAPI_IMPL_MATH_WITH_EXTRA(ldexp, int, int, std::ldexp)
/// The mantissa in [1/2, 1) (sign of x), and the exponent stored at *exp.
KAPI_IMPL_MATH_WITH_EXTRA(frexp, int*, int*, std::frexp)

// Powers and roots
KAPI_IMPL_MATH_BINARY(pow, std::pow)
KAPI_IMPL_MATH_UNARY(sqrt, std::sqrt)
/// 1 / sqrt(x).
KAPI_IMPL_MATH_UNARY(rsqrt, detail::host_rsqrt)
KAPI_IMPL_MATH_UNARY(cbrt, std::cbrt)
KAPI_IMPL_MATH_BINARY(hypot, std::hypot)

// Special functions
KAPI_IMPL_MATH_UNARY(erf, std::erf)
KAPI_IMPL_MATH_UNARY(erfc, std::erfc)
KAPI_IMPL_MATH_UNARY(tgamma, std::tgamma)
/// log |Gamma(x)|, race-free on a host (see detail::host_lgamma).
KAPI_IMPL_MATH_UNARY(lgamma, detail::host_lgamma)

// Rounding (instructions on x86-64 with SSE4.1 and on GPUs)
KAPI_IMPL_MATH_UNARY(floor, std::floor)
KAPI_IMPL_MATH_UNARY(ceil, std::ceil)
KAPI_IMPL_MATH_UNARY(trunc, std::trunc)
KAPI_IMPL_MATH_UNARY(rint, std::rint)
/// x rounded to the nearest integer, halfway cases away from zero.
KAPI_IMPL_MATH_UNARY(round, detail::host_round)
/// The fractional part of x, its integral part stored at *iptr (both with x's sign).
KAPI_IMPL_MATH_WITH_EXTRA(modf, float*, double*, std::modf)

// Arithmetic
KAPI_IMPL_MATH_UNARY(fabs, std::fabs)
/// The smaller / larger of x and y; a NaN operand is ignored (IEEE minNum / maxNum).
KAPI_IMPL_MATH_BINARY(fmin, detail::host_fmin)
KAPI_IMPL_MATH_BINARY(fmax, detail::host_fmax)
/// x - y when x > y, else +0; NaN if either is NaN.
KAPI_IMPL_MATH_BINARY(fdim, detail::host_fdim)
KAPI_IMPL_MATH_BINARY(fmod, std::fmod)
KAPI_IMPL_MATH_BINARY(remainder, std::remainder)
KAPI_IMPL_MATH_BINARY(copysign, std::copysign)
KAPI_IMPL_MATH_BINARY(nextafter, std::nextafter)
/// x * y + z with one rounding.
KAPI_IMPL_MATH_TERNARY(fma, std::fma)

// -------------------------------------- written here for both types: pown, classification,
// SYCL's common functions (the same code on a device and a host)
//   pown(x, n): x to the integer power n (SYCL's pown).
//   isnan, isinf, isfinite; signbit: whether x's sign bit is set (true for -0.0 and negative NaNs).
//   degrees(radians), radians(degrees).
//   mix(x, y, a): x + (y - x) * a, the linear blend of x and y.
//   step(edge, x): 0 if x < edge, else 1.
//   sign(x): 1 for x > 0, -1 for x < 0, x itself for ±0 and NaN (SYCL's sign).
// T(c) for the two constants c: in float, the same value as the literal with an f suffix.
#define KAPI_IMPL_MATH_COMMON(T)                                                                  \
  KAPI_FUNCTION T pown(T x, int n) { return pow(x, static_cast<T>(n)); }                          \
  KAPI_FUNCTION bool isnan(T x) { return x != x; }                                                \
  KAPI_FUNCTION bool isinf(T x) { return fabs(x) == T(HUGE_VAL); }                                \
  KAPI_FUNCTION bool isfinite(T x) { return fabs(x) < T(HUGE_VAL); }                              \
  KAPI_FUNCTION bool signbit(T x) { return copysign(T(1), x) < T(0); }                            \
  KAPI_FUNCTION T degrees(T radians) { return radians * T(57.295779513082320876798154814105); }   \
  KAPI_FUNCTION T radians(T degrees) { return degrees * T(0.017453292519943295769236907684886); } \
  KAPI_FUNCTION T mix(T x, T y, T a) { return x + (y - x) * a; }                                  \
  KAPI_FUNCTION T step(T edge, T x) { return x < edge ? T(0) : T(1); }                            \
  KAPI_FUNCTION T sign(T x) { return x > T(0) ? T(1) : x < T(0) ? T(-1) : x; }
KAPI_IMPL_MATH_COMMON(float)
KAPI_IMPL_MATH_COMMON(double)

/// min(max(x, lo), hi) (SYCL's clamp: fmin/fmax for floating point, so a NaN x gives lo;
/// integers compare). Undefined when lo > hi, as in SYCL.
template <class T, class = std::enable_if_t<std::is_arithmetic_v<T>>>
KAPI_FUNCTION T clamp(T x, T lo, T hi) {
  if constexpr (std::is_floating_point_v<T>) {
    return fmin(fmax(x, lo), hi);
  } else {
    return x < lo ? lo : hi < x ? hi : x;
  }
}

/// |x| for integers and floating point (SYCL's abs; fabs for floating point).
template <class T, class = std::enable_if_t<std::is_arithmetic_v<T>>>
KAPI_FUNCTION T abs(T x) {
  if constexpr (std::is_floating_point_v<T>) {
    return fabs(x);
  } else if constexpr (std::is_signed_v<T>) {
    return x < T(0) ? T(-x) : x;
  } else {
    return x;
  }
}

/// The smaller / larger of two values of one arithmetic type (Python's min and max on two
/// numbers; SYCL's min and max): y if y < x, else x (resp. y if x < y). Floating point
/// with a NaN: use fmin/fmax.
template <class T, class = std::enable_if_t<std::is_arithmetic_v<T>>>
KAPI_FUNCTION constexpr T min(T x, T y) {
  return y < x ? y : x;
}
template <class T, class = std::enable_if_t<std::is_arithmetic_v<T>>>
KAPI_FUNCTION constexpr T max(T x, T y) {
  return x < y ? y : x;
}

}  // namespace kapi

#undef KAPI_IMPL_LIBM_OR_HOST
#undef KAPI_IMPL_MATH_UNARY_TO
#undef KAPI_IMPL_MATH_UNARY
#undef KAPI_IMPL_MATH_BINARY
#undef KAPI_IMPL_MATH_TERNARY
#undef KAPI_IMPL_MATH_WITH_EXTRA
#undef KAPI_IMPL_MATH_TWO_RESULTS
#undef KAPI_IMPL_MATH_COMMON
