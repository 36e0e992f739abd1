// SPDX-License-Identifier: Apache-2.0
// joint_matrix on every space: the reduced-precision conversions against roundings
// written here with frexp/ldexp; fill, load (row/col major, padded strides, global and
// local memory, checked at edges) and store round trips through products by identity
// tiles (exact); joint_matrix_mad of every supported shape and type against an fp64
// product of the rounded inputs with the fp32-summation bound; and the matmul app's
// tensor-core variants on random data against fp64 with the inputs' error bounds.
#include <kapi/barrier.hpp>
#include <kapi/item.hpp>
#include <kapi/launch.hpp>
#include <kapi/local_accessor.hpp>
#include <kapi/math.hpp>
#include <kapi/range.hpp>
#include <kapi/reduced_precision.hpp>
#include <kapi/sub_group.hpp>
#include <matmul/matmul.hpp>
#include <matmul/reference.hpp>

#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "execution_spaces.hpp"
#include "random_matrix.hpp"

namespace {

namespace jm = kapi::matrix;
using jm::layout;
using jm::use;

// ---- independent roundings: significand scaled to an integer, rounded, scaled back
double round_significand(double x, int bits, bool ties_away, int min_exponent) {
  if (x == 0 || !std::isfinite(x)) return x;
  int e;
  std::frexp(x, &e);                                      // x = m·2^e, 0.5 <= |m| < 1
  const int q = std::max(e - bits, min_exponent - bits);  // the quantum's exponent
  const double scaled = std::ldexp(x, -q);
  const double r =
      std::ldexp(ties_away ? std::copysign(std::floor(std::fabs(scaled) + 0.5), scaled) : std::nearbyint(scaled), q);
  return std::fabs(r) > double(std::numeric_limits<float>::max()) ? std::copysign(INFINITY, r) : r;
}
// fp32 subnormals keep the quantum of the smallest normal (2^-125 = frexp's exponent of 2^-126)
double ref_tf32(float x) { return round_significand(x, 11, true, -125); }
double ref_bf16(float x) { return round_significand(x, 8, false, -125); }
double ref_half(float x) {
  const double r = round_significand(x, 11, false, -13);  // subnormals: quantum 2^-24
  return std::fabs(r) > 65504 ? std::copysign(INFINITY, r) : r;
}

// tf32 tiles loaded from memory that holds kapi::precision::tf32 (rounded when stored, not
// by the load): the same results as tf32 loaded from float.
struct Tf32Stored {};
template <class In>
struct element_of {
  using type = In;  // the joint_matrix element type
};
template <>
struct element_of<Tf32Stored> {
  using type = kapi::precision::tf32;
};

template <class In>
double ref_round(float x) {
  if constexpr (std::is_same_v<In, kapi::precision::tf32> || std::is_same_v<In, Tf32Stored>) return ref_tf32(x);
  if constexpr (std::is_same_v<In, kapi::bfloat16>) return ref_bf16(x);
  if constexpr (std::is_same_v<In, kapi::half>) return ref_half(x);
}
template <class In>
const char* type_name() {
  if constexpr (std::is_same_v<In, kapi::precision::tf32>) return "tf32";
  if constexpr (std::is_same_v<In, Tf32Stored>) return "tf32 stored";
  if constexpr (std::is_same_v<In, kapi::bfloat16>) return "bf16";
  return "fp16";
}
template <class In>
struct memory_of {  // what the tiles are loaded from
  using type =
      typename jm::joint_matrix<kapi::SubGroup, In, use::a, 16, (std::is_same_v<In, kapi::precision::tf32> ? 8 : 16),
                                layout::row_major>::load_type;
};
template <>
struct memory_of<Tf32Stored> {
  using type = kapi::precision::tf32;
};
template <class In>
using load_t = typename memory_of<In>::type;

// Values at the edges of the three formats: overflow to infinity, subnormals, ties.
std::vector<float> edge_values() {
  return {0.0f,
          -0.0f,
          1.0f,
          -1.0f,
          65504.0f,
          65519.0f,
          65520.0f,
          1e-8f,
          5.96e-8f,
          2.98e-8f,
          2.99e-8f,
          6.1e-5f,
          3.0e-5f,
          1.00048828125f /* tf32 tie */,
          -1.00048828125f,
          1.001953125f /* bf16 tie */,
          1.0029296875f,
          1e-40f,
          -3e-39f,
          std::numeric_limits<float>::max(),
          std::numeric_limits<float>::min()};
}

TEST(ReducedPrecision, ConversionsRoundAsDocumented) {
  ASSERT_EQ(std::fegetround(), FE_TONEAREST);
  std::mt19937 gen(7);
  std::vector<float> values = edge_values();
  std::uniform_real_distribution<float> unit(-1, 1);
  std::uniform_int_distribution<std::uint32_t> bits;
  for (int i = 0; i < 20000; ++i) values.push_back(unit(gen));
  for (int i = 0; i < 20000; ++i) {
    const std::uint32_t u = bits(gen);
    float f;
    std::memcpy(&f, &u, 4);
    if (std::isfinite(f)) values.push_back(f);
  }
  for (const float x : values) {
    EXPECT_EQ(double(kapi::round_to_tf32(x)), ref_tf32(x)) << x;
    EXPECT_EQ(double(float(kapi::precision::tf32(x))), ref_tf32(x)) << x;
    EXPECT_EQ(double(float(kapi::bfloat16(x))), ref_bf16(x)) << x;
    EXPECT_EQ(double(float(kapi::half(x))), ref_half(x)) << x;
  }
  EXPECT_TRUE(std::isnan(float(kapi::bfloat16(std::numeric_limits<float>::quiet_NaN()))));
  EXPECT_TRUE(std::isnan(float(kapi::half(std::numeric_limits<float>::quiet_NaN()))));
  EXPECT_EQ(kapi::half(1.0f).bits, 0x3c00);  // the IEEE binary16 and bfloat16 bit layouts
  EXPECT_EQ(kapi::bfloat16(1.0f).bits, 0x3f80);
  EXPECT_EQ(kapi::precision::tf32(1.00048828125f).bits, 0x3f802000u);  // the tie rounds away from zero
  EXPECT_EQ(kapi::precision::tf32(-1.00048828125f).bits, 0xbf802000u);
  EXPECT_TRUE(std::isnan(float(kapi::precision::tf32(std::numeric_limits<float>::quiet_NaN()))));
  EXPECT_EQ(kapi::half(-2.0f).bits, 0xc000);
}

// The conversions in a kernel (one instruction each on CUDA sm_80+, integer code on host
// backends) give the bits of the host conversions checked above, NaNs stay NaNs.
struct Convert {
  template <class In, class Out>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::Item<1>& it, const In& in, const Out& out) const {
    const std::size_t i = it.get_id(0);
    out(i, 0) = kapi::precision::tf32(in(i)).bits;
    out(i, 1) = kapi::bfloat16(in(i)).bits;
    out(i, 2) = kapi::half(in(i)).bits;
    out(i, 3) = kapi::detail::float_bits(kapi::round_to_tf32(in(i)));
  }
};

template <class Space>
void check_conversions_in_a_kernel() {
  std::vector<float> values = edge_values();
  values.insert(values.end(), {INFINITY, -INFINITY, std::numeric_limits<float>::quiet_NaN()});
  std::mt19937 gen(11);
  std::uniform_int_distribution<std::uint32_t> bits;
  for (int i = 0; i < 4096; ++i) {
    const std::uint32_t u = bits(gen);
    float f;
    std::memcpy(&f, &u, 4);
    values.push_back(f);  // NaNs too
  }
  const std::size_t n = values.size();
  auto in = kapi_test::make_view<float, Space>("in", n, [&](std::size_t i) { return values[i]; });
  Kokkos::View<std::uint32_t* [4], typename Space::memory_space> out("out", n);
  kapi::call_kernel(Space(), Convert{}, kapi::Range<1>(n), in, out);
  auto h = kapi_test::to_host(out);
  const auto is_nan = [](std::uint32_t b, int width) {
    return width == 32  ? (b & 0x7fffffffu) > 0x7f800000u
           : width == 8 ? (b & 0x7fffu) > 0x7f80u
                        : (b & 0x7fffu) > 0x7c00u;
  };
  for (std::size_t i = 0; i < n; ++i) {
    const float x = values[i];
    SCOPED_TRACE(x);
    if (std::isnan(x)) {
      EXPECT_TRUE(is_nan(h(i, 0), 32) && is_nan(h(i, 3), 32)) << std::hex << h(i, 0);
      EXPECT_TRUE(is_nan(h(i, 1), 8)) << std::hex << h(i, 1);  // bfloat16: 8 exponent bits
      EXPECT_TRUE(is_nan(h(i, 2), 5)) << std::hex << h(i, 2);
      continue;
    }
    EXPECT_EQ(h(i, 0), kapi::precision::tf32(x).bits);
    EXPECT_EQ(h(i, 1), kapi::bfloat16(x).bits);
    EXPECT_EQ(h(i, 2), kapi::half(x).bits);
    EXPECT_EQ(h(i, 3), kapi::precision::tf32(x).bits);
  }
}

// ---- the kernel: one sub-group computes D = A·B + C from global or local memory
struct Layouts {
  layout a, b, c, d;
  std::size_t lda, ldb, ldc, ldd;
};

// What an In tile's accumulator holds: double for double inputs, float otherwise.
template <class In>
using acc_t = std::conditional_t<std::is_same_v<In, double>, double, float>;

template <class In, std::size_t M, std::size_t N, std::size_t K, layout LA, layout LB, bool Local>
struct Mad {
  using L = load_t<In>;
  layout lc, ld;
  std::size_t lda, ldb, ldc, ldd, a_size, b_size;
  template <class VA, class VB, class VC, class VD>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it, const VA& a, const VB& b, const VC& c, const VD& d,
                                         const kapi::LocalAccessor<L, 1>& la,
                                         const kapi::LocalAccessor<L, 1>& lb) const {
    const kapi::SubGroup sg = it.get_sub_group();
    const L* pa = a.data();
    const L* pb = b.data();
    if (Local) {
      for (std::size_t i = it.get_local_linear_id(); i < a_size; i += it.get_local_range(0)) la[i] = a(i);
      for (std::size_t i = it.get_local_linear_id(); i < b_size; i += it.get_local_range(0)) lb[i] = b(i);
      kapi::group_barrier(it.get_group());
      pa = la.get_pointer();
      pb = lb.get_pointer();
    }
    using E = typename element_of<In>::type;
    jm::joint_matrix<kapi::SubGroup, E, use::a, M, K, LA> ma;
    jm::joint_matrix<kapi::SubGroup, E, use::b, K, N, LB> mb;
    jm::joint_matrix<kapi::SubGroup, acc_t<In>, use::accumulator, M, N> mc;
    jm::joint_matrix_load(sg, ma, pa, lda);
    jm::joint_matrix_load(sg, mb, pb, ldb);
    jm::joint_matrix_load(sg, mc, c.data(), ldc, lc);
    jm::joint_matrix_mad(sg, mc, ma, mb, mc);
    jm::joint_matrix_store(sg, mc, d.data(), ldd, ld);
  }
};

std::size_t at(layout l, std::size_t r, std::size_t c, std::size_t ld) {
  return l == layout::col_major ? c * ld + r : r * ld + c;
}

/// D = A·B + C on Space with the given layouts and strides, A, B and C given as
/// functions of (row, col); returns D as a row-major M×N host array. (std::function: one
/// instantiation per kernel, not one per caller's lambdas.)
template <class In>
using Values = std::function<acc_t<In>(std::size_t, std::size_t)>;
template <class Space, class In, std::size_t M, std::size_t N, std::size_t K, layout LA, layout LB, bool Local>
std::vector<acc_t<In>> run_mad(const Layouts& l, const Values<In>& fa, const Values<In>& fb, const Values<In>& fc) {
  using L = load_t<In>;
  using V = acc_t<In>;
  const std::size_t a_size = (LA == layout::row_major ? M : K) * l.lda,
                    b_size = (LB == layout::row_major ? K : N) * l.ldb;
  const std::size_t c_size = (l.c == layout::row_major ? M : N) * l.ldc,
                    d_size = (l.d == layout::row_major ? M : N) * l.ldd;
  std::vector<V> ha(a_size, V(-99)), hb(b_size, V(-99));  // padding: a value that would show
  std::vector<V> hc(c_size, V(-99));
  for (std::size_t r = 0; r < M; ++r)
    for (std::size_t k = 0; k < K; ++k) ha[at(LA, r, k, l.lda)] = fa(r, k);
  for (std::size_t k = 0; k < K; ++k)
    for (std::size_t n = 0; n < N; ++n) hb[at(LB, k, n, l.ldb)] = fb(k, n);
  for (std::size_t r = 0; r < M; ++r)
    for (std::size_t n = 0; n < N; ++n) hc[at(l.c, r, n, l.ldc)] = fc(r, n);
  auto a = kapi_test::make_view<L, Space>("A", a_size, [&](std::size_t i) { return L(ha[i]); });
  auto b = kapi_test::make_view<L, Space>("B", b_size, [&](std::size_t i) { return L(hb[i]); });
  auto c = kapi_test::make_view<V, Space>("C", c_size, [&](std::size_t i) { return hc[i]; });
  Kokkos::View<V*, typename Space::memory_space> d("D", d_size);
  Kokkos::deep_copy(d, V(-555));
  const std::size_t sg = kapi::max_sub_group_size<Space>();
  using Kernel = Mad<In, M, N, K, LA, LB, Local>;
  kapi::call_kernel(Space(), Kernel{l.c, l.d, l.lda, l.ldb, l.ldc, l.ldd, a_size, b_size},
                    kapi::NdRange<1>(kapi::Range<1>(sg), kapi::Range<1>(sg)), a, b, c, d,
                    kapi::LocalAccessor<L, 1>(Local ? a_size : 1), kapi::LocalAccessor<L, 1>(Local ? b_size : 1));
  auto hd = kapi_test::to_host(d);
  std::vector<V> out(M * N);
  for (std::size_t r = 0; r < M; ++r)
    for (std::size_t n = 0; n < N; ++n) out[r * N + n] = hd(at(l.d, r, n, l.ldd));
  // Elements of D outside the tile keep their value.
  std::size_t touched = 0;
  for (std::size_t i = 0; i < d_size; ++i) touched += hd(i) != V(-555);
  EXPECT_LE(touched, M * N);
  return out;
}

template <class Space>
struct JointMatrix : ::testing::Test {};
KAPI_TYPED_TEST_SUITE(JointMatrix);

// A·I + 0 = rounded A, I·B + C = rounded B + C: every element of a load lands where it
// belongs, exactly, for each layout, padded strides, global and local memory.
template <class Space, class In, std::size_t M, std::size_t N, std::size_t K, layout LA, layout LB, bool Local>
void check_round_trips(std::size_t pad) {
  SCOPED_TRACE(std::string(type_name<In>()) + " " + std::to_string(M) + "x" + std::to_string(N) + "x" +
               std::to_string(K) + (LA == layout::row_major ? " A row" : " A col") +
               (LB == layout::row_major ? " B row" : " B col") + (Local ? " local" : " global") + " pad " +
               std::to_string(pad));
  const auto value = [](std::size_t r, std::size_t c, int salt) {
    return float(std::sin(double(r * 37 + c * 11 + salt)) * 3.0);  // not representable: rounding shows
  };
  const auto lda = (LA == layout::row_major ? K : M) + pad, ldb = (LB == layout::row_major ? N : K) + pad;
  {  // A times the identity (K×N: ones on the diagonal), C = 0, D row-major
    const Layouts l{LA, LB, layout::row_major, layout::row_major, lda, ldb, N + pad, N + 2 * pad};
    const auto d = run_mad<Space, In, M, N, K, LA, LB, Local>(
        l, [&](std::size_t r, std::size_t k) { return value(r, k, 1); },
        [](std::size_t k, std::size_t n) { return k == n ? 1.0f : 0.0f; },
        [](std::size_t, std::size_t) { return 0.0f; });
    for (std::size_t r = 0; r < M; ++r)
      for (std::size_t n = 0; n < N; ++n)
        ASSERT_EQ(double(d[r * N + n]), n < K ? ref_round<In>(value(r, n, 1)) : 0.0) << r << "," << n;
  }
  {  // the identity (M×K) times B plus C, C and D column-major
    const Layouts l{LA, LB, layout::col_major, layout::col_major, lda, ldb, M + pad, M + 3 * pad};
    const auto d = run_mad<Space, In, M, N, K, LA, LB, Local>(
        l, [](std::size_t r, std::size_t k) { return r == k ? 1.0f : 0.0f; },
        [&](std::size_t k, std::size_t n) { return value(k, n, 2); },
        [](std::size_t r, std::size_t n) { return float(r * 1000 + n); });
    // one fp32 rounding of the exact sum (the order of rounding steps is the backend's)
    for (std::size_t r = 0; r < M; ++r)
      for (std::size_t n = 0; n < N; ++n) {
        const double want = (r < K ? ref_round<In>(value(r, n, 2)) : 0.0) + double(r * 1000 + n);
        ASSERT_LE(std::fabs(double(d[r * N + n]) - want), 0x1p-23 * std::fabs(want)) << r << "," << n;
      }
  }
}

// D = A·B + C on random data against fp64 of the rounded inputs: only the fp32 sums
// differ, by at most (K + 2)·2^-23·(Σ|a||b| + |c|).
template <class Space, class In, std::size_t M, std::size_t N, std::size_t K, layout LA, layout LB, bool Local>
void check_mad() {
  SCOPED_TRACE(std::string(type_name<In>()) + " mad " + std::to_string(M) + "x" + std::to_string(N) + "x" +
               std::to_string(K) + (Local ? " local" : " global"));
  std::mt19937 gen(M * 131 + N * 17 + K);
  std::uniform_real_distribution<float> dist(-1, 1);
  std::vector<float> a(M * K), b(K * N), c(M * N);
  for (auto& x : a) x = dist(gen);
  for (auto& x : b) x = dist(gen);
  for (auto& x : c) x = dist(gen);
  const Layouts l{LA,
                  LB,
                  layout::row_major,
                  layout::row_major,
                  (LA == layout::row_major ? K : M) + 4,
                  (LB == layout::row_major ? N : K) + 8,
                  N,
                  N};
  const auto d = run_mad<Space, In, M, N, K, LA, LB, Local>(
      l, [&](std::size_t r, std::size_t k) { return a[r * K + k]; },
      [&](std::size_t k, std::size_t n) { return b[k * N + n]; },
      [&](std::size_t r, std::size_t n) { return c[r * N + n]; });
  for (std::size_t r = 0; r < M; ++r)
    for (std::size_t n = 0; n < N; ++n) {
      double ref = c[r * N + n], mag = std::fabs(c[r * N + n]);
      for (std::size_t k = 0; k < K; ++k) {
        const double p = ref_round<In>(a[r * K + k]) * ref_round<In>(b[k * N + n]);
        ref += p;
        mag += std::fabs(p);
      }
      ASSERT_LE(std::fabs(d[r * N + n] - ref), double(K + 2) * 0x1p-23 * mag) << r << "," << n;
    }
}

template <class Space, class In, std::size_t M, std::size_t N, std::size_t K>
void check_shape() {
  // four kernels per shape (compile time): row-major A and B from global and from local
  // memory (ldmatrix on CUDA), column-major from local memory, mixed from global
  check_round_trips<Space, In, M, N, K, layout::row_major, layout::row_major, false>(0);
  check_round_trips<Space, In, M, N, K, layout::row_major, layout::row_major, true>(8);
  check_round_trips<Space, In, M, N, K, layout::col_major, layout::col_major, true>(3);
  check_round_trips<Space, In, M, N, K, layout::col_major, layout::row_major, false>(1);
  check_mad<Space, In, M, N, K, layout::row_major, layout::row_major, true>();
  check_mad<Space, In, M, N, K, layout::col_major, layout::row_major, false>();
}

TYPED_TEST(JointMatrix, ConversionsInAKernelMatchTheHost) { check_conversions_in_a_kernel<TypeParam>(); }

TYPED_TEST(JointMatrix, Tf32Shapes) {
  check_shape<TypeParam, kapi::precision::tf32, 16, 16, 8>();  // SYCL's CUDA backend shape
  check_shape<TypeParam, kapi::precision::tf32, 8, 8, 8>();    // padded to 16 rows
  check_shape<TypeParam, kapi::precision::tf32, 32, 24, 16>();
}

// The same shapes from memory that holds precision::tf32: no second rounding, the same
// elements in the same places (CUDA: ldmatrix without conversion, element loads).
TYPED_TEST(JointMatrix, Tf32ShapesFromRoundedStorage) {
  check_shape<TypeParam, Tf32Stored, 16, 16, 8>();
  check_shape<TypeParam, Tf32Stored, 8, 8, 8>();
  check_shape<TypeParam, Tf32Stored, 32, 24, 16>();
}

TYPED_TEST(JointMatrix, Bf16Shapes) {
  check_shape<TypeParam, kapi::bfloat16, 16, 16, 16>();
  check_shape<TypeParam, kapi::bfloat16, 32, 8, 16>();
  check_shape<TypeParam, kapi::bfloat16, 8, 32, 16>();
}

TYPED_TEST(JointMatrix, HalfShapes) {
  check_shape<TypeParam, kapi::half, 16, 16, 16>();
  check_shape<TypeParam, kapi::half, 8, 32, 16>();
}

// Fill: D = fill(a)·fill(b) + fill(c) = c + K·round(a)·round(b), exactly (small integers
// times representable values), stored with the checked store into the corner of a larger
// matrix, and a checked load of a tile hanging over the edge reads zeros outside.
template <class In, std::size_t M, std::size_t N, std::size_t K>
struct FillAndChecked {
  std::size_t height, width, row, col;
  template <class VA, class VD>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it, const VA& a, const VD& d, const VD& e) const {
    const kapi::SubGroup sg = it.get_sub_group();
    using E = typename element_of<In>::type;
    jm::joint_matrix<kapi::SubGroup, E, use::a, M, K, layout::row_major> ma;
    jm::joint_matrix<kapi::SubGroup, E, use::b, K, N, layout::row_major> mb;
    jm::joint_matrix<kapi::SubGroup, float, use::accumulator, M, N> mc;
    jm::joint_matrix_fill(sg, ma, 1.5f);
    jm::joint_matrix_fill(sg, mb, -0.75f);
    jm::joint_matrix_fill(sg, mc, 2.0f);
    jm::joint_matrix_mad(sg, mc, ma, mb, mc);
    jm::joint_matrix_store_checked(sg, mc, d.data(), width, layout::row_major, height, width, row, col);
    // the A tile at (row, col) of the height×width matrix a, times ones: row sums of what lies inside
    jm::joint_matrix_load_checked(sg, ma, a.data(), width, height, width, row, col);
    jm::joint_matrix_fill(sg, mb, 1.0f);
    jm::joint_matrix_fill(sg, mc, 0.0f);
    jm::joint_matrix_mad(sg, mc, ma, mb, mc);
    jm::joint_matrix_store_checked(sg, mc, e.data(), width, layout::row_major, height, width, row, col);
  }
};

template <class Space, class In, std::size_t M, std::size_t N, std::size_t K>
void check_fill_and_checked() {
  SCOPED_TRACE(std::string(type_name<In>()) + " fill/checked " + std::to_string(M) + "x" + std::to_string(N));
  using L = load_t<In>;
  const std::size_t height = M + 5, width = std::max(N, K) + 3, row = 9, col = width - N + 2;  // hangs over two edges
  auto a = kapi_test::make_view<L, Space>("A", height * width, [&](std::size_t i) { return L(float(i % 7)); });
  Kokkos::View<float*, typename Space::memory_space> d("D", height * width), e("E", height * width);
  Kokkos::deep_copy(d, -1.0f);
  Kokkos::deep_copy(e, -1.0f);
  const std::size_t sg = kapi::max_sub_group_size<Space>();
  kapi::call_kernel(Space(), FillAndChecked<In, M, N, K>{height, width, row, col},
                    kapi::NdRange<1>(kapi::Range<1>(sg), kapi::Range<1>(sg)), a, d, e);
  auto hd = kapi_test::to_host(d);
  auto he = kapi_test::to_host(e);
  const double filled = 2.0 + double(K) * ref_round<In>(1.5f) * ref_round<In>(-0.75f);
  for (std::size_t r = 0; r < height; ++r)
    for (std::size_t c = 0; c < width; ++c) {
      const bool inside = r >= row && r < row + M && c >= col && c < col + N;
      ASSERT_EQ(double(hd(r * width + c)), inside ? filled : -1.0) << r << "," << c;
      double sum = 0;  // row r of the tile: columns col .. col+K-1 of a, those inside the matrix
      for (std::size_t k = col; k < col + K && k < width; ++k) sum += double((r * width + k) % 7);
      ASSERT_EQ(double(he(r * width + c)), inside ? sum : -1.0) << r << "," << c;
    }
}

TYPED_TEST(JointMatrix, FillAndCheckedLoadStore) {
  check_fill_and_checked<TypeParam, kapi::precision::tf32, 16, 16, 8>();
  check_fill_and_checked<TypeParam, Tf32Stored, 16, 16, 8>();  // the checked load from precision::tf32
  check_fill_and_checked<TypeParam, kapi::bfloat16, 16, 16, 16>();
  check_fill_and_checked<TypeParam, kapi::half, 8, 32, 16>();
}

// ---- fp64 tiles (double A, B and accumulator: DMMA on CUDA sm_80+)
// Two checks per shape: multiples of 1/8 below 4 in magnitude, whose products and sums are
// exact in fp64 in every order (D must equal the host's sum); and values with full 53-bit
// significands, within (K + 2)·2^-52·(Σ|a||b| + |c|) of a long double sum: an fp32 or
// tf32 product would be off by 2^-24 or more.
template <class Space, std::size_t M, std::size_t N, std::size_t K, layout LA, layout LB, bool Local>
void check_mad64(std::size_t pad) {
  SCOPED_TRACE("fp64 " + std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K) +
               (LA == layout::row_major ? " A row" : " A col") + (LB == layout::row_major ? " B row" : " B col") +
               (Local ? " local" : " global") + " pad " + std::to_string(pad));
  const auto lda = (LA == layout::row_major ? K : M) + pad, ldb = (LB == layout::row_major ? N : K) + pad;
  const auto eighths = [](std::size_t r, std::size_t c, int salt) {
    return double(int((r * 7 + c * 13 + std::size_t(salt) * 5) % 61) - 30) / 8.0;
  };
  {
    const Layouts l{LA, LB, layout::row_major, layout::col_major, lda, ldb, N + pad, M + 2 * pad};
    const auto d = run_mad<Space, double, M, N, K, LA, LB, Local>(
        l, [&](std::size_t r, std::size_t k) { return eighths(r, k, 1); },
        [&](std::size_t k, std::size_t n) { return eighths(k, n, 2); },
        [&](std::size_t r, std::size_t n) { return eighths(r, n, 3) * 64; });
    for (std::size_t r = 0; r < M; ++r)
      for (std::size_t n = 0; n < N; ++n) {
        double want = eighths(r, n, 3) * 64;
        for (std::size_t k = 0; k < K; ++k) want += eighths(r, k, 1) * eighths(k, n, 2);
        ASSERT_EQ(d[r * N + n], want) << r << "," << n;
      }
  }
  {
    const auto full = [](std::size_t r, std::size_t c, int salt) { return std::sin(double(r * 37 + c * 11 + salt)); };
    const Layouts l{LA, LB, layout::col_major, layout::row_major, lda, ldb, M + pad, N + 3 * pad};
    const auto d = run_mad<Space, double, M, N, K, LA, LB, Local>(
        l, [&](std::size_t r, std::size_t k) { return full(r, k, 4); },
        [&](std::size_t k, std::size_t n) { return full(k, n, 5); },
        [&](std::size_t r, std::size_t n) { return full(r, n, 6); });
    for (std::size_t r = 0; r < M; ++r)
      for (std::size_t n = 0; n < N; ++n) {
        long double want = full(r, n, 6), magnitude = std::fabs(full(r, n, 6));
        for (std::size_t k = 0; k < K; ++k) {
          want += static_cast<long double>(full(r, k, 4)) * full(k, n, 5);
          magnitude += std::fabs(full(r, k, 4) * full(k, n, 5));
        }
        ASSERT_LE(std::fabs(static_cast<long double>(d[r * N + n]) - want), (K + 2) * 0x1p-52L * magnitude)
            << r << "," << n;
      }
  }
}

TYPED_TEST(JointMatrix, Fp64Shapes) {
  // one m8n8k4; m16n8 with k4, k8, k16; 3 row fragments (an odd one left for m8n8k4 on
  // sm_90) and 3 k-steps (k8 then k4); the tensor-core kernel's sub-group tile
  check_mad64<TypeParam, 8, 8, 4, layout::row_major, layout::row_major, false>(0);
  check_mad64<TypeParam, 16, 8, 4, layout::row_major, layout::row_major, true>(1);
  check_mad64<TypeParam, 16, 8, 8, layout::col_major, layout::row_major, false>(2);
  check_mad64<TypeParam, 16, 16, 16, layout::row_major, layout::col_major, true>(0);
  check_mad64<TypeParam, 24, 16, 12, layout::col_major, layout::col_major, false>(3);
  check_mad64<TypeParam, 24, 8, 12, layout::row_major, layout::row_major, true>(2);
  check_mad64<TypeParam, 64, 32, 16, layout::row_major, layout::row_major, true>(4);
}

// ---- the matmul app's tensor-core variants against fp64 with the inputs' error bounds
// C checked against the fp64 host product of A and B, every row, for inputs rounded to
// unit roundoff `roundoff` (0: used as they are).
template <class E, class A, class B, class C>
auto check_product(const A& a, const B& b, const C& c, double roundoff) {
  auto ha = kapi_test::to_host(a);
  auto hb = kapi_test::to_host(b);
  auto hc = kapi_test::to_host(c);
  const matmul::ProductReference reference(ha, hb, matmul::all_rows(c.extent(0)));
  return reference.check<E>(hc, roundoff);
}

template <class Space>
void check_tensor_variant(const std::string& variant, std::size_t m, std::size_t n, std::size_t k,
                          double max_relative) {
  const matmul::ConstMatrix<float, Space> a = kapi_test::random_matrix<float, Space>("A", m, k, 11),
                                          b = kapi_test::random_matrix<float, Space>("B", k, n, 12);
  matmul::Matrix<float, Space> c("C", m, n);
  Kokkos::deep_copy(c, -777.0f);
  matmul::multiply<float>(variant, Space(), a, b, c);
  const auto r = check_product<float>(a, b, c, matmul::input_unit_roundoff(variant));
  EXPECT_EQ(r.wrong, 0u) << variant << " " << m << "x" << n << "x" << k << ": worst error/tolerance " << r.worst;
  EXPECT_LE(r.relative_error(), max_relative) << variant << " " << m << "x" << n << "x" << k;
  EXPECT_GT(r.relative_error(), 0.0) << variant << ": inputs were not rounded";  // random data: rounding shows
}

// tuned-fp64 on random fp64 matrices: within the fp64 reference's K-derived tolerance,
// and far inside what any fp32 step would allow.
template <class Space, class Shape>
void check_fp64_variant(std::size_t m, std::size_t n, std::size_t k) {
  const matmul::ConstMatrix<double, Space> a = kapi_test::random_matrix<double, Space>("A", m, k, 13),
                                           b = kapi_test::random_matrix<double, Space>("B", k, n, 14);
  matmul::Matrix<double, Space> c("C", m, n);
  Kokkos::deep_copy(c, -777.0);
  if constexpr (std::is_void<Shape>::value)
    matmul::multiply<double>("tuned-fp64", Space(), a, b, c);
  else
    matmul::multiply_joint_matrix_shaped<double, Shape>(Space(), a, b, c);
  const auto r = check_product<double>(a, b, c, 0);
  EXPECT_EQ(r.wrong, 0u) << m << "x" << n << "x" << k << ": worst error/tolerance " << r.worst;
  EXPECT_LE(r.relative_error(), 1e-13) << m << "x" << n << "x" << k;
}

TYPED_TEST(JointMatrix, Fp64VariantAndShapes) {
  // not multiples of any block, rows not 16-byte aligned (k, n odd), K over several steps,
  // fewer steps than stages
  using Async3 = matmul::JointShape<double, false, 16, 1, 3>;
  using Async4K8 = matmul::JointShape<double, false, 8, 1, 4>;
  using Narrow = matmul::JointShape<double, false, 16, 1, 0, 16>;  // 64×16 per sub-group
  using Registers = matmul::JointShape<double, false, 16, 1>;      // tiles through registers, K = 4
  // the device defaults: steps of 16, or of 32 where the device holds them (tuned-fp64 runs one)
  using Steps16 = matmul::DefaultJointShape<double, false>::type;
  using Steps32 = matmul::LongStepsFp64Shape;
  for (const auto& s :
       std::vector<std::vector<std::size_t>>{{200, 300, 150}, {129, 67, 41}, {64, 64, 64}, {130, 131, 20}}) {
    check_fp64_variant<TypeParam, void>(s[0], s[1], s[2]);
    check_fp64_variant<TypeParam, Async3>(s[0], s[1], s[2]);
    check_fp64_variant<TypeParam, Async4K8>(s[0], s[1], s[2]);
    check_fp64_variant<TypeParam, Narrow>(s[0], s[1], s[2]);
    check_fp64_variant<TypeParam, Registers>(s[0], s[1], s[2]);
    check_fp64_variant<TypeParam, Steps16>(s[0], s[1], s[2]);
    check_fp64_variant<TypeParam, Steps32>(s[0], s[1], s[2]);
  }
  // and it takes fp64 matrices only
  const matmul::ConstMatrix<float, TypeParam> fa = kapi_test::random_matrix<float, TypeParam>("A", 3, 4, 1),
                                              fb = kapi_test::random_matrix<float, TypeParam>("B", 4, 2, 2);
  matmul::Matrix<float, TypeParam> fc("C", 3, 2);
  EXPECT_THROW(matmul::multiply<float>("tuned-fp64", TypeParam(), fa, fb, fc), std::invalid_argument);
}

TYPED_TEST(JointMatrix, MatmulVariantsWithinTheirTypesBounds) {
  // not multiples of any block (host 64, device 128), K over several steps
  for (const auto& s : std::vector<std::vector<std::size_t>>{{200, 300, 150}, {129, 67, 41}, {64, 64, 64}}) {
    check_tensor_variant<TypeParam>("tuned-tf32", s[0], s[1], s[2], 1e-3);
    check_tensor_variant<TypeParam>("tuned-bf16", s[0], s[1], s[2], 1e-2);
    check_tensor_variant<TypeParam>("tuned-fp16", s[0], s[1], s[2], 1e-3);
  }
}

// The asynchronous pipeline (device shapes, run on every backend: kapi::async_copy is a
// plain copy on host backends): sizes that end mid-tile, rows not 16-byte aligned (K odd),
// fewer steps than stages.
template <class Space, class Shape>
void check_async_shape(std::size_t m, std::size_t n, std::size_t k) {
  const matmul::ConstMatrix<float, Space> a = kapi_test::random_matrix<float, Space>("A", m, k, 21),
                                          b = kapi_test::random_matrix<float, Space>("B", k, n, 22);
  matmul::Matrix<float, Space> c("C", m, n);
  Kokkos::deep_copy(c, -777.0f);
  matmul::multiply_joint_matrix_shaped<kapi::precision::tf32, Shape>(Space(), a, b, c);
  const auto r = check_product<float>(a, b, c, matmul::input_unit_roundoff("tuned-tf32"));
  EXPECT_EQ(r.wrong, 0u) << Shape::stages << " stages, " << m << "x" << n << "x" << k << ": worst " << r.worst;
  EXPECT_LE(r.relative_error(), 1e-3) << Shape::stages << " stages, " << m << "x" << n << "x" << k;
}

TYPED_TEST(JointMatrix, AsynchronousPipelineShapes) {
  using Three = matmul::JointShape<kapi::precision::tf32, false, 32, 2, 3>;
  using Four = matmul::JointShape<kapi::precision::tf32, false, 16, 2, 4>;
  using Wide = matmul::JointShape<kapi::precision::tf32, false, 32, 2, 3, 64>;  // 64×64 per sub-group
  for (const auto& s : std::vector<std::vector<std::size_t>>{{200, 300, 150}, {129, 67, 41}, {130, 131, 20}}) {
    check_async_shape<TypeParam, Three>(s[0], s[1], s[2]);
    check_async_shape<TypeParam, Four>(s[0], s[1], s[2]);
    check_async_shape<TypeParam, Wide>(s[0], s[1], s[2]);
  }
}

#if defined(KOKKOS_ENABLE_CUDA) && defined(KAPI_MATMUL_SM90A)
// The Hopper path of the tensor-core variants (matmul/tensor_cores_sm90.hpp): taken on an
// sm_90 device (so that the variant tests above run it there), and right on shapes that
// end mid-block and mid-step, with more steps than stages, on strided matrices (rows not
// 16-byte aligned, C's row pitch odd) and on matrices whose rows are (A's rows packed four
// floats at a time), leaving C's neighbours alone.
template <class In>
void check_sm90(std::size_t m, std::size_t n, std::size_t k, double max_relative, bool aligned_rows = false) {
  const Kokkos::Cuda space;
  using Full = Kokkos::View<float**, Kokkos::LayoutRight, Kokkos::CudaSpace>;
  // Aligned: A's rows start at column 0 of rows padded to a multiple of 4 floats.
  const std::size_t a0 = aligned_rows ? 0 : 1, a_width = aligned_rows ? (k + 3) / 4 * 4 : k + 3;
  const Full wide_a = kapi_test::random_matrix<float, Kokkos::Cuda>("A", m, a_width, 31),
             wide_b = kapi_test::random_matrix<float, Kokkos::Cuda>("B", k, n + 1, 32);
  Full wide_c("C", m, n + 5);
  Kokkos::deep_copy(wide_c, -777.0f);
  const auto a = Kokkos::subview(wide_a, Kokkos::ALL, std::make_pair(a0, a0 + k));
  const auto b = Kokkos::subview(wide_b, Kokkos::ALL, std::make_pair(std::size_t(1), n + 1));
  const auto c = Kokkos::subview(wide_c, Kokkos::ALL, std::make_pair(std::size_t(2), n + 2));
  const char* rows = aligned_rows ? "aligned rows" : "strided rows";
  ASSERT_TRUE(matmul::sm90::multiply<In>(space, a, b, c)) << m << "x" << n << "x" << k << ", " << rows << ": not taken";
  auto ha = kapi_test::to_host(wide_a);  // whole: a strided View has no copy to the host
  auto hb = kapi_test::to_host(wide_b);
  auto hc = kapi_test::to_host(wide_c);
  const matmul::ProductReference reference(Kokkos::subview(ha, Kokkos::ALL, std::make_pair(a0, a0 + k)),
                                           Kokkos::subview(hb, Kokkos::ALL, std::make_pair(std::size_t(1), n + 1)),
                                           matmul::all_rows(m));
  const char* variant = std::is_same<In, kapi::precision::tf32>::value ? "tuned-tf32"
                        : std::is_same<In, kapi::bfloat16>::value      ? "tuned-bf16"
                                                                       : "tuned-fp16";
  const auto r = reference.check<float>(Kokkos::subview(hc, Kokkos::ALL, std::make_pair(std::size_t(2), n + 2)),
                                        matmul::input_unit_roundoff(variant));
  EXPECT_EQ(r.wrong, 0u) << m << "x" << n << "x" << k << ", " << rows << ": worst error/tolerance " << r.worst;
  EXPECT_LE(r.relative_error(), max_relative) << m << "x" << n << "x" << k << ", " << rows;
  std::size_t touched = 0;  // columns 0, 1, n+2 … n+4 of the wide C
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j : {std::size_t(0), std::size_t(1), n + 2, n + 3, n + 4}) touched += hc(i, j) != -777.0f;
  EXPECT_EQ(touched, 0u) << m << "x" << n << "x" << k << ", " << rows << ": elements outside C written";
}

TEST(JointMatrixSm90, TakenOnHopperAndRightOnEdgesAndStrides) {
  int major = 0, minor = 0;
  ASSERT_EQ(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, Kokkos::Cuda().cuda_device()),
            cudaSuccess);
  ASSERT_EQ(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, Kokkos::Cuda().cuda_device()),
            cudaSuccess);
  if (major != 9 || minor != 0)
    GTEST_SKIP() << "sm_90a code runs on compute capability 9.0 only, this is " << major << "." << minor;
  EXPECT_TRUE(matmul::sm90::runs_on(Kokkos::Cuda()));
  // k: 1000 = 31 tf32 steps and 8 (15 and 40 in 16-bit steps); 5: one partial step; 300:
  // stages wrap many times; m, n past a block by one.
  for (const auto& s :
       std::vector<std::vector<std::size_t>>{{300, 520, 1000}, {129, 257, 5}, {1, 1, 1}, {256, 256, 300}}) {
    for (const bool aligned_rows : {false, true}) {
      check_sm90<kapi::precision::tf32>(s[0], s[1], s[2], 1e-3, aligned_rows);
      check_sm90<kapi::bfloat16>(s[0], s[1], s[2], 1e-2, aligned_rows);
      check_sm90<kapi::half>(s[0], s[1], s[2], 1e-3, aligned_rows);
    }
  }
}
#endif

TYPED_TEST(JointMatrix, MatmulVariantsRejectDoubleAndBadShapes) {
  const matmul::ConstMatrix<double, TypeParam> a = kapi_test::random_matrix<double, TypeParam>("A", 3, 4, 1),
                                               b = kapi_test::random_matrix<double, TypeParam>("B", 4, 2, 2);
  matmul::Matrix<double, TypeParam> c("C", 3, 2);
  for (const char* v : {"tuned-tf32", "tuned-bf16", "tuned-fp16"}) {
    EXPECT_THROW(matmul::multiply<double>(v, TypeParam(), a, b, c), std::invalid_argument) << v;
    const matmul::ConstMatrix<float, TypeParam> fa = kapi_test::random_matrix<float, TypeParam>("A", 3, 4, 1),
                                                fb = kapi_test::random_matrix<float, TypeParam>("B", 5, 2, 2);
    matmul::Matrix<float, TypeParam> fc("C", 3, 2);
    EXPECT_THROW(matmul::multiply<float>(v, TypeParam(), fa, fb, fc), std::invalid_argument) << v;
  }
}

}  // namespace
