// SPDX-License-Identifier: Apache-2.0
// Every id query of Item, NdItem and Group against a brute-force reference, for 1-, 2-
// and 3-d ranges of non-square, non-power-of-two shapes.
#include <cstdint>
#include <algorithm>
#include <initializer_list>
#include <vector>

#include <kapi/group.hpp>
#include <kapi/item.hpp>
#include <kapi/launch.hpp>
#include <kapi/range.hpp>

#include "execution_spaces.hpp"

namespace {

using Record = Kokkos::View<std::int64_t****, Kokkos::LayoutRight>;

// Fields recorded per work-item, indexed by its global id padded to 3 dimensions.
enum Field : int {
  hits,
  linear_id,
  linear_range,
  range_d0,
  range_d1,
  range_d2,  // Item and NdItem global
  local_d0,
  local_d1,
  local_d2,
  local_linear,
  local_linear_range,
  local_range_d0,
  local_range_d1,
  local_range_d2,
  group_d0,
  group_d1,
  group_d2,
  group_linear,
  group_linear_range,
  group_range_d0,
  group_range_d1,
  group_range_d2,
  group_local_range_d0,
  group_local_linear_range,
  leader,
  field_count
};

template <int N, class Ids>
KOKKOS_INLINE_FUNCTION void id3(const Ids& get, std::size_t (&id)[3]) {
  for (int d = 0; d < 3; ++d) id[d] = d < N ? get(d) : 0;
}

template <class Space, int N>
Kokkos::View<std::int64_t****, Kokkos::LayoutRight, typename Space::memory_space> record_view(
    const std::size_t (&g)[N]) {
  std::size_t e[3] = {1, 1, 1};
  for (int d = 0; d < N; ++d) e[d] = g[d];
  return Kokkos::View<std::int64_t****, Kokkos::LayoutRight, typename Space::memory_space>("record", e[0], e[1], e[2],
                                                                                           field_count);
}

template <class Space, int N>
void record_range_ids(const std::size_t (&g)[N]) {
  auto rec = record_view<Space, N>(g);
  kapi::Range<N> range;
  for (int d = 0; d < N; ++d) range.extent[d] = g[d];
  kapi::call_kernel(
      Space(),
      KOKKOS_LAMBDA(kapi::Item<N> it, decltype(rec) r) {
        std::size_t id[3];
        id3<N>([&](int d) { return it.get_id(d); }, id);
        Kokkos::atomic_add(&r(id[0], id[1], id[2], hits), std::int64_t(1));
        r(id[0], id[1], id[2], linear_id) = it.get_linear_id();
        r(id[0], id[1], id[2], linear_range) = it.get_linear_range();
        for (int d = 0; d < N; ++d) r(id[0], id[1], id[2], range_d0 + d) = it.get_range(d);
      },
      range, rec);
  auto h = kapi_test::to_host(rec);
  std::size_t e[3] = {1, 1, 1}, total = 1;
  for (int d = 0; d < N; ++d) e[d] = g[d], total *= g[d];
  for (std::size_t i = 0; i < e[0]; ++i)
    for (std::size_t j = 0; j < e[1]; ++j)
      for (std::size_t k = 0; k < e[2]; ++k) {
        ASSERT_EQ(h(i, j, k, hits), 1) << "item (" << i << "," << j << "," << k << ")";
        EXPECT_EQ(h(i, j, k, linear_id), std::int64_t((i * e[1] + j) * e[2] + k));
        EXPECT_EQ(h(i, j, k, linear_range), std::int64_t(total));
        for (int d = 0; d < N; ++d) EXPECT_EQ(h(i, j, k, range_d0 + d), std::int64_t(g[d]));
      }
}

template <class Space, int N>
void record_nd_range_ids(const std::size_t (&g)[N], const std::size_t (&l)[N]) {
  auto rec = record_view<Space, N>(g);
  kapi::NdRange<N> range;
  for (int d = 0; d < N; ++d) range.global.extent[d] = g[d], range.local.extent[d] = l[d];
  kapi::call_kernel(
      Space(),
      KOKKOS_LAMBDA(kapi::NdItem<N> it, decltype(rec) r) {
        std::size_t id[3];
        id3<N>([&](int d) { return it.get_global_id(d); }, id);
        auto at = [&](int f) -> std::int64_t& { return r(id[0], id[1], id[2], f); };
        Kokkos::atomic_add(&at(hits), std::int64_t(1));
        at(linear_id) = it.get_global_linear_id();
        at(linear_range) = it.get_global_linear_range();
        at(local_linear) = it.get_local_linear_id();
        at(local_linear_range) = it.get_local_linear_range();
        const kapi::Group<N>& grp = it.get_group();
        at(group_linear) = grp.get_group_linear_id();
        at(group_linear_range) = grp.get_group_linear_range();
        at(group_local_range_d0) = grp.get_local_range(0);
        at(group_local_linear_range) = grp.get_local_linear_range();
        at(leader) = grp.leader();
        for (int d = 0; d < N; ++d) {
          at(range_d0 + d) = it.get_global_range(d);
          at(local_d0 + d) = it.get_local_id(d);
          at(local_range_d0 + d) = it.get_local_range(d);
          at(group_d0 + d) = grp.get_group_id(d);
          at(group_range_d0 + d) = grp.get_group_range(d);
        }
      },
      range, rec);
  auto h = kapi_test::to_host(rec);
  std::size_t ge[3] = {1, 1, 1}, le[3] = {1, 1, 1};
  for (int d = 0; d < N; ++d) ge[d] = g[d], le[d] = l[d];
  std::size_t ng[3] = {ge[0] / le[0], ge[1] / le[1], ge[2] / le[2]};
  for (std::size_t i = 0; i < ge[0]; ++i)
    for (std::size_t j = 0; j < ge[1]; ++j)
      for (std::size_t k = 0; k < ge[2]; ++k) {
        const std::size_t x[3] = {i, j, k};
        auto at = [&](int f) { return h(i, j, k, f); };
        ASSERT_EQ(at(hits), 1) << "work-item (" << i << "," << j << "," << k << ")";
        EXPECT_EQ(at(linear_id), std::int64_t((i * ge[1] + j) * ge[2] + k));
        EXPECT_EQ(at(linear_range), std::int64_t(ge[0] * ge[1] * ge[2]));
        std::size_t lid[3], gid[3];
        for (int d = 0; d < 3; ++d) lid[d] = x[d] % le[d], gid[d] = x[d] / le[d];
        EXPECT_EQ(at(local_linear), std::int64_t((lid[0] * le[1] + lid[1]) * le[2] + lid[2]));
        EXPECT_EQ(at(local_linear_range), std::int64_t(le[0] * le[1] * le[2]));
        EXPECT_EQ(at(group_linear), std::int64_t((gid[0] * ng[1] + gid[1]) * ng[2] + gid[2]));
        EXPECT_EQ(at(group_linear_range), std::int64_t(ng[0] * ng[1] * ng[2]));
        EXPECT_EQ(at(group_local_range_d0), std::int64_t(le[0]));
        EXPECT_EQ(at(group_local_linear_range), std::int64_t(le[0] * le[1] * le[2]));
        EXPECT_EQ(at(leader), std::int64_t(lid[0] == 0 && lid[1] == 0 && lid[2] == 0));
        for (int d = 0; d < N; ++d) {
          EXPECT_EQ(at(range_d0 + d), std::int64_t(ge[d]));
          EXPECT_EQ(at(local_d0 + d), std::int64_t(lid[d]));
          EXPECT_EQ(at(local_range_d0 + d), std::int64_t(le[d]));
          EXPECT_EQ(at(group_d0 + d), std::int64_t(gid[d]));
          EXPECT_EQ(at(group_range_d0 + d), std::int64_t(ng[d]));
        }
      }
}

template <class Space>
struct Ids : ::testing::Test {};
KAPI_TYPED_TEST_SUITE(Ids);

TYPED_TEST(Ids, Range1d) {
  record_range_ids<TypeParam, 1>({1});
  record_range_ids<TypeParam, 1>({1000003});
}
TYPED_TEST(Ids, Range2d) {
  record_range_ids<TypeParam, 2>({7, 13});
  record_range_ids<TypeParam, 2>({129, 3});
}
TYPED_TEST(Ids, Range3d) {
  record_range_ids<TypeParam, 3>({5, 11, 3});
  record_range_ids<TypeParam, 3>({2, 1, 37});
}
TYPED_TEST(Ids, NdRange1d) {
  record_nd_range_ids<TypeParam, 1>({35}, {7});
  record_nd_range_ids<TypeParam, 1>({96}, {96});
}
TYPED_TEST(Ids, NdRange2d) {
  record_nd_range_ids<TypeParam, 2>({12, 15}, {3, 5});
  record_nd_range_ids<TypeParam, 2>({6, 6}, {2, 2});
  record_nd_range_ids<TypeParam, 2>({33, 4}, {11, 1});
}
TYPED_TEST(Ids, NdRange3d) {
  record_nd_range_ids<TypeParam, 3>({6, 10, 21}, {2, 5, 3});
  record_nd_range_ids<TypeParam, 3>({4, 4, 9}, {4, 1, 9});
}

// Ids and extents past 32 bits (a 1-d range of 2^32 + 5 items, a group range as large):
// delinearize gives the id whose row-major position is `linear`, each coordinate below
// its extent.
TEST(Delinearize, GivesTheRowMajorIdPast32Bits) {
  const std::uint64_t big = std::uint64_t(1) << 32;
  const std::size_t extents[][3] = {{0, 0, 0},         {4, 0, 3},       {7, 13, 5},
                                    {3, 65537, 65539}, {2, 3, big + 5}, {1, big - 1, 3}};
  for (const auto& e : extents) {
    const std::uint64_t total = std::uint64_t(e[0]) * e[1] * e[2];  // below 2^64 for these
    for (std::uint64_t linear : {std::uint64_t(0), std::uint64_t(1), big - 2, big - 1, big, big + 1, total - 1}) {
      if (linear >= total) continue;
      std::size_t id[3];
      kapi::detail::delinearize(std::size_t(linear), e, id);
      for (int d = 0; d < 3; ++d) ASSERT_LT(id[d], e[d]) << "linear " << linear << ", dimension " << d;
      EXPECT_EQ((std::uint64_t(id[0]) * e[1] + id[1]) * e[2] + id[2], linear)
          << "extents " << e[0] << " x " << e[1] << " x " << e[2] << ": id " << id[0] << ", " << id[1] << ", " << id[2];
    }
  }
}

// The split device launches use (detail/fast_divisor.hpp): for ids and extents below 2^31
// (every group count a launch accepts, every work-group), the row-major id of `linear`,
// checked against integer division at the ends and across the range of each shape.
TEST(FastExtents, SplitsLikeIntegerDivisionBelow2To31) {
  const std::size_t limit = (std::size_t(1) << 31) - 1;
  const std::size_t extents[][3] = {{0, 0, 0},         {4, 0, 3},        {7, 13, 5},    {1, 1, 1},
                                    {1, 1024, 1},      {limit, 1, 1},    {3, 65537, 3}, {1, 46341, 46340},
                                    {2, 3, limit / 6}, {5, 1, 429496729}};
  for (const auto& e : extents) {
    const kapi::detail::FastExtents<3> split(e);  // an empty shape too (an empty launch)
    const std::size_t total = std::min(e[0] * e[1] * e[2], limit + 1);
    if (total == 0) continue;
    std::vector<std::size_t> ids = {0, 1, total / 3, total / 2, total - 2, total - 1};
    for (std::size_t step = total / 997 + 1, i = 0; i < total; i += step) ids.push_back(i);
    for (std::size_t linear : ids) {
      if (linear >= total) continue;
      std::size_t id[3];
      split.split(linear, id);
      EXPECT_EQ(id[2], linear % e[2]) << "linear " << linear;
      EXPECT_EQ(id[1], linear / e[2] % e[1]) << "linear " << linear;
      EXPECT_EQ(id[0], linear / e[2] / e[1]) << "linear " << linear;
    }
  }
}

}  // namespace
