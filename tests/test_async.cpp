// SPDX-License-Identifier: Apache-2.0
// call_kernel_async: launches on explicit execution-space instances, waited on through
// the returned KernelEvent.
//
// What overlaps where: on CUDA, Kokkos 3.4 makes an instance per stream
// (Kokkos::Cuda(cudaStream_t)), and kernels on two instances may run at the same time;
// call_kernel_async returns as soon as the kernel is queued. Kokkos 3.4's host spaces
// (Serial, OpenMP, Threads) have a single instance each (partition_space arrived in
// later Kokkos versions) and run a parallel_for to completion before returning, so there
// call_kernel_async finishes the kernel before it returns and wait() only reports errors.
// The tests check what holds everywhere: results are right, an instance runs its kernels
// in order, and wait() reports a kernel's launch errors.
#include <kapi/barrier.hpp>
#include <kapi/device_limits.hpp>
#include <kapi/errors.hpp>
#include <kapi/execution_space.hpp>
#include <kapi/functional.hpp>
#include <kapi/hierarchical.hpp>
#include <kapi/item.hpp>
#include <kapi/launch.hpp>
#include <kapi/local_accessor.hpp>
#include <kapi/phased.hpp>
#include <kapi/range.hpp>
#include <kapi/work_group.hpp>

#include <gmock/gmock.h>

#include "execution_spaces.hpp"

namespace {

template <class T, class Space>
using Vec = Kokkos::View<T*, typename Space::memory_space>;

// Two instances of Space: two CUDA streams, or (host spaces) the one instance twice.
template <class Space>
class TwoInstances {
 public:
  TwoInstances() {
#if defined(KOKKOS_ENABLE_CUDA)
    if constexpr (std::is_same_v<Space, Kokkos::Cuda>) {
      for (auto& s : streams_) cudaStreamCreate(&s);
      spaces_ = {Space(streams_[0]), Space(streams_[1])};
      return;
    }
#endif
    spaces_ = {Space(), Space()};
  }
  ~TwoInstances() {
    for (auto& s : spaces_) s.fence();
    spaces_.clear();
#if defined(KOKKOS_ENABLE_CUDA)
    for (auto& s : streams_)
      if (s) cudaStreamDestroy(s);
#endif
  }
  const Space& operator[](int i) const { return spaces_[i]; }

 private:
  std::vector<Space> spaces_;
#if defined(KOKKOS_ENABLE_CUDA)
  cudaStream_t streams_[2] = {};
#endif
};

// A flat kernel with barriers and local memory: out = the group's values reversed, scaled.
struct ReverseInGroup {
  template <class In, class Out>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it, const In& in, const Out& out,
                                         const kapi::LocalAccessor<double, 1>& tile) const {
    const std::size_t l = it.get_local_id(0), size = it.get_local_range(0), g = it.get_global_id(0);
    for (int r = 0; r < 4; ++r) {  // enough work that two launches could overlap on a device
      tile[l] = in(g) * (r + 1);
      kapi::group_barrier(it.get_group());
      out(g) = tile[size - 1 - l];
      kapi::group_barrier(it.get_group());
    }
  }
};

// A range kernel: out(i) = a(i) + 1.
struct PlusOne {
  template <class In, class Out>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::Item<1>& it, const In& a, const Out& out) const {
    out(it.get_id(0)) = a(it.get_id(0)) + 1;
  }
};

// A phased kernel: the group's sum, written to every work-item.
struct GroupSum {
  template <class In, class Out>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::WorkGroup<1>& wg, const In& in, const Out& out) const {
    const double sum = kapi::reduce_over_work_items(
        wg, [&](const kapi::NdItem<1>& it) { return in(it.get_global_id(0)); }, kapi::plus<>());
    kapi::for_each_work_item(wg, [&](const kapi::NdItem<1>& it) { out(it.get_global_id(0)) = sum; });
  }
};

template <class Space>
struct Async : ::testing::Test {};
KAPI_TYPED_TEST_SUITE(Async);

TYPED_TEST(Async, IndependentKernelsOnTwoInstances) {
  using Space = TypeParam;
  const std::size_t n = 1 << 16, size = std::min<std::size_t>(256, kapi::max_work_group_size<Space>());
  auto in = kapi_test::make_view<double, Space>("in", n, [](std::size_t i) { return double(i % 1000); });
  Vec<double, Space> reversed("reversed", n), plus_one("plus_one", n), sums("sums", n);
  TwoInstances<Space> instances;
  auto first = kapi::call_kernel_async(instances[0], ReverseInGroup{}, kapi::NdRange<1>({n}, {size}), in, reversed,
                                       kapi::LocalAccessor<double, 1>(size));
  auto second = kapi::call_kernel_async(instances[1], PlusOne{}, kapi::Range<1>(n), in, plus_one);
  auto third = kapi::call_kernel_async(instances[1], GroupSum{}, kapi::NdRange<1>({n}, {size}), in, sums);
  third.wait();  // waiting in another order than launched is fine
  first.wait();
  second.wait();
  auto hr = kapi_test::to_host(reversed), hp = kapi_test::to_host(plus_one), hs = kapi_test::to_host(sums);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t g0 = i - i % size, mirror = g0 + size - 1 - i % size;
    ASSERT_EQ(hr(i), 4.0 * double(mirror % 1000)) << i;
    ASSERT_EQ(hp(i), double(i % 1000) + 1) << i;
  }
  for (std::size_t g0 = 0; g0 < n; g0 += size) {
    double sum = 0;  // small integers: exact in any order
    for (std::size_t l = 0; l < size; ++l) sum += double((g0 + l) % 1000);
    for (std::size_t l = 0; l < size; ++l) ASSERT_EQ(hs(g0 + l), sum) << g0 + l;
  }
}

// Kernels on one instance run in launch order: the second reads what the first wrote,
// and waiting on the last is enough.
TYPED_TEST(Async, OneInstanceRunsInOrder) {
  using Space = TypeParam;
  const std::size_t n = 1 << 14;
  auto a = kapi_test::make_view<double, Space>("a", n, [](std::size_t i) { return double(i); });
  Vec<double, Space> b("b", n), c("c", n);
  TwoInstances<Space> instances;
  auto first = kapi::call_kernel_async(instances[0], PlusOne{}, kapi::Range<1>(n), a, b);
  auto second = kapi::call_kernel_async(instances[0], PlusOne{}, kapi::Range<1>(n), b, c);
  second.wait();
  EXPECT_EQ(&second.execution_space(), &second.execution_space());
  auto hc = kapi_test::to_host(c);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(hc(i), double(i) + 2) << i;
  first.wait();
}

}  // namespace

// Run on host backends only. Outside the anonymous namespace: a device build that tests no
// host space never references it, and nvcc warns (#177-D) about unreferenced members of
// internal types whatever the attribute.
namespace test_async_host_only {
struct DivergentBarrier {
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it) const {
    if (it.get_local_id(0) == 3) kapi::group_barrier(it.get_group());
  }
};
}  // namespace test_async_host_only

namespace {
// Named with its namespace (no using-declaration): in a unity build another test file's
// DivergentBarrier shares this anonymous namespace.
TYPED_TEST(Async, WaitReportsLaunchErrors) {
  if constexpr (!kapi::is_host_execution_space_v<TypeParam>) {
    GTEST_SKIP() << "a divergent barrier is undefined behaviour on a device";
  } else {
    // Errors found before the launch are thrown by call_kernel_async itself ...
    EXPECT_THROW(
        kapi::call_kernel_async(TypeParam(), test_async_host_only::DivergentBarrier{}, kapi::NdRange<1>({10}, {4})),
        kapi::launch_error);
    // ... errors the kernel makes while it runs by wait().
    auto event =
        kapi::call_kernel_async(TypeParam(), test_async_host_only::DivergentBarrier{}, kapi::NdRange<1>({16}, {8}));
    try {
      event.wait();
      FAIL() << "no launch_error";
    } catch (const kapi::launch_error& e) {
      EXPECT_THAT(e.what(), ::testing::HasSubstr("group_barrier reached by work-item 3"));
    }
  }
}

}  // namespace
