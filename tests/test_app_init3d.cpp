// SPDX-License-Identifier: Apache-2.0
// The init3d app: every policy writes c*i*j*k everywhere, bit for bit as the C-style
// triple loop does, on awkward grids.
#include <init3d/init3d.hpp>

#include <string>
#include <vector>

#include "execution_spaces.hpp"

namespace {

template <class Space>
void check_init3d(const std::string& policy, std::size_t ni, std::size_t nj, std::size_t nk, double c) {
  init3d::Array<typename Space::memory_space> a("a", ni, nj, nk);
  Kokkos::deep_copy(a, -1.0);
  init3d::run(policy, Space(), a, c);
  auto h = kapi_test::to_host(a);
  for (std::size_t i = 0; i < ni; ++i)
    for (std::size_t j = 0; j < nj; ++j)
      for (std::size_t k = 0; k < nk; ++k)
        ASSERT_EQ(h(i, j, k), init3d::expected(c, i, j, k))
            << policy << " on " << ni << "x" << nj << "x" << nk << " at (" << i << "," << j << "," << k << ")";
}

template <class Space>
struct Init3d : ::testing::Test {};
KAPI_TYPED_TEST_SUITE(Init3d);

TYPED_TEST(Init3d, EveryPolicyOnAwkwardGrids) {
  const std::vector<std::vector<std::size_t>> grids = {{1, 1, 1}, {2, 3, 5}, {13, 1, 31}, {9, 17, 33}, {31, 37, 41}};
  for (const auto& policy : init3d::policies())
    for (const auto& g : grids) check_init3d<TypeParam>(policy, g[0], g[1], g[2], 0.0001);
}

TYPED_TEST(Init3d, TheTutorialGrid) {
  for (const auto& policy : init3d::policies()) check_init3d<TypeParam>(policy, 100, 100, 100, 0.0001);
}

TYPED_TEST(Init3d, ShapedPoliciesByName) {
  for (const char* policy :
       {"tiles-16x16x1", "tiles-7x3x2", "blocks-3d-64x2x2-grid-2x2x2", "collapsed-8x8x2", "kapi-nd-range-16x4x2"})
    check_init3d<TypeParam>(policy, 23, 29, 71, 2.5);
}

TEST(Init3dPolicies, AreTheFrameworksBuiltIns) {
  EXPECT_EQ(init3d::policies(), kapi::nest::policy_names());
  EXPECT_EQ(init3d::policies().size(), 8u);
}

}  // namespace
