// SPDX-License-Identifier: Apache-2.0
// What a hostile user tries on the host engine and the launch checks: stack overflows,
// size overflows, nested launches, exceptions, concurrent launches, bad settings, failed
// launches nobody waited on. Each case failed (or corrupted memory, or crashed without a
// message) before the engine was hardened.
#include <gmock/gmock.h>
#include <kapi/barrier.hpp>
#include <kapi/device_limits.hpp>
#include <kapi/errors.hpp>
#include <kapi/functional.hpp>
#include <kapi/hierarchical.hpp>
#include <kapi/host/detail/stack_pool.hpp>  // host engine internals the tests look at
#include <kapi/item.hpp>
#include <kapi/launch.hpp>
#include <kapi/local_accessor.hpp>
#include <kapi/phased.hpp>
#include <kapi/private_array.hpp>
#include <kapi/range.hpp>
#include <kapi/reduce.hpp>
#include <kapi/work_group.hpp>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "execution_spaces.hpp"
#include "launch_errors.hpp"

namespace {

using ::testing::HasSubstr;

template <class T, class Space>
using Vec = Kokkos::View<T*, typename Space::memory_space>;

template <class Space>
struct Hardening : ::testing::Test {};
KAPI_TYPED_TEST_SUITE(Hardening);

using kapi_test::launch_error_of;

// Kernels below that do host-only things (throw, launch, probe stacks) are launched on
// host spaces only; their bodies are left out of a CUDA build's device pass.

// ---------------------------------------------------------------------------------------
// Stack overflow: a frame larger than a work-item's stack, touched sparsely (two
// elements), around a barrier. It used to jump the guard page and write into the next
// work-item's stack; now the process dies with a message naming KAPI_HOST_STACK_BYTES.

template <class Space>
struct SparseHugeFrame {
  Vec<int, Space> out;
  KOKKOS_INLINE_FUNCTION void operator()([[maybe_unused]] const kapi::NdItem<1>& it) const {
#if !KAPI_COMPILING_DEVICE_CODE                  // launched on host spaces only
    kapi::PrivateArray<char, 256 * 1024> frame;  // twice the default work-item stack
    volatile char* p = &frame[0];
    // An index the compiler cannot know: with constant ones clang keeps only the two bytes
    // touched (LLVM's SROA splits the array), and the frame never reaches the guard.
    volatile std::size_t last = 256 * 1024 - 1;
    p[0] = char(it.get_local_id(0));
    kapi::group_barrier(it.get_group());
    p[last] = char(it.get_local_id(0));
    kapi::group_barrier(it.get_group());
    out(it.get_global_id(0)) = p[0] + p[last];
#endif
  }
};

template <class Space>
void overflow_a_work_item_stack() {
  Vec<int, Space> out("out", 16);
  kapi::call_kernel(Space(), SparseHugeFrame<Space>{out}, kapi::NdRange<1>({16}, {8}));
  std::exit(0);  // not reached: the overflow ends the process
}

TYPED_TEST(Hardening, WorkItemStackOverflowDiesWithAMessage) {
  if constexpr (!kapi_test::is_host_space<TypeParam>) {
    GTEST_SKIP() << "work-item stacks are host contexts";
  } else {
#if KAPI_ASAN
    GTEST_SKIP() << "AddressSanitizer reports the overflow itself";
#else
    if (kapi_test::work_groups_run_as_loops())
      GTEST_SKIP() << "the kernel runs as loops, its frame in the engine's storage (the *_fibers case runs this)";
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_DEATH(overflow_a_work_item_stack<TypeParam>(),
                 "stack overflow in work-item [0-9]+ of work-group [0-9]+.*KAPI_HOST_STACK_BYTES");
#endif
  }
}

// A barrier-free kernel with a 1 MiB frame: work-item 0 used to run on a 128 KiB context
// stack and crash; now a barrier-free group runs on the thread's own stack, like a range
// kernel.
template <class Space>
struct LargeFrameNoBarrier {
  Vec<int, Space> out;
  KOKKOS_INLINE_FUNCTION void operator()([[maybe_unused]] const kapi::NdItem<1>& it) const {
#if !KAPI_COMPILING_DEVICE_CODE                 // launched on host spaces only
    kapi::PrivateArray<int, 256 * 1024> frame;  // 1 MiB
    volatile int* p = &frame[0];
    for (std::size_t i = 0; i < 256 * 1024; i += 1024) p[i] = int(i / 1024);
    int sum = 0;
    for (std::size_t i = 0; i < 256 * 1024; i += 1024) sum += p[i];
    out(it.get_global_id(0)) = sum + int(it.get_global_id(0));
#endif
  }
};

TYPED_TEST(Hardening, BarrierFreeKernelWithALargeFrameRunsOnTheThreadStack) {
  if constexpr (!kapi_test::is_host_space<TypeParam>) {
    GTEST_SKIP() << "host stacks only";
  } else {
    Vec<int, TypeParam> out("out", 64);
    kapi::call_kernel(TypeParam(), LargeFrameNoBarrier<TypeParam>{out}, kapi::NdRange<1>({64}, {16}));
    auto h = kapi_test::to_host(out);
    const int sum = 255 * 256 / 2;  // 0 + 1 + ... + 255
    for (int i = 0; i < 64; ++i) ASSERT_EQ(h(i), sum + i) << "work-item " << i;
  }
}

// ---------------------------------------------------------------------------------------
// Every work-item stack has a guard below it: each work-item of 1024-item groups records
// where its frame is; afterwards, from that address down, the first page that cannot be
// read must come within the documented stack size. (Run with many threads by the
// kapi_tests_many_threads case: 128 threads × 1024 work-items, where the stacks used to
// lose their guard pages once the process ran out of memory mappings.)

[[maybe_unused]] bool readable(const void* address) {
  static int fds[2] = {-1, -1};
  if (fds[0] < 0 && ::pipe(fds) != 0) return true;
  if (::write(fds[1], address, 1) != 1) return false;  // the kernel reads it: EFAULT if it cannot
  char byte;
  return ::read(fds[0], &byte, 1) == 1;
}

template <class Space>
struct RecordFrames {
  Vec<std::uintptr_t, Space> where;
  Vec<std::uint32_t, Space> out;
  KOKKOS_INLINE_FUNCTION void operator()([[maybe_unused]] const kapi::NdItem<1>& it,
                                         [[maybe_unused]] const kapi::LocalAccessor<std::uint32_t, 1>& ids) const {
#if !KAPI_COMPILING_DEVICE_CODE  // launched on host spaces only
    volatile int marker = int(it.get_local_id(0));
    ids[it.get_local_id(0)] = std::uint32_t(it.get_global_id(0));
    kapi::group_barrier(it.get_group());
    const std::size_t l = it.get_local_id(0), n = it.get_local_range(0);
    where(it.get_global_id(0)) = reinterpret_cast<std::uintptr_t>(&marker);
    out(it.get_global_id(0)) = ids[(l + 1) % n] + std::uint32_t(marker);
#endif
  }
};

template <class Space>
void check_guarded_stacks(std::size_t groups, std::size_t items) {
  const std::size_t n = groups * items;
  Vec<std::uintptr_t, Space> where("where", n);
  Vec<std::uint32_t, Space> out("out", n);
  kapi::call_kernel(Space(), RecordFrames<Space>{where, out}, kapi::NdRange<1>({n}, {items}),
                    kapi::LocalAccessor<std::uint32_t, 1>(items));
  auto h = kapi_test::to_host(out);
  auto w = kapi_test::to_host(where);
  const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  const std::size_t stack = kapi::detail::host_stack_bytes() + 2 * page;  // the stack, rounded, and its stagger
  // With many threads every 31st work-item's stack is probed (about 35 pages each).
  const std::size_t probe_every = groups * items > 100000 ? 31 : 1;
  for (std::size_t g = 0; g < groups; ++g)
    for (std::size_t l = 0; l < items; ++l) {
      const std::size_t i = g * items + l;
      ASSERT_EQ(h(i), std::uint32_t(g * items + (l + 1) % items + l)) << "work-item " << i;
      if (l == 0 || i % probe_every != 0) continue;  // work-item 0 runs on its host thread's own stack
      const std::uintptr_t frame = w(i) / page * page;
      std::uintptr_t p = frame;
      while (frame - p <= stack && readable(reinterpret_cast<const void*>(p))) p -= page;
      ASSERT_LE(frame - p, stack) << "no guard below work-item " << l << " of group " << g << "'s stack";
    }
}

TYPED_TEST(Hardening, EveryWorkItemStackHasAGuard) {
  if constexpr (!kapi_test::is_host_space<TypeParam>) {
    GTEST_SKIP() << "host stacks only";
  } else {
    if (kapi_test::work_groups_run_as_loops())
      GTEST_SKIP() << "the kernel runs as loops, on the thread's stack (the *_fibers case runs this)";
    const std::size_t threads = static_cast<std::size_t>(TypeParam().concurrency());
    for (std::size_t items : {2, 64, 1023, 1024}) check_guarded_stacks<TypeParam>(2 * threads, items);
  }
}

// Without lightweight guards (Linux < 6.13, or KAPI_HOST_STACK_GUARDS=mprotect) every stack
// costs two memory mappings: more threads × 1024-item groups than vm.max_map_count allows
// is a launch_error with the numbers, never stacks without guards (the
// kapi_tests_portable_guards case runs this with 128 threads).
TYPED_TEST(Hardening, PortableGuardsStayWithinTheMappingBudget) {
  if constexpr (!kapi_test::is_host_space<TypeParam>) {
    GTEST_SKIP() << "host stacks only";
  } else {
    if (kapi::detail::HostStackPool::lightweight_guards())
      GTEST_SKIP() << "runs under the kapi_tests_portable_guards case (KAPI_HOST_STACK_GUARDS=mprotect)";
    const std::size_t threads = static_cast<std::size_t>(TypeParam().concurrency());
    const std::string message = launch_error_of([&] { check_guarded_stacks<TypeParam>(2 * threads, 1024); });
    // Either every stack ran guarded (checked inside), or the launch said what is missing;
    // 128 threads need 128 x 2049 mappings, more than the default limit of 65530 (a machine
    // may have raised it: the limit is read, not assumed).
    std::size_t limit = 65530;
    std::ifstream("/proc/sys/vm/max_map_count") >> limit;
    if (threads * 2049 > limit) {
      EXPECT_NE(message, "") << threads << " threads, vm.max_map_count " << limit;
    }
    if (!message.empty()) {
      EXPECT_THAT(message, HasSubstr("memory mappings for guarded work-item stacks"));
      EXPECT_THAT(message, HasSubstr("vm.max_map_count"));
    }
  }
}

// ---------------------------------------------------------------------------------------
// Sizes whose products overflow: they used to wrap to 0 (a silent no-op), to a few
// work-items, or to a 0-byte local memory, and then crash.

template <int N>
struct Nothing {
  template <class I>
  KOKKOS_INLINE_FUNCTION void operator()(const I&) const {}
};

struct TakesLocal3 {
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>&, const kapi::LocalAccessor<float, 3>&) const {}
};

TYPED_TEST(Hardening, OverflowingSizesAreRejected) {
  const TypeParam space;
  const std::size_t p21 = std::size_t(1) << 21, p22 = std::size_t(1) << 22, p32 = std::size_t(1) << 32;
  EXPECT_THAT(launch_error_of([&] { kapi::call_kernel(space, Nothing<3>{}, kapi::Range<3>(p22, p22, p22)); }),
              HasSubstr("global range {4194304, 4194304, 4194304} holds more than 9223372036854775807 work-items"));
  EXPECT_THAT(launch_error_of([&] { kapi::call_kernel(space, Nothing<2>{}, kapi::Range<2>(p32, p32)); }),
              HasSubstr("global range {4294967296, 4294967296}"));
  EXPECT_THAT(
      launch_error_of([&] { kapi::call_kernel(space, Nothing<1>{}, kapi::Range<1>((std::size_t(1) << 63) + 5)); }),
      HasSubstr("global range {9223372036854775813} holds more than"));
  EXPECT_THAT(launch_error_of([&] {
                kapi::call_kernel(space, Nothing<2>{}, kapi::NdRange<2>({p32, p32}, {1, 1}));
              }),
              HasSubstr("holds more than"));
  EXPECT_THAT(launch_error_of([&] {
                kapi::call_kernel(space, Nothing<2>{}, kapi::NdRange<2>({p32, p32}, {p32, p32}));
              }),
              HasSubstr("local range {4294967296, 4294967296} holds more than"));
  EXPECT_THAT(
      launch_error_of([&] {
        kapi::call_kernel(space, Nothing<2>{}, kapi::NdRange<2>({3, 6148914691236517206u}, {3, 6148914691236517206u}));
      }),
      HasSubstr("local range {3, 6148914691236517206} holds more than"));
  EXPECT_THAT(launch_error_of([&] {
                kapi::call_kernel(space, TakesLocal3{}, kapi::NdRange<1>({8}, {8}),
                                  kapi::LocalAccessor<float, 3>(p21, p21, p21));
              }),
              HasSubstr("LocalAccessor argument 1 of shape {2097152, 2097152, 2097152}"));
}

// ---------------------------------------------------------------------------------------
// Nested launches and exceptions on host backends: a clear launch_error, never terminate.

template <class Space>
struct LaunchesInside {
  Vec<int, Space> out;
  KOKKOS_INLINE_FUNCTION void operator()([[maybe_unused]] const kapi::NdItem<1>& it) const {
#if !KAPI_COMPILING_DEVICE_CODE  // launched on host spaces only
    if (it.get_local_id(0) == 1) kapi::call_kernel(Space(), Nothing<1>{}, kapi::NdRange<1>({4}, {2}));
    out(it.get_global_id(0)) = 1;
#endif
  }
};
template <class Space>
struct RangeLaunchesInside {
  KOKKOS_INLINE_FUNCTION void operator()([[maybe_unused]] const kapi::Item<1>& it) const {
#if !KAPI_COMPILING_DEVICE_CODE  // launched on host spaces only
    if (it.get_id(0) == 3) kapi::call_kernel(Space(), Nothing<1>{}, kapi::Range<1>(4));
#endif
  }
};

TYPED_TEST(Hardening, NestedLaunchesAreRejected) {
  if constexpr (!kapi_test::is_host_space<TypeParam>) {
    GTEST_SKIP() << "a device kernel cannot call call_kernel at all (host code)";
  } else {
    Vec<int, TypeParam> out("out", 8);
    const std::string nd = launch_error_of(
        [&] { kapi::call_kernel(TypeParam(), LaunchesInside<TypeParam>{out}, kapi::NdRange<1>({8}, {4})); });
    EXPECT_THAT(nd, HasSubstr("call_kernel was called from inside a kernel"));
    EXPECT_THAT(nd, HasSubstr("work-item 1 of work-group"));
    EXPECT_THAT(
        launch_error_of([&] { kapi::call_kernel(TypeParam(), RangeLaunchesInside<TypeParam>{}, kapi::Range<1>(100)); }),
        HasSubstr("call_kernel was called from inside a kernel"));
    // The engine is usable afterwards.
    kapi::call_kernel(TypeParam(), Nothing<1>{}, kapi::NdRange<1>({8}, {4}));
  }
}

template <class Space>
struct Throws {
  int where;  // 0: range, 1: barrier-free nd-range, 2: after a barrier, 3: phased
  std::size_t victim;
  template <class I>
  KOKKOS_INLINE_FUNCTION void operator()([[maybe_unused]] const I& it) const {
#if !KAPI_COMPILING_DEVICE_CODE  // launched on host spaces only
    if constexpr (std::is_same_v<I, kapi::Item<1>>) {
      if (it.get_id(0) == victim) throw std::runtime_error("thrown by work-item " + std::to_string(victim));
    } else {
      if (where == 2) kapi::group_barrier(it.get_group());
      if (it.get_global_id(0) == victim) throw std::runtime_error("thrown by work-item " + std::to_string(victim));
      if (where == 2) kapi::group_barrier(it.get_group());
    }
#endif
  }
};
template <class Space>
struct ThrowsPhased {
  KOKKOS_INLINE_FUNCTION void operator()([[maybe_unused]] const kapi::WorkGroup<1>& g) const {
#if !KAPI_COMPILING_DEVICE_CODE  // launched on host spaces only
    kapi::for_each_work_item(g, [&](const kapi::NdItem<1>& it) {
      if (g.get_group_id(0) == 1 && it.get_local_id(0) == 2) throw std::runtime_error("thrown in a phase");
    });
#endif
  }
};

template <class F>
void expect_nested_runtime_error(F&& f, const std::string& what, const std::string& where) {
  try {
    f();
    ADD_FAILURE() << "nothing thrown";
  } catch (const kapi::launch_error& e) {
    EXPECT_THAT(std::string(e.what()), HasSubstr("an exception escaped the kernel in " + where));
    EXPECT_THAT(std::string(e.what()), HasSubstr(what));
    try {
      std::rethrow_if_nested(e);
      ADD_FAILURE() << "the kernel's exception is not nested";
    } catch (const std::runtime_error& original) {
      EXPECT_EQ(std::string(original.what()), what);
    }
  }
}

TYPED_TEST(Hardening, ExceptionsLeavingAKernelAreReported) {
  if constexpr (!kapi_test::is_host_space<TypeParam>) {
    GTEST_SKIP() << "device code cannot throw";
  } else {
    const TypeParam space;
    expect_nested_runtime_error(
        [&] {
          kapi::call_kernel(space, Throws<TypeParam>{0, 77}, kapi::Range<1>(1000));
        },
        "thrown by work-item 77", "work-item {77} of the range {1000}");
    expect_nested_runtime_error(
        [&] {
          kapi::call_kernel(space, Throws<TypeParam>{1, 77}, kapi::NdRange<1>({128}, {32}));
        },
        "thrown by work-item 77", "work-item 13 of work-group 2");
    expect_nested_runtime_error(
        [&] {
          kapi::call_kernel(space, Throws<TypeParam>{1, 64}, kapi::NdRange<1>({128}, {32}));
        },
        "thrown by work-item 64", "work-item 0 of work-group 2");
    expect_nested_runtime_error(
        [&] {
          kapi::call_kernel(space, Throws<TypeParam>{2, 77}, kapi::NdRange<1>({128}, {32}));
        },
        "thrown by work-item 77", "work-item 13 of work-group 2");
    expect_nested_runtime_error(
        [&] { kapi::call_kernel(space, ThrowsPhased<TypeParam>{}, kapi::NdRange<1>({64}, {16})); }, "thrown in a phase",
        "a phase of work-group 1");
    kapi::call_kernel(space, Throws<TypeParam>{2, 1u << 30}, kapi::NdRange<1>({128}, {32}));  // still works
  }
}

// ---------------------------------------------------------------------------------------
// Concurrent launches from several std::threads on Kokkos::Serial (whose Kokkos 3 team
// scratch is one buffer per process): 472,828 wrong elements over 800 launches before.

struct StageAndRotate {
  template <class In, class Out>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it, const In& in, const Out& out,
                                         const kapi::LocalAccessor<int, 1>& tile) const {
    const std::size_t l = it.get_local_id(0), n = it.get_local_range(0);
    tile[l] = in(it.get_global_id(0));
    kapi::group_barrier(it.get_group());
    out(it.get_global_id(0)) = tile[(l + 1) % n];
  }
};

#if defined(KOKKOS_ENABLE_SERIAL)
TEST(HardeningSerial, ConcurrentLaunchesFromThreadsAreCorrect) {
  constexpr int threads = 4, launches = 100;
  constexpr std::size_t n = 4096, local = 64;
  std::atomic<long> wrong{0}, wrong_sums{0};
  // Views and workspaces are made here: Kokkos 3 initialises memory on the thread that
  // initialised it.
  struct PerThread {
    Kokkos::View<int*, Kokkos::HostSpace> in{"in", n}, out{"out", n};
    Kokkos::View<float*, Kokkos::HostSpace> x{"x", 100000};
    kapi::ReduceWorkspace<float, Kokkos::Serial> workspace{Kokkos::Serial(), 100000};
  };
  std::vector<PerThread> data(threads);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      auto& d = data[std::size_t(t)];
      for (std::size_t i = 0; i < n; ++i) d.in(i) = int(i) * (t + 1);
      for (std::size_t i = 0; i < d.x.extent(0); ++i) d.x(i) = float((i % 7) + t);
      double want = 0;
      for (std::size_t i = 0; i < d.x.extent(0); ++i) want += double(d.x(i));
      for (int r = 0; r < launches; ++r) {
        kapi::call_kernel(Kokkos::Serial(), StageAndRotate{}, kapi::NdRange<1>({n}, {local}), d.in, d.out,
                          kapi::LocalAccessor<int, 1>(local));
        for (std::size_t i = 0; i < n; ++i)
          if (d.out(i) != int((i / local) * local + (i + 1) % local) * (t + 1)) ++wrong;
        const float sum = kapi::reduce(Kokkos::Serial(), d.x, kapi::plus<float>(), d.workspace);
        if (double(sum) != want) ++wrong_sums;
      }
    });
  for (auto& th : pool) th.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(wrong_sums.load(), 0);
}
#endif

#if defined(KOKKOS_ENABLE_OPENMP)
TEST(HardeningOpenMP, LaunchFromAnotherThreadIsRejected) {
  std::string message;
  std::thread other([&] {
    message = launch_error_of([] { kapi::call_kernel(Kokkos::OpenMP(), Nothing<1>{}, kapi::NdRange<1>({8}, {4})); });
  });
  other.join();
#if KOKKOS_VERSION >= 40000
  // Kokkos 4 runs OpenMP launches from any thread: nothing to reject there.
  EXPECT_TRUE(message.empty() || message.find("thread other than") != std::string::npos) << message;
#else
  EXPECT_THAT(message, HasSubstr("from a thread other than the one that initialised Kokkos"));
#endif
}
#endif

// ---------------------------------------------------------------------------------------
// KAPI_HOST_STACK_BYTES is parsed strictly (the variable itself is read once per process:
// the kapi_tests_bad_stack_setting case runs the launch check with a bad value).

TEST(HardeningSettings, HostStackBytesParsesStrictly) {
  using kapi::detail::parse_host_stack_bytes;
  for (const char* bad : {"-1", "18446744073709551615", "1099511627776", "abc", "", "0", "4096", "1e12", "12 K", "64KB",
                          "99999999999999999999"}) {
    const auto s = parse_host_stack_bytes(bad);
    EXPECT_THAT(s.error, HasSubstr(std::string("KAPI_HOST_STACK_BYTES='") + bad + "'")) << bad;
    EXPECT_THAT(s.error, HasSubstr("from 16384 (16K) to 67108864 (64M)")) << bad;
  }
  EXPECT_EQ(parse_host_stack_bytes("16K").bytes, 16384u);
  EXPECT_EQ(parse_host_stack_bytes("131072").bytes, 131072u);
  EXPECT_EQ(parse_host_stack_bytes("1M").bytes, 1048576u);
  EXPECT_EQ(parse_host_stack_bytes("64m").bytes, 67108864u);
  EXPECT_TRUE(parse_host_stack_bytes("200000").error.empty());
}

TYPED_TEST(Hardening, BadHostStackSettingIsALaunchError) {
  const char* env = std::getenv("KAPI_HOST_STACK_BYTES");
  if (!env || kapi::detail::parse_host_stack_bytes(env).error.empty())
    GTEST_SKIP() << "runs under the kapi_tests_bad_stack_setting case (KAPI_HOST_STACK_BYTES=abc)";
  if constexpr (!kapi_test::is_host_space<TypeParam>) {
    GTEST_SKIP() << "host stacks only";
  } else {
    EXPECT_THAT(launch_error_of([] { kapi::call_kernel(TypeParam(), Nothing<1>{}, kapi::NdRange<1>({8}, {4})); }),
                HasSubstr(std::string("KAPI_HOST_STACK_BYTES='") + env + "' is not a byte count"));
  }
}

}  // namespace

// Run on host backends only. Outside the anonymous namespace: a device build that tests no
// host space never references them, and nvcc warns (#177-D) about unreferenced members of
// internal types whatever the attribute.
namespace test_hardening_host_only {
// Only work-item `item` of each group reaches a barrier.
struct OneItemBarrier {
  std::size_t item;
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it) const {
    if (it.get_local_id(0) == item) kapi::group_barrier(it.get_group());
  }
};
// Work-item l reaches base + l % 3 barriers.
struct BarrierCountByItem {
  std::size_t base;
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it) const {
    for (std::size_t b = 0; b < base + it.get_local_id(0) % 3; ++b) kapi::group_barrier(it.get_group());
  }
};
}  // namespace test_hardening_host_only

namespace {
using test_hardening_host_only::BarrierCountByItem;
using test_hardening_host_only::OneItemBarrier;

// ---------------------------------------------------------------------------------------
// A failed launch whose event is dropped without a wait is reported at the next wait.

TYPED_TEST(Hardening, FailedLaunchNobodyWaitedOnIsReportedLater) {
  if constexpr (!kapi_test::is_host_space<TypeParam>) {
    GTEST_SKIP() << "divergent barriers are detected on host backends";
  } else {
    {
      auto dropped = kapi::call_kernel_async(TypeParam(), OneItemBarrier{3}, kapi::NdRange<1>({16}, {8}));
      (void)dropped;
    }
    EXPECT_THAT(
        launch_error_of([] { kapi::call_kernel(TypeParam(), Nothing<1>{}, kapi::Range<1>(4)); }),
        HasSubstr("an earlier launch whose event was never waited on failed: group_barrier reached by work-item 3"));
    kapi::call_kernel(TypeParam(), Nothing<1>{}, kapi::Range<1>(4));  // reported once
  }
}

// ---------------------------------------------------------------------------------------
// Engine shapes: groups of 1, 1023 and 1024 work-items, 3-d groups whose innermost extent
// is 1, barriers in nested loops, different barrier counts per work-item.

template <class Space>
struct NestedBarrierLoops {
  Vec<long, Space> out;
  template <int N>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<N>& it, const kapi::LocalAccessor<long, 1>& slots) const {
    const std::size_t l = it.get_local_linear_id(), n = it.get_local_linear_range();
    long acc = long(it.get_global_linear_id());
    for (int outer = 0; outer < 3; ++outer)
      for (int inner = 0; inner <= outer; ++inner) {
        slots[l] = acc;
        kapi::group_barrier(it.get_group());
        acc += slots[(l + 1 + std::size_t(inner)) % n];
        kapi::group_barrier(it.get_group());
      }
    out(it.get_global_linear_id()) = acc;
  }
};

// The same rounds on the host, one group at a time.
std::vector<long> nested_loops_reference(std::size_t groups, std::size_t n) {
  std::vector<long> result;
  for (std::size_t g = 0; g < groups; ++g) {
    std::vector<long> acc(n);
    for (std::size_t l = 0; l < n; ++l) acc[l] = long(g * n + l);
    for (int outer = 0; outer < 3; ++outer)
      for (int inner = 0; inner <= outer; ++inner) {
        const std::vector<long> slots = acc;
        for (std::size_t l = 0; l < n; ++l) acc[l] += slots[(l + 1 + std::size_t(inner)) % n];
      }
    result.insert(result.end(), acc.begin(), acc.end());
  }
  return result;
}

TYPED_TEST(Hardening, GroupShapesAndNestedBarrierLoops) {
  for (std::size_t n : {1, 2, 1023, 1024}) {
    if (n > kapi::max_work_group_size<TypeParam>()) continue;
    const std::size_t groups = 3;
    Vec<long, TypeParam> out("out", groups * n);
    kapi::call_kernel(TypeParam(), NestedBarrierLoops<TypeParam>{out}, kapi::NdRange<1>({groups * n}, {n}),
                      kapi::LocalAccessor<long, 1>(n));
    const auto want = nested_loops_reference(groups, n);
    auto h = kapi_test::to_host(out);
    for (std::size_t i = 0; i < groups * n; ++i) ASSERT_EQ(h(i), want[i]) << "group size " << n << ", item " << i;
  }
  // 3-d groups {8, 4, 1} (innermost extent 1) and {4, 1, 16}: the same rounds over the
  // local linear ids.
  for (auto local : {kapi::Range<3>(8, 4, 1), kapi::Range<3>(4, 1, 16)}) {
    const std::size_t n = local.size();
    const kapi::Range<3> global(local[0], local[1] * 3, local[2]);  // 3 groups along dimension 1
    Vec<long, TypeParam> out("out", 3 * n);
    kapi::call_kernel(TypeParam(), NestedBarrierLoops<TypeParam>{out}, kapi::NdRange<3>(global, local),
                      kapi::LocalAccessor<long, 1>(n));
    auto h = kapi_test::to_host(out);
    // Global linear ids interleave the groups: check the per-group reference by id.
    for (std::size_t i0 = 0; i0 < global[0]; ++i0)
      for (std::size_t i1 = 0; i1 < global[1]; ++i1)
        for (std::size_t i2 = 0; i2 < global[2]; ++i2) {
          const std::size_t g = i1 / local[1], l = (i0 * local[1] + i1 % local[1]) * local[2] + i2;
          const std::size_t linear = (i0 * global[1] + i1) * global[2] + i2;
          // Reference with the group's items' starting values (their global linear ids).
          std::vector<long> acc(n);
          for (std::size_t a = 0; a < local[0]; ++a)
            for (std::size_t b = 0; b < local[1]; ++b)
              for (std::size_t c = 0; c < local[2]; ++c)
                acc[(a * local[1] + b) * local[2] + c] = long((a * global[1] + g * local[1] + b) * global[2] + c);
          for (int outer = 0; outer < 3; ++outer)
            for (int inner = 0; inner <= outer; ++inner) {
              const std::vector<long> slots = acc;
              for (std::size_t k = 0; k < n; ++k) acc[k] += slots[(k + 1 + std::size_t(inner)) % n];
            }
          ASSERT_EQ(h(linear), acc[l]) << "local range " << kapi::detail::format_extents(local.extent) << ", id " << i0
                                       << "," << i1 << "," << i2;
        }
  }
}

TYPED_TEST(Hardening, DifferentBarrierCountsPerWorkItemAreReported) {
  if constexpr (!kapi_test::is_host_space<TypeParam>) {
    GTEST_SKIP() << "a divergent barrier is undefined behaviour on a device";
  } else {
    // Work-item l reaches l % 3 barriers; work-item 0 reaches none first.
    EXPECT_THAT(
        launch_error_of([] { kapi::call_kernel(TypeParam(), BarrierCountByItem{0}, kapi::NdRange<1>({64}, {32})); }),
        HasSubstr("group_barrier reached by work-item 1 of group 0 but not by work-item 0"));
    EXPECT_THAT(
        launch_error_of([] { kapi::call_kernel(TypeParam(), BarrierCountByItem{1}, kapi::NdRange<1>({64}, {32})); }),
        HasSubstr("reached different numbers of group_barrier calls"));
  }
}

}  // namespace
