// SPDX-License-Identifier: Apache-2.0
// Every launch error: the exception, and the values its message names. Nothing may run.
#include <kapi/barrier.hpp>
#include <kapi/device_limits.hpp>
#include <kapi/errors.hpp>
#include <kapi/item.hpp>
#include <kapi/launch.hpp>
#include <kapi/local_accessor.hpp>
#include <kapi/range.hpp>

#include <gmock/gmock.h>

#include "execution_spaces.hpp"

namespace {

using ::testing::HasSubstr;

template <class Space>
using Counter = Kokkos::View<int, typename Space::memory_space>;

template <class Space>
int read(const Counter<Space>& c) {
  int v = 0;
  Kokkos::deep_copy(v, c);
  return v;
}

// Launches `range` with a kernel of item type ItemT<M> that counts the work-items run,
// and returns the launch_error's message ("" if none was thrown).
template <class Space, template <int> class ItemT, int M, class R, class... Extra>
std::string launch_message(const R& range, int& ran, const Extra&... extra) {
  Counter<Space> count("count");
  std::string message;
  try {
    kapi::call_kernel(
        Space(), KOKKOS_LAMBDA(ItemT<M>, Counter<Space> c, const Extra&...) { Kokkos::atomic_add(&c(), 1); }, range,
        count, extra...);
  } catch (const kapi::launch_error& e) {
    message = e.what();
  }
  ran = read<Space>(count);
  return message;
}

template <class Space>
struct Validation : ::testing::Test {};
KAPI_TYPED_TEST_SUITE(Validation);

TYPED_TEST(Validation, GlobalNotDivisibleByLocal) {
  int ran = -1;
  auto msg = launch_message<TypeParam, kapi::NdItem, 2>(kapi::NdRange<2>({12, 10}, {4, 4}), ran);
  EXPECT_THAT(msg, HasSubstr("global range {12, 10} is not divisible by local range {4, 4} in dimension 1"));
  EXPECT_THAT(msg, HasSubstr("10 % 4 = 2"));
  EXPECT_EQ(ran, 0);
  msg = launch_message<TypeParam, kapi::NdItem, 3>(kapi::NdRange<3>({5, 8, 8}, {2, 4, 4}), ran);
  EXPECT_THAT(msg, HasSubstr("in dimension 0 (5 % 2 = 1)"));
  EXPECT_EQ(ran, 0);
}

TYPED_TEST(Validation, ZeroLocalSize) {
  int ran = -1;
  auto msg = launch_message<TypeParam, kapi::NdItem, 2>(kapi::NdRange<2>({8, 8}, {4, 0}), ran);
  EXPECT_THAT(msg, HasSubstr("local range {4, 0} has a zero extent in dimension 1"));
  EXPECT_EQ(ran, 0);
}

TYPED_TEST(Validation, RankMismatch) {
  int ran = -1;
  auto msg = launch_message<TypeParam, kapi::NdItem, 2>(kapi::NdRange<1>({8}, {4}), ran);
  EXPECT_THAT(msg, HasSubstr("rank mismatch: the kernel takes NdItem<2> but is launched with NdRange<1>"));
  EXPECT_EQ(ran, 0);
  msg = launch_message<TypeParam, kapi::Item, 3>(kapi::Range<2>(4, 4), ran);
  EXPECT_THAT(msg, HasSubstr("rank mismatch: the kernel takes Item<3> but is launched with Range<2>"));
  EXPECT_EQ(ran, 0);
}

TYPED_TEST(Validation, ItemKindMismatch) {
  int ran = -1;
  auto msg = launch_message<TypeParam, kapi::NdItem, 1>(kapi::Range<1>(8), ran);
  EXPECT_THAT(msg, HasSubstr("the kernel takes NdItem<1> but is launched with Range<1>"));
  msg = launch_message<TypeParam, kapi::Item, 1>(kapi::NdRange<1>({8}, {4}), ran);
  EXPECT_THAT(msg, HasSubstr("the kernel takes Item<1> but is launched with NdRange<1>"));
  EXPECT_EQ(ran, 0);
}

TYPED_TEST(Validation, WorkGroupTooLarge) {
  const std::size_t max = kapi::max_work_group_size<TypeParam>();
  int ran = -1;
  auto msg = launch_message<TypeParam, kapi::NdItem, 1>(kapi::NdRange<1>({2 * (max + 1)}, {max + 1}), ran);
  EXPECT_THAT(msg, HasSubstr("work-group of " + std::to_string(max + 1) + " work-items is larger than"));
  EXPECT_THAT(msg, HasSubstr("(" + std::to_string(max)));
  EXPECT_EQ(ran, 0);
  msg = launch_message<TypeParam, kapi::NdItem, 2>(kapi::NdRange<2>({64, 64}, {64, 64}), ran);
  EXPECT_THAT(msg, HasSubstr("work-group of 4096 work-items"));
  EXPECT_EQ(ran, 0);
}

TYPED_TEST(Validation, TooMuchLocalMemory) {
  const std::size_t max = kapi::max_local_memory_bytes<TypeParam>();
  const std::size_t doubles = max / sizeof(double) + 2;  // a multiple of the 16-byte placement
  kapi::LocalAccessor<double, 1> big(doubles);
  int ran = -1;
  auto msg = launch_message<TypeParam, kapi::NdItem, 1>(kapi::NdRange<1>({64}, {32}), ran, big);
  EXPECT_THAT(msg, HasSubstr("local memory of " + std::to_string(doubles * sizeof(double)) + " bytes"));
  EXPECT_THAT(msg, HasSubstr("(" + std::to_string(max) + " bytes)"));
  EXPECT_EQ(ran, 0);
  // Two accessors that fit one by one but not together.
  kapi::LocalAccessor<char, 1> half(max / 2 + 64);
  msg = launch_message<TypeParam, kapi::NdItem, 1>(kapi::NdRange<1>({64}, {32}), ran, half, half);
  EXPECT_THAT(msg, HasSubstr("more than"));
  EXPECT_EQ(ran, 0);
}

TYPED_TEST(Validation, LocalAccessorInRangeKernel) {
  kapi::LocalAccessor<float, 2> tile(4, 4);
  int ran = -1;
  auto msg = launch_message<TypeParam, kapi::Item, 1>(kapi::Range<1>(16), ran, tile);
  EXPECT_THAT(msg, HasSubstr("argument 2 is a LocalAccessor, but the kernel is launched with a Range"));
  EXPECT_EQ(ran, 0);
}

TYPED_TEST(Validation, ZeroSizeGlobalRangeIsANoOp) {
  int ran = -1;
  EXPECT_EQ((launch_message<TypeParam, kapi::Item, 1>(kapi::Range<1>(0), ran)), "");
  EXPECT_EQ(ran, 0);
  EXPECT_EQ((launch_message<TypeParam, kapi::Item, 3>(kapi::Range<3>(4, 0, 4), ran)), "");
  EXPECT_EQ(ran, 0);
  EXPECT_EQ((launch_message<TypeParam, kapi::NdItem, 2>(kapi::NdRange<2>({0, 8}, {4, 4}), ran)), "");
  EXPECT_EQ(ran, 0);
}

TYPED_TEST(Validation, LargestWorkGroupRuns) {
  const std::size_t max = kapi::max_work_group_size<TypeParam>();
  int ran = -1;
  EXPECT_EQ((launch_message<TypeParam, kapi::NdItem, 1>(kapi::NdRange<1>({3 * max}, {max}), ran)), "");
  EXPECT_EQ(ran, int(3 * max));
}

// On host backends a barrier only some work-items reach is reported, not a hang.
template <class Space>
void check_divergent_barrier() {
  Counter<Space> count("count");
  try {
    kapi::call_kernel(
        Space(),
        KOKKOS_LAMBDA(kapi::NdItem<1> it, Counter<Space> c) {
          if (it.get_local_id(0) == 3) kapi::group_barrier(it.get_group());
          Kokkos::atomic_add(&c(), 1);
        },
        kapi::NdRange<1>({16}, {8}), count);
    FAIL() << "a divergent barrier was not reported";
  } catch (const kapi::launch_error& e) {
    EXPECT_THAT(std::string(e.what()), HasSubstr("group_barrier reached by work-item 3"));
  }
  try {
    kapi::call_kernel(
        Space(),
        KOKKOS_LAMBDA(kapi::NdItem<1> it, Counter<Space> c) {
          if (it.get_local_id(0) != 5) kapi::group_barrier(it.get_group());
          Kokkos::atomic_add(&c(), 1);
        },
        kapi::NdRange<1>({16}, {8}), count);
    FAIL() << "a divergent barrier was not reported";
  } catch (const kapi::launch_error& e) {
    EXPECT_THAT(std::string(e.what()), HasSubstr("reached different numbers of group_barrier calls"));
  }
}

TYPED_TEST(Validation, DivergentBarrierOnHost) {
  if constexpr (kapi_test::is_host_space<TypeParam>) {
    check_divergent_barrier<TypeParam>();
  } else {
    GTEST_SKIP() << "a divergent barrier is undefined behaviour on a device";
  }
}

}  // namespace
