// SPDX-License-Identifier: Apache-2.0
// kapi/vec.hpp: Vec's shape, widths and alignment rule, loads and stores on the host, and
// a round trip through a range kernel on every execution space.
#include <gmock/gmock.h>

#include <kapi/item.hpp>
#include <kapi/launch.hpp>
#include <kapi/range.hpp>
#include <kapi/vec.hpp>

#include <cstddef>

#include "execution_spaces.hpp"

namespace {

template <class T, int W>
struct DoubleAndAddLane {  // dst = 2 * src + lane, one Vec per work-item
  template <class View>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::Item<1>& it, const View& src, const View& dst) const {
    const std::size_t at = it.get_id(0) * W;
    kapi::Vec<T, W> v = kapi::Vec<T, W>::load(&src(at));
    for (int w = 0; w < W; ++w) v[w] = T(2) * v[w] + T(w);
    v.store(&dst(at));
  }
};

template <class T, int W, class Space>
void check_vec_round_trip() {
  const std::size_t vectors = 37, n = vectors * W;
  auto src = kapi_test::make_view<T, Space>("src", n, [](std::size_t i) { return T(3 * i + 1); });
  Kokkos::View<T*, typename Space::memory_space> dst("dst", n);
  // Kokkos allocations are aligned far beyond 16 bytes; the kernel relies on it.
  ASSERT_TRUE((kapi::Vec<T, W>::aligned(src.data()) && kapi::Vec<T, W>::aligned(dst.data())));
  kapi::call_kernel(Space(), DoubleAndAddLane<T, W>{}, kapi::Range<1>(vectors), src, dst);
  auto h = kapi_test::to_host(dst);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(h(i), T(2 * (3 * i + 1) + i % W)) << "element " << i << ", W " << W;
}

template <class Space>
struct VecKernels : ::testing::Test {};
KAPI_TYPED_TEST_SUITE(VecKernels);

TEST(Vec, ShapeAndWidths) {
  static_assert(sizeof(kapi::Vec<float, 4>) == 16 && alignof(kapi::Vec<float, 4>) == 16);
  static_assert(sizeof(kapi::Vec<double, 4>) == 32 && alignof(kapi::Vec<double, 4>) == 32);
  static_assert(kapi::Vec<float, 4>::width == 4);
  static_assert(kapi::vec_width_16_bytes<float> == 4 && kapi::vec_width_16_bytes<double> == 2);
  static_assert(kapi::vec_width_16_bytes<char> == 16);
  struct Wide {
    double v[4];
  };
  static_assert(kapi::vec_width_16_bytes<Wide> == 1);
}

TEST(Vec, AlignedIsTrueOnlyAtMultiplesOfTheVectorSize) {
  alignas(64) float f[16] = {};
  alignas(64) double d[16] = {};
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ((kapi::Vec<float, 4>::aligned(f + i)), i % 4 == 0) << i;
    EXPECT_EQ((kapi::Vec<float, 2>::aligned(f + i)), i % 2 == 0) << i;
    EXPECT_TRUE((kapi::Vec<float, 1>::aligned(f + i))) << i;
    EXPECT_EQ((kapi::Vec<double, 2>::aligned(d + i)), i % 2 == 0) << i;
    EXPECT_EQ((kapi::Vec<double, 4>::aligned(d + i)), i % 4 == 0) << i;
  }
  // A pointer that is not even element-aligned is never Vec-aligned.
  const auto* odd = reinterpret_cast<const float*>(reinterpret_cast<const char*>(f) + 2);
  EXPECT_FALSE((kapi::Vec<float, 4>::aligned(odd)));
}

TEST(Vec, LoadAndStoreOnTheHost) {
  alignas(16) float src[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  alignas(16) float dst[8] = {};
  const auto v = kapi::Vec<float, 4>::load(src + 4);
  EXPECT_EQ(v[0], 5.f);
  EXPECT_EQ(v[3], 8.f);
  v.store(dst);
  EXPECT_THAT(dst, ::testing::ElementsAre(5, 6, 7, 8, 0, 0, 0, 0));
}

TYPED_TEST(VecKernels, RoundTripInAKernel) {
  check_vec_round_trip<float, 4, TypeParam>();
  check_vec_round_trip<float, 2, TypeParam>();
  check_vec_round_trip<double, 2, TypeParam>();
  check_vec_round_trip<double, 1, TypeParam>();
}

}  // namespace
