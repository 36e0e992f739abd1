// SPDX-License-Identifier: Apache-2.0
// kapi/launch_bounds.hpp: the launch checks a kernel's LaunchBounds bring (groups up to
// the bound run, larger ones are refused before anything runs) and kernels without bounds
// unaffected, on every execution space.
#include <gmock/gmock.h>

#include <kapi/errors.hpp>
#include <kapi/item.hpp>
#include <kapi/launch.hpp>
#include <kapi/launch_bounds.hpp>
#include <kapi/range.hpp>

#include <cstddef>
#include <string>

#include "execution_spaces.hpp"

namespace {

template <class Space>
struct LaunchBounds : ::testing::Test {};
KAPI_TYPED_TEST_SUITE(LaunchBounds);

struct WriteIds {
  template <int N, class Out>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<N>& it, const Out& out) const {
    out(it.get_global_linear_id()) = int(it.get_global_linear_id() * 3 + it.get_local_linear_id());
  }
};
struct WriteIdsBoundedTo64 : WriteIds {
  using launch_bounds = kapi::LaunchBounds<64>;
};
struct WriteIdsBoundedTo64TwoGroups : WriteIds {
  using launch_bounds = kapi::LaunchBounds<64, 2>;
};

static_assert(kapi::detail::launch_bounds_of<WriteIds>::max_work_items == 0);
static_assert(kapi::detail::launch_bounds_of<WriteIdsBoundedTo64>::max_work_items == 64);
static_assert(kapi::detail::launch_bounds_of<WriteIdsBoundedTo64TwoGroups>::min_groups_per_unit == 2);

template <class Space, int N, class Kernel>
void expect_ids_written(const Kernel& kernel, const kapi::NdRange<N>& range) {
  const std::size_t n = range.global.size(), local = range.local.size();
  Kokkos::View<int*, typename Space::memory_space> out("out", n);
  kapi::call_kernel(Space(), kernel, range, out);
  auto h = kapi_test::to_host(out);
  for (std::size_t i = 0; i < n; ++i) {
    // Global linear ids of a 1-d range, and of these 2-d ranges whose local range spans
    // whole rows, run group after group.
    ASSERT_EQ(h(i), int(i * 3 + i % local)) << "work-item " << i << ", group size " << local;
  }
}

template <class Space, int N, class Kernel>
void expect_bounds_rejected(const Kernel& kernel, const kapi::NdRange<N>& range, const std::string& size,
                            const std::string& bound) {
  Kokkos::View<int*, typename Space::memory_space> out("out", range.global.size());
  Kokkos::deep_copy(out, -1);
  try {
    kapi::call_kernel(Space(), kernel, range, out);
    ADD_FAILURE() << "a work-group of " << size << " launched a kernel bounded to " << bound;
  } catch (const kapi::launch_error& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr(size));
    EXPECT_THAT(e.what(), ::testing::HasSubstr(bound));
    EXPECT_THAT(e.what(), ::testing::HasSubstr("LaunchBounds"));
  }
  auto h = kapi_test::to_host(out);
  for (std::size_t i = 0; i < h.extent(0); ++i) ASSERT_EQ(h(i), -1) << "the rejected kernel ran: element " << i;
}

TYPED_TEST(LaunchBounds, AcceptGroupsUpToTheBound) {
  expect_ids_written<TypeParam>(WriteIdsBoundedTo64{}, kapi::NdRange<1>({256}, {64}));
  expect_ids_written<TypeParam>(WriteIdsBoundedTo64{}, kapi::NdRange<1>({96}, {32}));
  expect_ids_written<TypeParam>(WriteIdsBoundedTo64TwoGroups{}, kapi::NdRange<1>({192}, {64}));
  expect_ids_written<TypeParam>(WriteIdsBoundedTo64{}, kapi::NdRange<2>({2, 64}, {1, 64}));
}

TYPED_TEST(LaunchBounds, RejectLargerGroups) {
  expect_bounds_rejected<TypeParam>(WriteIdsBoundedTo64{}, kapi::NdRange<1>({256}, {128}), "128", "64");
  expect_bounds_rejected<TypeParam>(WriteIdsBoundedTo64TwoGroups{}, kapi::NdRange<1>({65}, {65}), "65", "64");
  expect_bounds_rejected<TypeParam>(WriteIdsBoundedTo64{}, kapi::NdRange<2>({16, 16}, {8, 16}), "128", "64");
}

TYPED_TEST(LaunchBounds, KernelsWithoutBoundsAreUnaffected) {
  expect_ids_written<TypeParam>(WriteIds{}, kapi::NdRange<1>({256}, {128}));
  expect_ids_written<TypeParam>(WriteIds{}, kapi::NdRange<1>({256}, {256}));
}

}  // namespace
