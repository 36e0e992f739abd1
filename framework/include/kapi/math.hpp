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
#include <cmath>
#include <limits>
#include <type_traits>

#include <kapi/config.hpp>

// 1 where the CUDA/HIP device math library is the implementation (their device passes).
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define KAPI_IMPL_DEVICE_LIBM 1
#else
#define KAPI_IMPL_DEVICE_LIBM 0
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
}  // namespace detail

// One-argument functions: float, double, and integers computed in double.
#if KAPI_IMPL_DEVICE_LIBM
#define KAPI_IMPL_MATH1(name)                                \
  KAPI_FUNCTION float name(float x) { return ::name##f(x); } \
  KAPI_FUNCTION double name(double x) { return ::name(x); }
#define KAPI_IMPL_MATH2(name)                                            \
  KAPI_FUNCTION float name(float x, float y) { return ::name##f(x, y); } \
  KAPI_FUNCTION double name(double x, double y) { return ::name(x, y); }
#else
#define KAPI_IMPL_MATH1(name)                                \
  KAPI_FUNCTION float name(float x) { return std::name(x); } \
  KAPI_FUNCTION double name(double x) { return std::name(x); }
#define KAPI_IMPL_MATH2(name)                                            \
  KAPI_FUNCTION float name(float x, float y) { return std::name(x, y); } \
  KAPI_FUNCTION double name(double x, double y) { return std::name(x, y); }
#endif

#define KAPI_IMPL_MATH1_INTEGERS(name)                                \
  template <class I, class = std::enable_if_t<std::is_integral_v<I>>> \
  KAPI_FUNCTION double name(I x) {                                    \
    return name(static_cast<double>(x));                              \
  }
#define KAPI_IMPL_MATH2_MIXED(name)                                                 \
  template <class A, class B, class = std::enable_if_t<detail::math_mixed_v<A, B>>> \
  KAPI_FUNCTION detail::math_promoted_t<A, B> name(A x, B y) {                      \
    using P = detail::math_promoted_t<A, B>;                                        \
    return name(static_cast<P>(x), static_cast<P>(y));                              \
  }

#define KAPI_IMPL_UNARY(name) KAPI_IMPL_MATH1(name) KAPI_IMPL_MATH1_INTEGERS(name)
#define KAPI_IMPL_BINARY(name) KAPI_IMPL_MATH2(name) KAPI_IMPL_MATH2_MIXED(name)

// Trigonometric and hyperbolic
KAPI_IMPL_UNARY(sin)
KAPI_IMPL_UNARY(cos)
KAPI_IMPL_UNARY(tan)
KAPI_IMPL_UNARY(asin)
KAPI_IMPL_UNARY(acos)
KAPI_IMPL_UNARY(atan)
KAPI_IMPL_BINARY(atan2)
KAPI_IMPL_UNARY(sinh)
KAPI_IMPL_UNARY(cosh)
KAPI_IMPL_UNARY(tanh)
KAPI_IMPL_UNARY(asinh)
KAPI_IMPL_UNARY(acosh)
KAPI_IMPL_UNARY(atanh)
// Exponential and logarithmic
KAPI_IMPL_UNARY(exp)
KAPI_IMPL_UNARY(exp2)
KAPI_IMPL_UNARY(expm1)
KAPI_IMPL_UNARY(log)
KAPI_IMPL_UNARY(log2)
KAPI_IMPL_UNARY(log10)
KAPI_IMPL_UNARY(log1p)
KAPI_IMPL_UNARY(logb)
// Powers and roots
KAPI_IMPL_BINARY(pow)
KAPI_IMPL_UNARY(sqrt)
KAPI_IMPL_UNARY(cbrt)
KAPI_IMPL_BINARY(hypot)
// Special functions
KAPI_IMPL_UNARY(erf)
KAPI_IMPL_UNARY(erfc)
KAPI_IMPL_UNARY(tgamma)
// Rounding (instructions on x86-64 with SSE4.1 and on GPUs)
KAPI_IMPL_UNARY(floor)
KAPI_IMPL_UNARY(ceil)
KAPI_IMPL_UNARY(trunc)
KAPI_IMPL_UNARY(rint)
// Arithmetic
KAPI_IMPL_UNARY(fabs)
KAPI_IMPL_BINARY(fmod)
KAPI_IMPL_BINARY(remainder)
KAPI_IMPL_BINARY(copysign)
KAPI_IMPL_BINARY(nextafter)

#undef KAPI_IMPL_UNARY
#undef KAPI_IMPL_BINARY

// --------------------------------------------------------------- device-only intrinsics

/// 1 / sqrt(x).
KAPI_FUNCTION float rsqrt(float x) {
#if KAPI_IMPL_DEVICE_LIBM
  return ::rsqrtf(x);
#else
  return static_cast<float>(1.0 / std::sqrt(static_cast<double>(x)));  // one rounding to float
#endif
}
KAPI_FUNCTION double rsqrt(double x) {
#if KAPI_IMPL_DEVICE_LIBM
  return ::rsqrt(x);
#else
  return 1.0 / std::sqrt(x);
#endif
}
KAPI_IMPL_MATH1_INTEGERS(rsqrt)

/// 10 to the power x.
KAPI_FUNCTION float exp10(float x) {
#if KAPI_IMPL_DEVICE_LIBM
  return ::exp10f(x);
#else
  return static_cast<float>(std::pow(10.0, static_cast<double>(x)));
#endif
}
KAPI_FUNCTION double exp10(double x) {
#if KAPI_IMPL_DEVICE_LIBM
  return ::exp10(x);
#elif defined(__GLIBC__)
  return ::exp10(x);  // GNU libm's own (a declared extension with _GNU_SOURCE, which g++ defines)
#else
  return std::pow(10.0, x);
#endif
}
KAPI_IMPL_MATH1_INTEGERS(exp10)

namespace detail {
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
  // a in [0, 1/2]: near 1/2, use the other function of the complement (exact again).
  using W = std::conditional_t<std::is_same_v<T, float>, double, T>;  // float: one rounding at the end
  const W p = static_cast<W>(pi);
  if (Cos) {
    const W v = a <= T(0.25) ? std::cos(p * W(a)) : std::sin(p * W(T(0.5) - a));
    return static_cast<T>(sign_cos * v);
  } else {
    if (a == T(0)) return x * T(0);  // at integers: +0 or -0 with x's sign (IEEE 754 sinPi)
    const W v = a <= T(0.25) ? std::sin(p * W(a)) : std::cos(p * W(T(0.5) - a));
    return static_cast<T>(sign_sin * v);
  }
}
}  // namespace detail

/// sin(pi x), exact at integers and half-integers.
KAPI_FUNCTION float sinpi(float x) {
#if KAPI_IMPL_DEVICE_LIBM
  return ::sinpif(x);
#else
  return detail::host_sincos_pi<float, false>(x);
#endif
}
KAPI_FUNCTION double sinpi(double x) {
#if KAPI_IMPL_DEVICE_LIBM
  return ::sinpi(x);
#else
  return detail::host_sincos_pi<double, false>(x);
#endif
}
KAPI_IMPL_MATH1_INTEGERS(sinpi)

/// cos(pi x), exact at integers and half-integers.
KAPI_FUNCTION float cospi(float x) {
#if KAPI_IMPL_DEVICE_LIBM
  return ::cospif(x);
#else
  return detail::host_sincos_pi<float, true>(x);
#endif
}
KAPI_FUNCTION double cospi(double x) {
#if KAPI_IMPL_DEVICE_LIBM
  return ::cospi(x);
#else
  return detail::host_sincos_pi<double, true>(x);
#endif
}
KAPI_IMPL_MATH1_INTEGERS(cospi)

/// sin(x), and cos(x) stored at *cosval (SYCL's sincos).
KAPI_FUNCTION float sincos(float x, float* cosval) {
#if KAPI_IMPL_DEVICE_LIBM
  float s;
  ::sincosf(x, &s, cosval);
  return s;
#else
  *cosval = std::cos(x);
  return std::sin(x);  // g++ merges the pair into one sincos call
#endif
}
KAPI_FUNCTION double sincos(double x, double* cosval) {
#if KAPI_IMPL_DEVICE_LIBM
  double s;
  ::sincos(x, &s, cosval);
  return s;
#else
  *cosval = std::cos(x);
  return std::sin(x);
#endif
}

// ------------------------------------------------ exact operations written inline on a host

/// The smaller of x and y; a NaN operand is ignored (IEEE minNum, as fmin).
KAPI_FUNCTION float fmin(float x, float y) {
#if KAPI_IMPL_DEVICE_LIBM
  return ::fminf(x, y);
#else
  return (y < x || x != x) ? y : x;
#endif
}
KAPI_FUNCTION double fmin(double x, double y) {
#if KAPI_IMPL_DEVICE_LIBM
  return ::fmin(x, y);
#else
  return (y < x || x != x) ? y : x;
#endif
}
KAPI_IMPL_MATH2_MIXED(fmin)

/// The larger of x and y; a NaN operand is ignored (IEEE maxNum, as fmax).
KAPI_FUNCTION float fmax(float x, float y) {
#if KAPI_IMPL_DEVICE_LIBM
  return ::fmaxf(x, y);
#else
  return (x < y || x != x) ? y : x;
#endif
}
KAPI_FUNCTION double fmax(double x, double y) {
#if KAPI_IMPL_DEVICE_LIBM
  return ::fmax(x, y);
#else
  return (x < y || x != x) ? y : x;
#endif
}
KAPI_IMPL_MATH2_MIXED(fmax)

/// x - y when x > y, else +0; NaN if either is NaN.
KAPI_FUNCTION float fdim(float x, float y) {
#if KAPI_IMPL_DEVICE_LIBM
  return ::fdimf(x, y);
#else
  return (x != x || y != y) ? x + y : x > y ? x - y : 0.0f;
#endif
}
KAPI_FUNCTION double fdim(double x, double y) {
#if KAPI_IMPL_DEVICE_LIBM
  return ::fdim(x, y);
#else
  return (x != x || y != y) ? x + y : x > y ? x - y : 0.0;
#endif
}
KAPI_IMPL_MATH2_MIXED(fdim)

namespace detail {
// Halfway cases away from zero: x - trunc(x) is exact, so is the comparison with 1/2.
template <class T>
T host_round(T x) {
  const T t = std::trunc(x);
  return std::fabs(x - t) >= T(0.5) ? t + std::copysign(T(1), x) : t;
}
}  // namespace detail

/// x rounded to the nearest integer, halfway cases away from zero.
KAPI_FUNCTION float round(float x) {
#if KAPI_IMPL_DEVICE_LIBM
  return ::roundf(x);
#else
  return detail::host_round(x);
#endif
}
KAPI_FUNCTION double round(double x) {
#if KAPI_IMPL_DEVICE_LIBM
  return ::round(x);
#else
  return detail::host_round(x);
#endif
}
KAPI_IMPL_MATH1_INTEGERS(round)

/// log |Gamma(x)|. On a host, glibc's lgamma_r: lgamma itself writes the global signgam,
/// a data race between work-items.
KAPI_FUNCTION float lgamma(float x) {
#if KAPI_IMPL_DEVICE_LIBM
  return ::lgammaf(x);
#elif defined(__GLIBC__)
  int sign;
  return ::lgammaf_r(x, &sign);
#else
  return std::lgamma(x);
#endif
}
KAPI_FUNCTION double lgamma(double x) {
#if KAPI_IMPL_DEVICE_LIBM
  return ::lgamma(x);
#elif defined(__GLIBC__)
  int sign;
  return ::lgamma_r(x, &sign);
#else
  return std::lgamma(x);
#endif
}
KAPI_IMPL_MATH1_INTEGERS(lgamma)

// ------------------------------------------------------------------- three-argument and mixed

/// x * y + z with one rounding.
KAPI_FUNCTION float fma(float x, float y, float z) {
#if KAPI_IMPL_DEVICE_LIBM
  return ::fmaf(x, y, z);
#else
  return std::fma(x, y, z);
#endif
}
KAPI_FUNCTION double fma(double x, double y, double z) {
#if KAPI_IMPL_DEVICE_LIBM
  return ::fma(x, y, z);
#else
  return std::fma(x, y, z);
#endif
}

/// x to the integer power n (SYCL's pown).
KAPI_FUNCTION float pown(float x, int n) { return pow(x, static_cast<float>(n)); }
KAPI_FUNCTION double pown(double x, int n) { return pow(x, static_cast<double>(n)); }

/// x * 2^n, exact unless it overflows or underflows.
KAPI_FUNCTION float ldexp(float x, int n) {
#if KAPI_IMPL_DEVICE_LIBM
  return ::ldexpf(x, n);
#else
  return std::ldexp(x, n);
#endif
}
KAPI_FUNCTION double ldexp(double x, int n) {
#if KAPI_IMPL_DEVICE_LIBM
  return ::ldexp(x, n);
#else
  return std::ldexp(x, n);
#endif
}

/// The mantissa in [1/2, 1) (sign of x), and the exponent stored at *exp.
KAPI_FUNCTION float frexp(float x, int* exp) {
#if KAPI_IMPL_DEVICE_LIBM
  return ::frexpf(x, exp);
#else
  return std::frexp(x, exp);
#endif
}
KAPI_FUNCTION double frexp(double x, int* exp) {
#if KAPI_IMPL_DEVICE_LIBM
  return ::frexp(x, exp);
#else
  return std::frexp(x, exp);
#endif
}

/// The fractional part of x, its integral part stored at *iptr (both with x's sign).
KAPI_FUNCTION float modf(float x, float* iptr) {
#if KAPI_IMPL_DEVICE_LIBM
  return ::modff(x, iptr);
#else
  return std::modf(x, iptr);
#endif
}
KAPI_FUNCTION double modf(double x, double* iptr) {
#if KAPI_IMPL_DEVICE_LIBM
  return ::modf(x, iptr);
#else
  return std::modf(x, iptr);
#endif
}

/// The unbiased exponent of x as an int (FP_ILOGB0 for 0, FP_ILOGBNAN for NaN, INT_MAX for inf).
KAPI_FUNCTION int ilogb(float x) {
#if KAPI_IMPL_DEVICE_LIBM
  return ::ilogbf(x);
#else
  return std::ilogb(x);
#endif
}
KAPI_FUNCTION int ilogb(double x) {
#if KAPI_IMPL_DEVICE_LIBM
  return ::ilogb(x);
#else
  return std::ilogb(x);
#endif
}

// ------------------------------------------------------------- classification (bool results)

KAPI_FUNCTION bool isnan(float x) { return x != x; }
KAPI_FUNCTION bool isnan(double x) { return x != x; }
KAPI_FUNCTION bool isinf(float x) { return fabs(x) == HUGE_VALF; }
KAPI_FUNCTION bool isinf(double x) { return fabs(x) == HUGE_VAL; }
KAPI_FUNCTION bool isfinite(float x) { return fabs(x) < HUGE_VALF; }
KAPI_FUNCTION bool isfinite(double x) { return fabs(x) < HUGE_VAL; }
/// Whether x's sign bit is set (true for -0.0 and negative NaNs).
KAPI_FUNCTION bool signbit(float x) { return copysign(1.0f, x) < 0.0f; }
KAPI_FUNCTION bool signbit(double x) { return copysign(1.0, x) < 0.0; }

// ------------------------------------------------------------ SYCL's common functions

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

/// Radians to degrees, and back.
KAPI_FUNCTION float degrees(float radians) { return radians * 57.295779513082320876798154814105f; }
KAPI_FUNCTION double degrees(double radians) { return radians * 57.295779513082320876798154814105; }
KAPI_FUNCTION float radians(float degrees) { return degrees * 0.017453292519943295769236907684886f; }
KAPI_FUNCTION double radians(double degrees) { return degrees * 0.017453292519943295769236907684886; }

/// x + (y - x) * a: linear blend of x and y.
KAPI_FUNCTION float mix(float x, float y, float a) { return x + (y - x) * a; }
KAPI_FUNCTION double mix(double x, double y, double a) { return x + (y - x) * a; }

/// 0 if x < edge, else 1.
KAPI_FUNCTION float step(float edge, float x) { return x < edge ? 0.0f : 1.0f; }
KAPI_FUNCTION double step(double edge, double x) { return x < edge ? 0.0 : 1.0; }

/// 1 for x > 0, -1 for x < 0, x itself for ±0 and NaN (SYCL's sign).
KAPI_FUNCTION float sign(float x) { return x > 0.0f ? 1.0f : x < 0.0f ? -1.0f : x; }
KAPI_FUNCTION double sign(double x) { return x > 0.0 ? 1.0 : x < 0.0 ? -1.0 : x; }

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

#undef KAPI_IMPL_MATH1
#undef KAPI_IMPL_MATH2
#undef KAPI_IMPL_MATH1_INTEGERS
#undef KAPI_IMPL_MATH2_MIXED

}  // namespace kapi

#undef KAPI_IMPL_DEVICE_LIBM
