// SPDX-License-Identifier: Apache-2.0
// The loop-nest policies: every policy visits every point of awkward index spaces exactly
// once with the right (i, j, k); names parse and print; a user-defined policy plugs in.
#include <kapi/loop_nest.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "execution_spaces.hpp"

namespace {

using kapi::nest::index_type;

// Counts visits per point and records which (i, j, k) the body saw there.
template <class Mem>
struct VisitBody {
  Kokkos::View<int***, Kokkos::LayoutRight, Mem> count;
  Kokkos::View<index_type***, Kokkos::LayoutRight, Mem> seen;
  KOKKOS_INLINE_FUNCTION void operator()(index_type i, index_type j, index_type k) const {
    Kokkos::atomic_add(&count(i, j, k), 1);
    seen(i, j, k) = (i * 1000 + j) * 1000 + k;
  }
};

template <class Space, class Policy>
void check_visits(const Policy& policy, std::size_t ni, std::size_t nj, std::size_t nk) {
  using Mem = typename Space::memory_space;
  VisitBody<Mem> body{Kokkos::View<int***, Kokkos::LayoutRight, Mem>("count", ni, nj, nk),
                      Kokkos::View<index_type***, Kokkos::LayoutRight, Mem>("seen", ni, nj, nk)};
  kapi::loop_nest(Space(), policy, kapi::Range<3>(ni, nj, nk), body);
  auto count = kapi_test::to_host(body.count);
  auto seen = kapi_test::to_host(body.seen);
  const std::string name = kapi::nest::policy_name(policy);
  for (std::size_t i = 0; i < ni; ++i)
    for (std::size_t j = 0; j < nj; ++j)
      for (std::size_t k = 0; k < nk; ++k) {
        ASSERT_EQ(count(i, j, k), 1) << name << " on " << ni << "x" << nj << "x" << nk << " at (" << i << "," << j
                                     << "," << k << ")";
        ASSERT_EQ(seen(i, j, k), index_type((i * 1000 + j) * 1000 + k)) << name;
      }
}

// {4, 16, 70}: whole groups along i and j, padded along k alone (its own kernel).
const std::vector<std::vector<std::size_t>> awkward_extents = {{1, 1, 1},    {2, 3, 5},  {7, 1, 13},  {1, 9, 1},
                                                               {17, 19, 33}, {5, 70, 3}, {3, 2, 257}, {4, 16, 70}};

template <class Space>
struct LoopNest : ::testing::Test {};
KAPI_TYPED_TEST_SUITE(LoopNest);

TYPED_TEST(LoopNest, EveryBuiltInPolicyVisitsEveryPointOnce) {
  for (const auto& name : kapi::nest::policy_names())
    for (const auto& e : awkward_extents) check_visits<TypeParam>(kapi::nest::parse_policy(name), e[0], e[1], e[2]);
}

TYPED_TEST(LoopNest, PolicyShapesFromNames) {
  const char* names[] = {
      "collapsed-4x2x3", "collapsed-1x1x1", "blocks-3d-4x4x2", "blocks-3d-grid-2x3x1", "blocks-3d-8x2x1-grid-1x1x1",
      "tiles-16x16x1",   "tiles-3x5x7",     "tiles-1x1x1",     "kapi-nd-range-4x2x2",  "kapi-nd-range-32x8x1"};
  for (const char* name : names)
    for (const auto& e : awkward_extents) check_visits<TypeParam>(kapi::nest::parse_policy(name), e[0], e[1], e[2]);
}

TYPED_TEST(LoopNest, PolicyObjectsDirectly) {
  kapi::nest::Tiles tiles;
  tiles.tile[0] = 2, tiles.tile[1] = 3, tiles.tile[2] = 4;
  check_visits<TypeParam>(tiles, 9, 10, 11);
  kapi::nest::BlockStride blocks;
  blocks.grid[0] = 1, blocks.grid[1] = 2, blocks.grid[2] = 1;  // a grid much smaller than the space
  check_visits<TypeParam>(blocks, 9, 50, 70);
  check_visits<TypeParam>(kapi::nest::Hierarchical{}, 4, 6, 100);
  check_visits<TypeParam>(kapi::nest::AnyPolicy(kapi::nest::Sequential{}), 3, 4, 5);
  check_visits<TypeParam>(std::string("parallel-outer"), 3, 4, 5);
}

TYPED_TEST(LoopNest, EmptySpacesRunNothing) {
  for (const auto& name : kapi::nest::policy_names()) {
    check_visits<TypeParam>(kapi::nest::parse_policy(name), 0, 3, 3);
    check_visits<TypeParam>(kapi::nest::parse_policy(name), 3, 0, 3);
    check_visits<TypeParam>(kapi::nest::parse_policy(name), 3, 3, 0);
  }
}

// A policy of the user's own: rows (i, j) in parallel over a RangePolicy, k backwards.
template <class Body>
struct BackwardsRows {
  Body body;
  index_type nj, nk;
  KOKKOS_INLINE_FUNCTION void operator()(index_type row) const {
    for (index_type k = nk - 1; k >= 0; --k) body(row / nj, row % nj, k);
  }
};
struct BackwardsRowsPolicy {
  std::string name() const { return "backwards-rows"; }
  template <class ExecSpace, class Body>
  void run(const ExecSpace& space, const kapi::Range<3>& r, const Body& body) const {
    const auto nj = index_type(r[1]), nk = index_type(r[2]);
    Kokkos::parallel_for(Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<index_type>>(space, 0, index_type(r[0]) * nj),
                         BackwardsRows<Body>{body, nj, nk});
  }
};

TYPED_TEST(LoopNest, UserDefinedPolicy) {
  static_assert(kapi::nest::is_policy_v<BackwardsRowsPolicy, TypeParam, VisitBody<typename TypeParam::memory_space>>);
  for (const auto& e : awkward_extents) check_visits<TypeParam>(BackwardsRowsPolicy{}, e[0], e[1], e[2]);
}

TYPED_TEST(LoopNest, OversizedBlocksAreRejectedOnDevices) {
  if (kapi_test::is_host_space<TypeParam>) GTEST_SKIP() << "host backends run any block shape";
  // 64×32×1 = 2048 threads a block; the space is larger than the tile, so it is not clipped.
  EXPECT_THROW(check_visits<TypeParam>(kapi::nest::parse_policy("tiles-64x32x1"), 2, 40, 70), kapi::launch_error);
  EXPECT_THROW(check_visits<TypeParam>(kapi::nest::parse_policy("collapsed-64x32x1"), 2, 40, 70), kapi::launch_error);
  EXPECT_THROW(check_visits<TypeParam>(kapi::nest::parse_policy("blocks-3d-64x32x1"), 2, 40, 70), kapi::launch_error);
}

// The multiply-and-shift division the GPU mappings use: exact for every 31-bit value.
TEST(LoopNestFastDivisor, MatchesIntegerDivision) {
  std::vector<std::uint32_t> divisors = {1, 2, 3, 7, 8, 31, 32, 125, 1000, 1023, 1024, 65535, 1000003, 0x7fffffffu};
  std::vector<std::uint32_t> values = {0, 1, 2, 1023, 1024, 65535, 123456789, 0x7ffffffeu, 0x7fffffffu};
  std::uint32_t x = 12345;
  for (int r = 0; r < 2000; ++r) values.push_back((x = x * 1103515245u + 12345u) & 0x7fffffffu);
  for (std::uint32_t d : divisors) {
    const kapi::nest::detail::FastDivisor f(d);
    for (std::uint32_t n : values) ASSERT_EQ(f.divide(n), n / d) << n << " / " << d;
  }
  const kapi::nest::detail::FastShape shape{kapi::nest::detail::FastDivisor(7), kapi::nest::detail::FastDivisor(33)};
  for (std::uint32_t linear = 0; linear < 5 * 7 * 33; ++linear) {
    std::uint32_t ijk[3];
    shape.split(linear, ijk);
    ASSERT_EQ((ijk[0] * 7 + ijk[1]) * 33 + ijk[2], linear);
    ASSERT_LT(ijk[1], 7u);
    ASSERT_LT(ijk[2], 33u);
  }
}

TEST(LoopNestNames, RoundTrip) {
  for (const auto& name : kapi::nest::policy_names())
    EXPECT_EQ(kapi::nest::policy_name(kapi::nest::parse_policy(name)), name);
  for (const char* name :
       {"collapsed-64x4x1", "blocks-3d-32x4x2", "blocks-3d-32x4x2-grid-8x8x8", "tiles-16x16x1", "kapi-nd-range-32x8x1"})
    EXPECT_EQ(kapi::nest::policy_name(kapi::nest::parse_policy(name)), name);
  // x is the contiguous k loop: "tiles-32x8x1" is 1 along i, 8 along j, 32 along k.
  const auto tiles = std::get<kapi::nest::Tiles>(kapi::nest::parse_policy("tiles-32x8x1"));
  EXPECT_EQ(tiles.tile[0], 1);
  EXPECT_EQ(tiles.tile[1], 8);
  EXPECT_EQ(tiles.tile[2], 32);
}

TEST(LoopNestNames, UnknownNamesAreRejectedWithTheList) {
  for (const char* bad : {"", "bogus", "tiles-0x8x1", "tiles-8x8", "tiles-axbxc", "collapsed-1x2x3x4",
                          "blocks-3d-grid-", "kapi-nd-range-1x-1x1", "tiles-8x8x1 "}) {
    try {
      kapi::nest::parse_policy(bad);
      ADD_FAILURE() << "'" << bad << "' was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("tiles-32x8x1"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
