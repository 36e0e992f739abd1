// SPDX-License-Identifier: Apache-2.0
// SYCL's hierarchical spelling (issue 36): parallel_for_work_group with the group count and
// size, parallel_for_work_item phases (physical and logical ranges), private memory across
// phases, local memory captured, ids and ranges in 1 and 2 dimensions, kernels named by a
// type or a string, and a bad size as a launch error. Each result against a plain host loop.
#include <kapi/errors.hpp>
#include <kapi/hierarchical.hpp>
#include <kapi/local_accessor.hpp>
#include <kapi/range.hpp>

#include <gmock/gmock.h>

#include <string>
#include <vector>

#include "execution_spaces.hpp"

namespace {

using ::testing::HasSubstr;

template <class T, class Space>
using Vec = Kokkos::View<T*, typename Space::memory_space>;

template <class Space>
struct SyclHierarchical : ::testing::Test {};
KAPI_TYPED_TEST_SUITE(SyclHierarchical);

// Private memory carries each work-item's value from one phase to the next.
template <class Space>
void check_private_memory(std::size_t groups, std::size_t local) {
  const std::size_t n = groups * local;
  const auto in = kapi_test::make_view<float, Space>("in", n, [](std::size_t i) { return float(i % 13) - 4.0f; });
  Vec<float, Space> out("out", n);
  kapi::parallel_for_work_group(
      Space(), kapi::Range<1>{groups}, kapi::Range<1>{local}, KOKKOS_LAMBDA(kapi::HGroup<1> g) {
        kapi::PrivateMemory<float, 1> x(g);
        g.parallel_for_work_item([&](kapi::HItem<1> it) { x(it) = in(it.get_global_id(0)) * 3.0f; });
        g.parallel_for_work_item(
            [&](kapi::HItem<1> it) { out(it.get_global_id(0)) = x(it) + float(g.get_group_id(0)); });
      });
  auto h = kapi_test::to_host(out);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(h(i), (float(i % 13) - 4.0f) * 3.0f + float(i / local)) << i;
}
TYPED_TEST(SyclHierarchical, PrivateMemoryAcrossPhases) {
  check_private_memory<TypeParam>(7, 64);
  check_private_memory<TypeParam>(3, 256);
}

// A group sum through local memory the kernel captured: every work-item stores, then one
// adds them up, in the next phase (the implicit barrier between them).
template <class Space>
void check_group_sums() {
  const std::size_t groups = 9, local = 32;
  const auto in = kapi_test::make_view<int, Space>("in", groups * local, [](std::size_t i) { return int(i * i % 17); });
  Vec<int, Space> sums("sums", groups);
  kapi::LocalAccessor<int, 1> values(local);
  kapi::parallel_for_work_group(
      Space(), kapi::Range<1>{groups}, kapi::Range<1>{local}, KOKKOS_LAMBDA(kapi::HGroup<1> g) {
        g.parallel_for_work_item([&](kapi::HItem<1> it) { values[it.get_local_id(0)] = in(it.get_global_id(0)); });
        g.parallel_for_work_item([&](kapi::HItem<1> it) {
          if (it.get_local_id(0) == 0) {
            int s = 0;
            for (std::size_t l = 0; l < it.get_local_range(0); ++l) s += values[l];
            sums(g.get_group_id(0)) = s;
          }
        });
      });
  auto h = kapi_test::to_host(sums);
  for (std::size_t grp = 0; grp < groups; ++grp) {
    int s = 0;
    for (std::size_t l = 0; l < local; ++l) s += int((grp * local + l) * (grp * local + l) % 17);
    ASSERT_EQ(h(grp), s) << "group " << grp;
  }
}
TYPED_TEST(SyclHierarchical, GroupSumThroughCapturedLocalMemory) { check_group_sums<TypeParam>(); }

// A logical range larger than the group: every logical id runs once, on a work-item of the
// group, with SYCL's logical ids and the global id group × logical range + logical id.
template <class Space>
void check_logical_range() {
  const std::size_t groups = 6, local = 8, logical = 20;
  Vec<std::size_t, Space> out("out", groups * logical), physical("physical", groups * logical);
  kapi::parallel_for_work_group(
      Space(), kapi::Range<1>{groups}, kapi::Range<1>{local}, KOKKOS_LAMBDA(kapi::HGroup<1> g) {
        g.parallel_for_work_item(kapi::Range<1>{logical}, [&](kapi::HItem<1> it) {
          const std::size_t gid = it.get_global_id(0);
          out(gid) = g.get_group_id(0) * 1000 + it.get_logical_local_id(0) * 10 + it.get_local_range(0) / 10;
          physical(gid) = it.get_physical_local_id(0) + 100 * it.get_physical_local_range(0) +
                          10000 * (it.get_global_range(0) == groups * logical ? 1 : 0);
        });
      });
  auto h = kapi_test::to_host(out);
  auto p = kapi_test::to_host(physical);
  for (std::size_t grp = 0; grp < groups; ++grp)
    for (std::size_t l = 0; l < logical; ++l) {
      ASSERT_EQ(h(grp * logical + l), grp * 1000 + l * 10 + 2) << grp << ", " << l;
      ASSERT_EQ(p(grp * logical + l), l % local + 100 * local + 10000) << grp << ", " << l;
    }
}
TYPED_TEST(SyclHierarchical, LogicalRangeLargerThanTheGroup) { check_logical_range<TypeParam>(); }

// Two dimensions: ids, ranges and an Id-indexed 2-d local tile transposed within the group.
template <class Space>
void check_two_dimensions() {
  const std::size_t gr = 3, gc = 4, lr = 4, lc = 8, rows = gr * lr, cols = gc * lc;
  Kokkos::View<std::size_t**, Kokkos::LayoutRight, typename Space::memory_space> ids("ids", rows * cols, 6);
  kapi::LocalAccessor<std::size_t, 2> tile(lr, lc);
  kapi::parallel_for_work_group(
      Space(), kapi::Range<2>{gr, gc}, kapi::Range<2>{lr, lc}, KOKKOS_LAMBDA(kapi::HGroup<2> g) {
        g.parallel_for_work_item(
            [&](kapi::HItem<2> it) { tile[it.get_local_id()] = it.get_global_id(0) * 100 + it.get_global_id(1); });
        g.parallel_for_work_item([&](kapi::HItem<2> it) {
          const kapi::Id<2> gid = it.get_global_id();
          const std::size_t row = gid[0] * cols + gid[1];
          const std::size_t li = it.get_local_id(0), lj = it.get_local_id(1);
          // the element the work-item at the mirrored position stored
          ids(row, 0) = tile(lr - 1 - li, lc - 1 - lj);
          ids(row, 1) = g.get_group_linear_id();
          ids(row, 2) = g.get_group_range(0) * 10 + g.get_group_range(1);
          ids(row, 3) = it.get_global_range(0) * 1000 + it.get_global_range(1);
          ids(row, 4) = g.get_local_range(0) * 10 + g.get_local_range(1);
          ids(row, 5) = g.get_group_linear_range();
        });
      });
  auto h = kapi_test::to_host(ids);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) {
      const std::size_t row = i * cols + j, bi = i / lr, bj = j / lc;
      const std::size_t mi = bi * lr + (lr - 1 - i % lr), mj = bj * lc + (lc - 1 - j % lc);
      ASSERT_EQ(h(row, 0), mi * 100 + mj) << i << ", " << j;
      ASSERT_EQ(h(row, 1), bi * gc + bj);
      ASSERT_EQ(h(row, 2), gr * 10 + gc);
      ASSERT_EQ(h(row, 3), rows * 1000 + cols);
      ASSERT_EQ(h(row, 4), lr * 10 + lc);
      ASSERT_EQ(h(row, 5), gr * gc);
    }
}
TYPED_TEST(SyclHierarchical, TwoDimensions) { check_two_dimensions<TypeParam>(); }

// Named by a type and by a string; a group count times size that overflows is a launch error.
template <class Space>
void check_names_and_errors() {
  const std::size_t groups = 5, local = 16;
  Vec<int, Space> out("out", groups * local);
  class HierarchicalFill;  // declared first for nvcc (test_sycl_captures.cpp says why)
  kapi::parallel_for_work_group<HierarchicalFill>(
      Space(), kapi::Range<1>{groups}, kapi::Range<1>{local}, KOKKOS_LAMBDA(kapi::HGroup<1> g) {
        g.parallel_for_work_item([&](kapi::HItem<1> it) { out(it.get_global_id(0)) = 1; });
      });
  kapi::parallel_for_work_group(
      "hierarchical-add", Space(), kapi::Range<1>{groups}, kapi::Range<1>{local}, KOKKOS_LAMBDA(kapi::HGroup<1> g) {
        g.parallel_for_work_item([&](kapi::HItem<1> it) { out(it.get_global_id(0)) += int(it.get_local_id(0)); });
      });
  auto h = kapi_test::to_host(out);
  for (std::size_t i = 0; i < groups * local; ++i) ASSERT_EQ(h(i), 1 + int(i % local)) << i;

  std::string message;
  try {
    kapi::parallel_for_work_group(
        Space(), kapi::Range<1>{~std::size_t(0) / 4}, kapi::Range<1>{local},
        KOKKOS_LAMBDA(kapi::HGroup<1> g) { g.parallel_for_work_item([&](kapi::HItem<1>) {}); });
  } catch (const kapi::launch_error& e) {
    message = e.what();
  }
  EXPECT_THAT(message, HasSubstr("more work-items than a size can count"));
}
TYPED_TEST(SyclHierarchical, NamesAndErrors) { check_names_and_errors<TypeParam>(); }

}  // namespace
