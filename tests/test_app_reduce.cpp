// SPDX-License-Identifier: Apache-2.0
// The reduce app: every variant, for int32, int64, float and double, at n = 0, 1, small
// primes, sizes around the group shapes, and a large fp32 sum (2^24 + 3 elements) where a
// single float accumulator stalls; integers exactly, floating point within the variant's
// bound d * eps * sum|x| (reduce.hpp), whose depth d the test also keeps small.
#include <reduce/reduce.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "execution_spaces.hpp"

namespace {

// Integers in [-3, 3] (exact sums, no overflow); floating point in [offset, offset + 1).
template <class T>
T value_at(std::size_t i, double offset = 0) {
  if constexpr (std::is_integral_v<T>) {
    return T(int((i * 2654435761u) % 7) - 3);
  } else {
    return T(offset + double((i * 2654435761u) % 1000003) / 1000003.0);
  }
}

template <class T, class Space>
Kokkos::View<const T*, typename Space::memory_space> make_input(std::size_t n, double offset = 0) {
  return kapi_test::make_view<T, Space>("x", n, [=](std::size_t i) { return value_at<T>(i, offset); });
}

struct Reference {
  double value = 0, abs_sum = 0;
  std::int64_t exact = 0;
};

template <class T>
Reference reference(std::size_t n, double offset = 0) {
  Reference r;
  double compensation = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const T v = value_at<T>(i, offset);
    if constexpr (std::is_integral_v<T>) {
      r.exact += v;
    } else {
      const double d = double(v), t = r.value + d;
      compensation += std::fabs(r.value) >= std::fabs(d) ? (r.value - t) + d : (d - t) + r.value;
      r.value = t;
      r.abs_sum += std::fabs(d);
    }
  }
  r.value += compensation;
  return r;
}

template <class T, class Space>
void check_sum(const std::string& variant, const Kokkos::View<const T*, typename Space::memory_space>& x,
               reduce::Workspace<T, Space>& ws, const Reference& ref) {
  const std::size_t n = x.extent(0);
  const T got = reduce::sum<T>(variant, Space(), x, ws);
  if constexpr (std::is_integral_v<T>) {
    EXPECT_EQ(std::int64_t(got), ref.exact) << variant << " n = " << n;
  } else {
    const double bound = reduce::error_bound<T>(variant, Space(), n, ref.abs_sum);
    EXPECT_LE(std::fabs(double(got) - ref.value), bound)
        << variant << " " << sizeof(T) * 8 << "-bit n = " << n << ": got " << got << ", exact " << ref.value;
  }
}

template <class T, class Space>
void check_every_variant(const std::vector<std::size_t>& sizes) {
  reduce::Workspace<T, Space> ws(Space(), 1);  // grows as the sizes need
  for (std::size_t n : sizes) {
    const auto x = make_input<T, Space>(n);
    const Reference ref = reference<T>(n);
    for (const auto& variant : reduce::variants()) check_sum<T, Space>(variant, x, ws, ref);
  }
}

const std::vector<std::size_t> sizes = {0, 1, 2, 3, 7, 16, 17, 31, 97, 255, 256, 257, 1000, 4099, 65537, 1000003};

template <class Space>
struct ReduceApp : ::testing::Test {};
KAPI_TYPED_TEST_SUITE(ReduceApp);

TYPED_TEST(ReduceApp, Int32) { check_every_variant<std::int32_t, TypeParam>(sizes); }
TYPED_TEST(ReduceApp, Int64) { check_every_variant<std::int64_t, TypeParam>(sizes); }
TYPED_TEST(ReduceApp, Float) { check_every_variant<float, TypeParam>(sizes); }
TYPED_TEST(ReduceApp, Double) { check_every_variant<double, TypeParam>(sizes); }

// 2^24 + 3 floats in [1, 2): past 2^24 a float accumulator's spacing is 2, so each such
// addition rounds to +2 and a running float sum drifts by millions, far outside the tree
// variants' bounds.
TYPED_TEST(ReduceApp, LargeFloatSumStaysAccurate) {
  const std::size_t n = (std::size_t(1) << 24) + 3;
  const auto x = make_input<float, TypeParam>(n, 1.0);
  const Reference ref = reference<float>(n, 1.0);
  reduce::Workspace<float, TypeParam> ws(TypeParam(), n);
  for (const char* variant : {"pairwise", "recursive", "single-pass"}) {
    EXPECT_LE(reduce::error_depth<float>(variant, TypeParam(), n), 200u) << variant;
    EXPECT_LT(reduce::error_bound<float>(variant, TypeParam(), n, ref.abs_sum), 1e3) << variant;
    check_sum<float, TypeParam>(variant, x, ws, ref);
  }
  float naive = 0;  // what the bound rules out
  for (std::size_t i = 0; i < n; ++i) naive += value_at<float>(i, 1.0);
  EXPECT_GT(std::fabs(double(naive) - ref.value), 1e5);
}

TYPED_TEST(ReduceApp, InputIsLeftAloneAndWorkspaceIsReused) {
  const std::size_t n = 12345;
  const auto x = make_input<double, TypeParam>(n);
  reduce::Workspace<double, TypeParam> ws(TypeParam(), n);
  const Reference ref = reference<double>(n);
  for (int round = 0; round < 3; ++round)
    for (const auto& variant : reduce::variants()) check_sum<double, TypeParam>(variant, x, ws, ref);
  auto h = kapi_test::to_host(x);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(h(i), value_at<double>(i)) << "input changed at " << i;
}

TYPED_TEST(ReduceApp, PairwiseInPlaceLikeTheSeed) {
  for (std::size_t n : {1, 2, 5, 1024, 1000003}) {
    auto x =
        kapi_test::make_view<std::int64_t, TypeParam>("x", n, [](std::size_t i) { return value_at<std::int64_t>(i); });
    EXPECT_EQ(reduce::sum_pairwise_in_place(TypeParam(), x), reference<std::int64_t>(n).exact) << n;
  }
}

// pairwise adds the same pairs in the same order at every length, whichever passes run in
// one work-group (none; those from 4096 elements down, the device's default; all but the
// first) and however many passes each launch fuses (1 to 4): the float sum equals, bit
// for bit, the halving passes run here one by one.
TYPED_TEST(ReduceApp, PairwiseIsTheHalvingTreeBitForBit) {
  reduce::Workspace<float, TypeParam> ws(TypeParam(), 1);
  for (std::size_t n : {2, 3, 4095, 4096, 4097, 8193, 12345, 100003}) {
    std::vector<float> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = float(std::sin(0.37 * double(i)) * 1e3 + 1e-3 * double(i % 97));
    const Kokkos::View<const float*, typename TypeParam::memory_space> x =
        kapi_test::make_view<float, TypeParam>("x", v);
    for (std::size_t m = n; m > 1;) {
      const std::size_t half = (m + 1) / 2;
      for (std::size_t i = 0; i + half < m; ++i) v[i] += v[i + half];
      m = half;
    }
    EXPECT_EQ(reduce::sum<float>("pairwise", TypeParam(), x, ws), v[0]) << "n = " << n;
    // A tail length of 0 means the same as 1 (no passes in the work-group); it looped
    // forever once (a live length of 1 is still above 0).
    for (std::size_t tail : {std::size_t(0), std::size_t(1), std::size_t(4096), n})
      for (int levels = 1; levels <= 4; ++levels) {
        const float got = reduce::sum_pairwise(TypeParam(), x, ws, tail, levels);
        EXPECT_EQ(std::memcmp(&got, &v[0], sizeof(float)), 0) << "n = " << n << ", tail " << tail << ", " << levels
                                                              << " levels: got " << got << ", the tree gives " << v[0];
      }
  }
  const Kokkos::View<const float*, typename TypeParam::memory_space> x =
      kapi_test::make_view<float, TypeParam>("x", std::vector<float>{1, 2, 3});
  for (int levels : {0, 5})
    EXPECT_THROW(
        {
          try {
            reduce::sum_pairwise(TypeParam(), x, ws, 1, levels);
          } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find("got " + std::to_string(levels)), std::string::npos) << e.what();
            throw;
          }
        },
        std::invalid_argument);
}

// The recursive reduction for any work-group size, including sizes that are not powers
// of two, and any number of elements per work-item (1 makes the most passes).
TYPED_TEST(ReduceApp, RecursiveWithAnyGroupSize) {
  reduce::Workspace<std::int64_t, TypeParam> ws(TypeParam(), 1);
  for (std::size_t n : {1, 3, 1000, 4099, 70001}) {
    const auto x = make_input<std::int64_t, TypeParam>(n);
    const auto exact = reference<std::int64_t>(n).exact;
    for (std::size_t group : {1, 2, 3, 7, 64, 100, 256})
      for (std::size_t per_item : {1, 5, 64}) {
        if (n / (group * per_item) > 20000) continue;  // one work-item per element: keep it small
        EXPECT_EQ(reduce::sum_recursive(TypeParam(), x, ws, reduce::RecursiveConfig{group, per_item}), exact)
            << "n = " << n << ", group " << group << ", per item " << per_item;
      }
  }
}

TYPED_TEST(ReduceApp, UnknownVariantIsRejected) {
  reduce::Workspace<float, TypeParam> ws(TypeParam(), 4);
  EXPECT_THROW(reduce::sum<float>("bogus", TypeParam(), make_input<float, TypeParam>(4), ws), std::invalid_argument);
}

}  // namespace
