// SPDX-License-Identifier: Apache-2.0
// kapi::Vec as SYCL's vec (issue 36): construction, named elements, element-wise
// arithmetic with vecs and scalars, comparison masks, load/store at SYCL's offsets, and
// the geometric and math functions, in kernels on every execution space, each against a
// plain scalar loop on the host; and an all-pairs n-body step written with vec<float, 4>.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include <kapi/item.hpp>
#include <kapi/launch.hpp>
#include <kapi/math.hpp>
#include <kapi/range.hpp>
#include <kapi/vec.hpp>

#include "execution_spaces.hpp"

namespace {

// ---- The type: SYCL's sizes, trivially copyable, uninitialised by default -------------

template <class T, int N>
constexpr bool shaped_as_sycl() {
  constexpr int stored = N == 3 ? 4 : N;
  return sizeof(kapi::Vec<T, N>) == sizeof(T) * stored && alignof(kapi::Vec<T, N>) == sizeof(T) * stored &&
         std::is_trivially_copyable_v<kapi::Vec<T, N>> && std::is_trivially_default_constructible_v<kapi::Vec<T, N>> &&
         kapi::Vec<T, N>::size() == std::size_t(N);
}
static_assert(shaped_as_sycl<float, 1>() && shaped_as_sycl<float, 2>() && shaped_as_sycl<float, 3>() &&
              shaped_as_sycl<float, 4>() && shaped_as_sycl<float, 8>() && shaped_as_sycl<float, 16>());
static_assert(shaped_as_sycl<double, 3>() && shaped_as_sycl<int, 16>() && shaped_as_sycl<std::int8_t, 4>());
static_assert(std::is_same_v<decltype(kapi::Vec<float, 4>() < kapi::Vec<float, 4>()), kapi::Vec<std::int32_t, 4>>);
static_assert(std::is_same_v<decltype(kapi::Vec<double, 2>() == 1.0), kapi::Vec<std::int64_t, 2>>);
static_assert(!std::is_convertible_v<float, kapi::Vec<float, 4>>);  // broadcast is explicit, as in SYCL

TEST(SyclVec, ConstructionAndNamedElements) {
  const kapi::Vec<float, 4> p(1, 2, 3, 4), b(2.5f);
  EXPECT_EQ(p.x(), 1.f);
  EXPECT_EQ(p.y(), 2.f);
  EXPECT_EQ(p.z(), 3.f);
  EXPECT_EQ(p.w(), 4.f);
  EXPECT_EQ(p.a(), 4.f);
  EXPECT_EQ(p.s2(), 3.f);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(b[i], 2.5f);
  kapi::Vec<int, 16> s{};
  for (int i = 0; i < 16; ++i) EXPECT_EQ(s[i], 0);
  s.sF() = 7;
  EXPECT_EQ(s[15], 7);
  const kapi::Vec<float, 3> c = kapi::Vec<int, 3>(1, -2, 3).convert<float>();
  EXPECT_EQ(c.z(), 3.f);
  EXPECT_EQ(c.y(), -2.f);
}

// ---- Element-wise arithmetic in kernels, all SYCL widths ------------------------------

// SYCL: vec<T, N> a, b; a.load(i, in_a); b.load(i, in_b);
//       r = (a + b) * T(2) - a / b + T(1) - (-b); r *= b; r.store(i, out);
// with % and the bitwise operators for integers, and the comparisons' masks.
template <class T, int N>
struct Arithmetic {
  template <class View, class Mask>
  KOKKOS_INLINE_FUNCTION void operator()(kapi::Item<1> it, const View& a_in, const View& b_in, const View& out,
                                         const Mask& masks) const {
    const std::size_t i = it.get_id(0);
    kapi::Vec<T, N> a, b;
    a.load(i, a_in.data());
    b.load(i, b_in.data());
    kapi::Vec<T, N> r = (a + b) * T(2) - a / b + T(1) - (-b);
    r *= b;
    r -= T(3) * a;
    if constexpr (std::is_integral_v<T>) r = (r % b) + (a & b) + (a | T(1)) - (a ^ b) + (b << 1) + (r >> 2);
    r.store(i, out.data());
    const auto lt = a < b, ge = a >= T(5), eq = a == b, ne = T(4) != b;
    for (int k = 0; k < N; ++k)
      masks(i * N + std::size_t(k)) =
          std::int64_t(lt[k]) + 2 * std::int64_t(ge[k]) + 4 * std::int64_t(eq[k]) + 8 * std::int64_t(ne[k]);
  }
};

template <class T>
T arithmetic_reference(T a, T b) {
  T r = (a + b) * T(2) - a / b + T(1) - (-b);
  r = T(r * b);
  r = T(r - T(3) * a);
  if constexpr (std::is_integral_v<T>) r = T((r % b) + (a & b) + (a | T(1)) - (a ^ b) + (b << 1) + (r >> 2));
  return r;
}

template <class T, int N, class Space>
void check_arithmetic() {
  const std::size_t vectors = 29, n = vectors * N;
  auto a = kapi_test::make_view<T, Space>("a", n, [](std::size_t i) { return T(i % 13 + 1); });
  auto b = kapi_test::make_view<T, Space>("b", n, [](std::size_t i) { return T((i * 7) % 11 + 1); });
  Kokkos::View<T*, typename Space::memory_space> out("out", n);
  Kokkos::View<std::int64_t*, typename Space::memory_space> masks("masks", n);
  kapi::call_kernel(Space(), Arithmetic<T, N>{}, kapi::Range<1>(vectors), a, b, out, masks);
  const auto h = kapi_test::to_host(out);
  const auto hm = kapi_test::to_host(masks);
  for (std::size_t i = 0; i < n; ++i) {
    const T x = T(i % 13 + 1), y = T((i * 7) % 11 + 1);
    if constexpr (std::is_integral_v<T>) {
      ASSERT_EQ(h(i), arithmetic_reference(x, y)) << "element " << i << ", N " << N;
    } else {  // a device compiler may contract r * b - 3 a into one fma
      const T ref = arithmetic_reference(x, y);
      ASSERT_NEAR(h(i), ref, T(1e-5) * (T(1) + std::fabs(ref))) << "element " << i << ", N " << N;
    }
    // SYCL's true is -1 in every bit: the weighted sum of four masks is minus the sum of the weights.
    const std::int64_t expected =
        -(std::int64_t(x < y) + 2 * std::int64_t(x >= T(5)) + 4 * std::int64_t(x == y) + 8 * std::int64_t(T(4) != y));
    ASSERT_EQ(hm(i), expected) << "element " << i << ", N " << N;
  }
}

template <class T, class Space>
void check_every_width() {
  check_arithmetic<T, 1, Space>();
  check_arithmetic<T, 2, Space>();
  check_arithmetic<T, 3, Space>();
  check_arithmetic<T, 4, Space>();
  check_arithmetic<T, 8, Space>();
  check_arithmetic<T, 16, Space>();
}

// ---- Geometric and math functions ----------------------------------------------------

struct Geometry {
  template <class View>
  KOKKOS_INLINE_FUNCTION void operator()(kapi::Item<1> it, const View& in, const View& out) const {
    const std::size_t i = it.get_id(0);
    kapi::Vec<float, 4> p, q;
    p.load(2 * i, in.data());
    q.load(2 * i + 1, in.data());
    const kapi::Vec<float, 4> c = kapi::cross(p, q), u = kapi::normalize(p);
    const kapi::Vec<float, 4> m = kapi::fma(p, q, kapi::sqrt(kapi::fabs(q))) + kapi::fmin(p, q) * kapi::rsqrt(q);
    out(8 * i + 0) = kapi::dot(p, q);
    out(8 * i + 1) = kapi::length(p);
    out(8 * i + 2) = kapi::distance(p, q);
    out(8 * i + 3) = c.x() + 2 * c.y() + 4 * c.z() + 8 * c.w();
    out(8 * i + 4) = u.x() + u.y() + u.z() + u.w();
    out(8 * i + 5) = m.x() + m.y() + m.z() + m.w();
    out(8 * i + 6) = kapi::floor(p * 1.5f).y();
    out(8 * i + 7) = kapi::fmax(p, q).z();
  }
};

template <class Space>
void check_geometry() {
  const std::size_t pairs = 50;
  auto value = [](std::size_t k) { return float((k * 37) % 17) * 0.25f + 0.5f; };
  auto in = kapi_test::make_view<float, Space>("in", 8 * pairs, value);
  Kokkos::View<float*, typename Space::memory_space> out("out", 8 * pairs);
  kapi::call_kernel(Space(), Geometry{}, kapi::Range<1>(pairs), in, out);
  const auto h = kapi_test::to_host(out);
  for (std::size_t i = 0; i < pairs; ++i) {
    double p[4], q[4];
    for (int k = 0; k < 4; ++k) p[k] = value(8 * i + std::size_t(k)), q[k] = value(8 * i + 4 + std::size_t(k));
    double dot = 0, pp = 0, dd = 0, u = 0, m = 0;
    for (int k = 0; k < 4; ++k) {
      dot += p[k] * q[k];
      pp += p[k] * p[k];
      dd += (p[k] - q[k]) * (p[k] - q[k]);
      m += p[k] * q[k] + std::sqrt(q[k]) + std::min(p[k], q[k]) / std::sqrt(q[k]);
    }
    for (int k = 0; k < 4; ++k) u += p[k] / std::sqrt(pp);
    const double cx = p[1] * q[2] - p[2] * q[1], cy = p[2] * q[0] - p[0] * q[2], cz = p[0] * q[1] - p[1] * q[0];
    const double expected[8] = {dot,
                                std::sqrt(pp),
                                std::sqrt(dd),
                                cx + 2 * cy + 4 * cz,
                                u,
                                m,
                                std::floor(float(p[1]) * 1.5f),
                                std::max(p[2], q[2])};
    for (int f = 0; f < 8; ++f)
      EXPECT_NEAR(h(8 * i + std::size_t(f)), expected[f], 1e-5 * (1 + std::fabs(expected[f])))
          << "pair " << i << ", value " << f;
  }
}

// ---- An all-pairs n-body step as SYCL writes it with vec<float, 4> ---------------------

// pos.w() is the mass; acc(i) = sum over j of m_j (p_j - p_i) / (|p_j - p_i|^2 + eps)^(3/2).
struct NBodyAcceleration {
  template <class View>
  KOKKOS_INLINE_FUNCTION void operator()(kapi::Item<1> it, const View& pos, const View& acc) const {
    const std::size_t i = it.get_id(0), n = pos.extent(0) / 4;
    kapi::Vec<float, 4> pi;
    pi.load(i, pos.data());
    kapi::Vec<float, 4> a(0.0f);
    for (std::size_t j = 0; j < n; ++j) {
      kapi::Vec<float, 4> pj;
      pj.load(j, pos.data());
      kapi::Vec<float, 4> d = pj - pi;
      d.w() = 0;
      const float inv = kapi::rsqrt(kapi::dot(d, d) + 1e-3f);
      a += d * (pj.w() * inv * inv * inv);
    }
    a.store(i, acc.data());
  }
};

template <class Space>
void check_n_body() {
  const std::size_t n = 300;
  auto coordinate = [](std::size_t k) {
    const std::size_t body = k / 4, c = k % 4;
    return c == 3 ? 1.0f + float(body % 5) * 0.5f : float((body * (c + 3) * 7919) % 1000) / 100.0f - 5.0f;
  };
  auto pos = kapi_test::make_view<float, Space>("pos", 4 * n, coordinate);
  Kokkos::View<float*, typename Space::memory_space> acc("acc", 4 * n);
  kapi::call_kernel(Space(), NBodyAcceleration{}, kapi::Range<1>(n), pos, acc);
  const auto h = kapi_test::to_host(acc);
  for (std::size_t i = 0; i < n; ++i) {
    double a[3] = {0, 0, 0}, scale = 0;
    for (std::size_t j = 0; j < n; ++j) {
      double d[3], d2 = 1e-3;
      for (int c = 0; c < 3; ++c)
        d[c] = double(coordinate(4 * j + std::size_t(c))) - coordinate(4 * i + std::size_t(c));
      for (int c = 0; c < 3; ++c) d2 += d[c] * d[c];
      const double s = coordinate(4 * j + 3) / (d2 * std::sqrt(d2));
      for (int c = 0; c < 3; ++c) a[c] += d[c] * s, scale += std::fabs(d[c] * s);
    }
    for (int c = 0; c < 3; ++c)
      ASSERT_NEAR(h(4 * i + std::size_t(c)), a[c], 1e-4 * scale) << "body " << i << ", coordinate " << c;
    ASSERT_EQ(h(4 * i + 3), 0.f) << "body " << i;
  }
}

template <class Space>
struct SyclVecKernels : ::testing::Test {};
KAPI_TYPED_TEST_SUITE(SyclVecKernels);

TYPED_TEST(SyclVecKernels, FloatArithmeticEveryWidth) { check_every_width<float, TypeParam>(); }
TYPED_TEST(SyclVecKernels, IntArithmeticEveryWidth) { check_every_width<int, TypeParam>(); }
TYPED_TEST(SyclVecKernels, DoubleArithmetic) {
  check_arithmetic<double, 2, TypeParam>();
  check_arithmetic<double, 3, TypeParam>();
}
TYPED_TEST(SyclVecKernels, GeometricAndMathFunctions) { check_geometry<TypeParam>(); }
TYPED_TEST(SyclVecKernels, AllPairsNBody) { check_n_body<TypeParam>(); }

}  // namespace
