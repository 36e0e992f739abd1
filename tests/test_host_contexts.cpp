// SPDX-License-Identifier: Apache-2.0
// Work-items that run as host contexts (host backends, groups with barriers): what must
// keep working there, in particular under AddressSanitizer, which has to follow every
// switch between the thread's stack and a context's (detail/sanitizer.hpp): exceptions
// thrown and caught inside a work-item, large stack frames, many groups reusing the
// pooled stacks, a floating-point rounding mode per work-item, and consecutive groups
// whose last and first phases overlap (host/detail/group.hpp).
#include <kapi/barrier.hpp>
#include <kapi/errors.hpp>
#include <kapi/execution_space.hpp>
#include <kapi/group_algorithms.hpp>
#include <kapi/host/detail/group.hpp>
#include <kapi/item.hpp>
#include <kapi/launch.hpp>
#include <kapi/local_accessor.hpp>
#include <kapi/private_array.hpp>
#include <kapi/range.hpp>

#include <cfenv>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

#include "execution_spaces.hpp"

namespace {

template <class T, class Space>
using Vec = Kokkos::View<T*, typename Space::memory_space>;

// Host code only (it throws), so it is launched on host spaces only.
template <class Space>
struct ThrowsBetweenBarriers {
  Vec<int, Space> out;
  void operator()(const kapi::NdItem<1>& it, const kapi::LocalAccessor<int, 1>& slots) const {
    const std::size_t l = it.get_local_id(0), size = it.get_local_range(0);
    int frame[2048];  // 8 KiB in this work-item's frame
    for (int i = 0; i < 2048; ++i) frame[i] = int(l) + i;
    int caught = 0;
    for (int round = 0; round < 3; ++round) {
      try {
        if ((l + round) % 3 == 0) throw std::runtime_error("work-item " + std::to_string(l));
      } catch (const std::runtime_error&) {
        ++caught;
      }
      slots[l] = frame[(l * 7 + round) % 2048] + caught;
      kapi::group_barrier(it.get_group());
      frame[round] = slots[(l + 1) % size];
      kapi::group_barrier(it.get_group());
    }
    out(it.get_global_id(0)) = frame[0] + frame[1] + frame[2] + caught;
  }
};

template <class Space>
struct HostContexts : ::testing::Test {};
KAPI_TYPED_TEST_SUITE(HostContexts);

TYPED_TEST(HostContexts, ExceptionsAndLargeFramesInsideWorkItems) {
  if constexpr (!kapi::is_host_execution_space_v<TypeParam>) {
    GTEST_SKIP() << "host contexts exist on host backends only";
  } else {
    for (std::size_t size : {1, 7, 64, 256}) {
      const std::size_t groups = 6, n = groups * size;
      Vec<int, TypeParam> out("out", n);
      kapi::call_kernel(TypeParam(), ThrowsBetweenBarriers<TypeParam>{out}, kapi::NdRange<1>({n}, {size}),
                        kapi::LocalAccessor<int, 1>(size));
      auto h = kapi_test::to_host(out);
      for (std::size_t g = 0; g < groups; ++g)
        for (std::size_t l = 0; l < size; ++l) {
          auto caught_after = [&](std::size_t item, int rounds) {
            int c = 0;
            for (int r = 0; r < rounds; ++r) c += (item + r) % 3 == 0;
            return c;
          };
          int expect = caught_after(l, 3);
          for (int round = 0; round < 3; ++round) {
            const std::size_t right = (l + 1) % size;
            expect += int(right) + int((right * 7 + round) % 2048) + caught_after(right, round + 1);
          }
          ASSERT_EQ(h(g * size + l), expect) << "group size " << size << ", work-item " << l;
        }
    }
  }
}

// Each work-item sets its own rounding mode and keeps it across barriers, while the
// work-items around it run with theirs: the mode is part of what a context switch saves
// and restores (it is loaded only when it differs, host/detail/context.hpp). Host code only.
template <class Space>
struct RoundingModePerWorkItem {
  Vec<int, Space> mode_seen;
  Vec<float, Space> third;
  static int mode_of(std::size_t l) {
    const int modes[4] = {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};
    return modes[l % 4];
  }
  void operator()(const kapi::NdItem<1>& it) const {
    const std::size_t l = it.get_local_id(0), g = it.get_global_id(0);
    std::fesetround(mode_of(l));
    int same = 1;
    for (int round = 0; round < 3; ++round) {
      kapi::group_barrier(it.get_group());
      same &= std::fegetround() == mode_of(l);  // the x87 control word
    }
    volatile float one = 1.0f, three = 3.0f;  // divided by SSE, under MXCSR's rounding
    third(g) = one / three;
    mode_seen(g) = same;
    std::fesetround(FE_TONEAREST);
  }
};

TYPED_TEST(HostContexts, RoundingModeStaysWithItsWorkItem) {
  if constexpr (!kapi::is_host_execution_space_v<TypeParam>) {
    GTEST_SKIP() << "host contexts exist on host backends only";
  } else {
    const std::size_t size = 64, n = 4 * size;
    Vec<int, TypeParam> mode_seen("mode_seen", n);
    Vec<float, TypeParam> third("third", n);
    kapi::call_kernel(TypeParam(), RoundingModePerWorkItem<TypeParam>{mode_seen, third}, kapi::NdRange<1>({n}, {size}));
    auto seen = kapi_test::to_host(mode_seen);
    auto t = kapi_test::to_host(third);
    // 1/3 in binary32: 0x3eaaaaab rounded to nearest and up, 0x3eaaaaaa down and toward zero.
    const float up = 0x1.555556p-2f, down = 0x1.555554p-2f;
    for (std::size_t i = 0; i < n; ++i) {
      const int mode = RoundingModePerWorkItem<TypeParam>::mode_of(i % size);
      EXPECT_EQ(seen(i), 1) << "work-item " << i << " lost its rounding mode at a barrier";
      EXPECT_EQ(t(i), mode == FE_TONEAREST || mode == FE_UPWARD ? up : down) << "work-item " << i;
    }
    EXPECT_EQ(std::fegetround(), FE_TONEAREST);
  }
}

// A work-item that ends with its own rounding mode does not hand it to the next group:
// the context that ran work-item l of one group runs work-item l of the next group the
// thread runs (host/detail/group.hpp), and must start it under the group's mode. Host
// code only.
template <class Space>
struct RoundingModeLeftBehind {
  Vec<int, Space> start_mode;
  void operator()(const kapi::NdItem<1>& it) const {
    start_mode(it.get_global_id(0)) = std::fegetround();
    kapi::group_barrier(it.get_group());
    std::fesetround(RoundingModePerWorkItem<Space>::mode_of(it.get_local_id(0)));  // not restored
  }
};

TYPED_TEST(HostContexts, NextGroupStartsUnderTheGroupsRoundingMode) {
  if constexpr (!kapi::is_host_execution_space_v<TypeParam>) {
    GTEST_SKIP() << "host contexts exist on host backends only";
  } else {
    for (std::size_t size : {4, 64}) {
      const std::size_t n = 64 * size;  // groups enough that threads run several in a row
      Vec<int, TypeParam> start_mode("start_mode", n);
      kapi::call_kernel(TypeParam(), RoundingModeLeftBehind<TypeParam>{start_mode}, kapi::NdRange<1>({n}, {size}));
      auto h = kapi_test::to_host(start_mode);
      for (std::size_t i = 0; i < n; ++i)
        ASSERT_EQ(h(i), FE_TONEAREST) << "work-item " << i % size << " of group " << i / size << " (size " << size
                                      << ") started under another work-item's rounding mode";
      EXPECT_EQ(std::fegetround(), FE_TONEAREST);
    }
  }
}

// Values live across barriers: the compiler keeps them in callee-saved registers (x86-64:
// rbx, rbp, r12-r15; aarch64: x19-x28 and d8-d15) or in the work-item's frame, so a
// switch that lost one would leave a wrong sum. The frame's 16-byte alignment, which the
// ABIs promise at every call, is checked on an object that needs it. Host code only.
template <class Space>
struct LiveValuesAcrossBarriers {
  Vec<std::int64_t, Space> ints;
  Vec<double, Space> reals;
  Vec<int, Space> aligned;
  void operator()(const kapi::NdItem<1>& it) const {
    const std::int64_t g = std::int64_t(it.get_global_id(0));
    std::int64_t i0 = g * 3 + 1, i1 = g ^ 0x55, i2 = g * g, i3 = g + 7, i4 = g * 11, i5 = g - 3, i6 = g * 5,
                 i7 = g + 1000, i8 = g * 13, i9 = g ^ 0x3c;
    double d0 = double(g) * 0.5, d1 = double(g) + 0.25, d2 = double(g) * 3.0, d3 = double(g) - 1.5,
           d4 = double(g) * 0.125, d5 = double(g) + 2.0, d6 = double(g) * 7.0, d7 = double(g) - 0.75;
    for (int round = 0; round < 3; ++round) {
      kapi::group_barrier(it.get_group());
      i0 += i1, i1 += i2, i2 += i3, i3 += i4, i4 += i5, i5 += i6, i6 += i7, i7 += i8, i8 += i9, i9 += i0;
      d0 += d1, d1 += d2, d2 += d3, d3 += d4, d4 += d5, d5 += d6, d6 += d7, d7 += d0;
    }
    alignas(16) volatile unsigned char needs16[16] = {};
    aligned(it.get_global_id(0)) = int(reinterpret_cast<std::uintptr_t>(&needs16[0]) % 16 == 0);
    ints(it.get_global_id(0)) =
        i0 + 3 * i1 + 5 * i2 + 7 * i3 + 11 * i4 + 13 * i5 + 17 * i6 + 19 * i7 + 23 * i8 + 29 * i9;
    reals(it.get_global_id(0)) = d0 + 3 * d1 + 5 * d2 + 7 * d3 + 11 * d4 + 13 * d5 + 17 * d6 + 19 * d7;
  }
};

TYPED_TEST(HostContexts, ValuesLiveAcrossBarriersSurviveTheSwitches) {
  if constexpr (!kapi::is_host_execution_space_v<TypeParam>) {
    GTEST_SKIP() << "host contexts exist on host backends only";
  } else {
    const std::size_t size = 96, n = 3 * size;
    Vec<std::int64_t, TypeParam> ints("ints", n);
    Vec<double, TypeParam> reals("reals", n);
    Vec<int, TypeParam> aligned("aligned", n);
    kapi::call_kernel(TypeParam(), LiveValuesAcrossBarriers<TypeParam>{ints, reals, aligned},
                      kapi::NdRange<1>({n}, {size}));
    auto hi = kapi_test::to_host(ints);
    auto hr = kapi_test::to_host(reals);
    auto ha = kapi_test::to_host(aligned);
    for (std::size_t w = 0; w < n; ++w) {
      // The same arithmetic, straight through on this thread's stack.
      const std::int64_t g = std::int64_t(w);
      std::int64_t i[10] = {g * 3 + 1, g ^ 0x55, g * g, g + 7, g * 11, g - 3, g * 5, g + 1000, g * 13, g ^ 0x3c};
      double d[8] = {double(g) * 0.5,   double(g) + 0.25, double(g) * 3.0, double(g) - 1.5,
                     double(g) * 0.125, double(g) + 2.0,  double(g) * 7.0, double(g) - 0.75};
      for (int round = 0; round < 3; ++round) {
        for (int k = 0; k < 9; ++k) i[k] += i[k + 1];
        i[9] += i[0];
        for (int k = 0; k < 7; ++k) d[k] += d[k + 1];
        d[7] += d[0];
      }
      const int w_i[10] = {1, 3, 5, 7, 11, 13, 17, 19, 23, 29};
      std::int64_t want_i = 0;
      double want_d = 0;
      for (int k = 0; k < 10; ++k) want_i += w_i[k] * i[k];
      for (int k = 0; k < 8; ++k) want_d += w_i[k] * d[k];
      EXPECT_EQ(hi(w), want_i) << "work-item " << w;
      EXPECT_DOUBLE_EQ(hr(w), want_d) << "work-item " << w;  // (multiply-adds may fuse differently)
      EXPECT_EQ(ha(w), 1) << "work-item " << w << "'s frame is not 16-byte aligned";
    }
  }
}

// Consecutive groups of a thread overlap: the next group's work-item 0 runs up to its first
// barrier while the others still finish this group after its last one. What they read
// there must still be this group's: its local memory (here a neighbour's slot, which
// work-item 0 of the next group writes before its barrier) and its collective's result (a
// broadcast, the group's only barrier, which that work-item 0 contributes to before its
// own). Host code only.
template <class Space>
struct ReadsAfterTheLastBarrier {
  Vec<int, Space> neighbour, broadcast;
  static int value(std::size_t g, std::size_t l) { return int(g * 4096 + l); }
  void operator()(const kapi::NdItem<1>& it, const kapi::LocalAccessor<int, 1>& slots) const {
    const std::size_t l = it.get_local_id(0), g = it.get_group(0), size = it.get_local_range(0);
    slots[l] = value(g, l);
    const int first = kapi::group_broadcast(it.get_group(), 3 * value(g, l));
    neighbour(it.get_global_id(0)) = slots[(l + 1) % size];
    broadcast(it.get_global_id(0)) = first;
  }
};

TYPED_TEST(HostContexts, OverlappingGroupsKeepTheirLocalMemoryAndCollectives) {
  if constexpr (!kapi::is_host_execution_space_v<TypeParam>) {
    GTEST_SKIP() << "host contexts exist on host backends only";
  } else {
    for (std::size_t size : {2, 7, 64, 1024}) {
      const std::size_t groups = 24, n = groups * size;
      Vec<int, TypeParam> neighbour("neighbour", n), broadcast("broadcast", n);
      kapi::call_kernel(TypeParam(), ReadsAfterTheLastBarrier<TypeParam>{neighbour, broadcast},
                        kapi::NdRange<1>({n}, {size}), kapi::LocalAccessor<int, 1>(size));
      auto hn = kapi_test::to_host(neighbour);
      auto hb = kapi_test::to_host(broadcast);
      for (std::size_t g = 0; g < groups; ++g)
        for (std::size_t l = 0; l < size; ++l) {
          ASSERT_EQ(hn(g * size + l), ReadsAfterTheLastBarrier<TypeParam>::value(g, (l + 1) % size))
              << "group size " << size << ", group " << g << ", work-item " << l << ": local memory";
          ASSERT_EQ(hb(g * size + l), 3 * ReadsAfterTheLastBarrier<TypeParam>::value(g, 0))
              << "group size " << size << ", group " << g << ", work-item " << l << ": group_broadcast";
        }
    }
  }
}

// Groups with barriers and groups without, alternating (the count is uniform within a group,
// which is all SYCL asks): a group without barriers cannot take over the contexts still in
// the previous group's last phase, which must end first. And a work-item that throws in
// that last phase is reported as the previous group's. Host code only.
template <class Space>
struct BarriersInEvenGroups {
  Vec<int, Space> out;
  std::size_t thrower_group;
  void operator()(const kapi::NdItem<1>& it, const kapi::LocalAccessor<int, 1>& slots) const {
    const std::size_t l = it.get_local_id(0), g = it.get_group(0), size = it.get_local_range(0);
    slots[l] = int(g * 4096 + l);
    if (g % 2 == 0) kapi::group_barrier(it.get_group());
    if (g == thrower_group && l == 3) throw std::runtime_error("work-item 3 after the barrier");
    out(it.get_global_id(0)) = slots[g % 2 == 0 ? (l + 1) % size : l];
  }
};

TYPED_TEST(HostContexts, GroupsWithAndWithoutBarriersAlternate) {
  if constexpr (!kapi::is_host_execution_space_v<TypeParam>) {
    GTEST_SKIP() << "host contexts exist on host backends only";
  } else {
    for (std::size_t size : {4, 64}) {
      const std::size_t groups = 32, n = groups * size;
      Vec<int, TypeParam> out("out", n);
      kapi::call_kernel(TypeParam(), BarriersInEvenGroups<TypeParam>{out, groups}, kapi::NdRange<1>({n}, {size}),
                        kapi::LocalAccessor<int, 1>(size));
      auto h = kapi_test::to_host(out);
      for (std::size_t g = 0; g < groups; ++g)
        for (std::size_t l = 0; l < size; ++l)
          ASSERT_EQ(h(g * size + l), int(g * 4096 + (g % 2 == 0 ? (l + 1) % size : l)))
              << "group size " << size << ", group " << g << ", work-item " << l;
      try {
        kapi::call_kernel(TypeParam(), BarriersInEvenGroups<TypeParam>{out, 4}, kapi::NdRange<1>({n}, {size}),
                          kapi::LocalAccessor<int, 1>(size));
        FAIL() << "the exception of work-item 3 of group 4 was not reported";
      } catch (const kapi::launch_error& e) {
        EXPECT_NE(std::string(e.what()).find("work-item 3 of work-group 4"), std::string::npos) << e.what();
      }
    }
  }
}

// Work-item 5 reaches one barrier more than work-item 0: found in the group's last phase,
// also where it overlaps the next group's first. Host code only.
template <class Space>
struct OneBarrierMoreForItemFive {
  void operator()(const kapi::NdItem<1>& it) const {
    kapi::group_barrier(it.get_group());
    if (it.get_local_id(0) == 5) kapi::group_barrier(it.get_group());
  }
};

TYPED_TEST(HostContexts, AnExtraBarrierInTheLastPhaseIsReported) {
  if constexpr (!kapi::is_host_execution_space_v<TypeParam>) {
    GTEST_SKIP() << "host contexts exist on host backends only";
  } else {
    for (std::size_t groups : {1, 16}) {
      try {
        kapi::call_kernel(TypeParam(), OneBarrierMoreForItemFive<TypeParam>{}, kapi::NdRange<1>({groups * 8}, {8}));
        FAIL() << "the divergent barrier was not reported (" << groups << " groups)";
      } catch (const kapi::launch_error& e) {
        EXPECT_NE(std::string(e.what()).find("reached different numbers of group_barrier calls"), std::string::npos)
            << e.what();
      }
    }
  }
}

// Only groups that overlap need local memory of their own: a barrier-free kernel's groups
// run one after another in one buffer, its local memory once per thread (SYCL's
// footprint), not twice. A kernel with barriers that follows gets its second buffer
// mid-launch (the first moves): every group still sees its own values. Each run asks for
// more local memory than a thread keeps between launches (HostGroup::kept_buffer_bytes),
// so what it records is its own buffer. Host code only.

template <class Space>
struct RecordsLocalMemoryBytes {
  Vec<int, Space> out;
  Kokkos::View<std::size_t, typename Space::memory_space> buffer_bytes;
  bool barriers;
  void operator()(const kapi::NdItem<1>& it, const kapi::LocalAccessor<int, 1>& slots) const {
    const std::size_t l = it.get_local_id(0), g = it.get_group(0), size = it.get_local_range(0);
    const std::size_t last = slots.size() - 1 - l;  // the far end of the buffer too
    slots[l] = int(g * 4096 + l);
    slots[last] = int(g * 4096 + 2048 + l);
    if (barriers) kapi::group_barrier(it.get_group());
    const std::size_t from = barriers ? (l + 1) % size : l;
    out(it.get_global_id(0)) = slots[from] + slots[slots.size() - 1 - from];
    Kokkos::atomic_fetch_max(&buffer_bytes(), kapi::detail::HostGroup::this_thread().local_memory_bytes());
  }
  static int expected(std::size_t g, std::size_t from) { return int(2 * (g * 4096 + from) + 2048); }
};

TYPED_TEST(HostContexts, LocalMemoryIsDoubledOnlyForGroupsThatOverlap) {
  if constexpr (!kapi::is_host_execution_space_v<TypeParam>) {
    GTEST_SKIP() << "host contexts exist on host backends only";
  } else {
    const std::size_t local_bytes = kapi::detail::HostGroup::kept_buffer_bytes + (std::size_t(1) << 20), size = 64,
                      groups = 40, n = groups * size;
    for (bool barriers : {false, true}) {
      Vec<int, TypeParam> out("out", n);
      Kokkos::View<std::size_t, typename TypeParam::memory_space> buffer_bytes("buffer bytes");
      const auto event = kapi::call_kernel_async(
          TypeParam(), RecordsLocalMemoryBytes<TypeParam>{out, buffer_bytes, barriers}, kapi::NdRange<1>({n}, {size}),
          kapi::LocalAccessor<int, 1>(local_bytes / sizeof(int)));
      event.wait();
      auto h = kapi_test::to_host(out);
      for (std::size_t g = 0; g < groups; ++g)
        for (std::size_t l = 0; l < size; ++l)
          ASSERT_EQ(h(g * size + l), RecordsLocalMemoryBytes<TypeParam>::expected(g, barriers ? (l + 1) % size : l))
              << (barriers ? "with" : "without") << " barriers, group " << g << ", work-item " << l;
      std::size_t bytes = 0;
      Kokkos::deep_copy(bytes, buffer_bytes);
      EXPECT_GE(bytes, local_bytes);
      if (!barriers) {
        EXPECT_LT(bytes, 2 * local_bytes) << "a barrier-free kernel's groups never overlap: one buffer per thread";
      } else if (!event.work_group_engines().loops) {  // 16 groups a chunk on fibers: they overlap
        EXPECT_GE(bytes, 2 * local_bytes) << "groups with barriers on fibers overlap, each in its own buffer";
      }
    }
  }
}

// A launch's large buffers are given back when it ends: before, every host thread kept the
// largest local memory and loop storage (the work-group loops' per-work-item values) any
// launch had asked for, for the life of the process. The first kernel takes 17 MiB of local
// memory and, under the loops, 16 MiB of private arrays kept across its barrier (1024
// work-items of 2048 values); the launch after it records what its threads still hold.
/// What the running thread holds: its local memory and its loop storage (maxima over the
/// threads that record).
template <class Bytes>
void record_held_buffers(const Bytes& bytes) {
  const auto& group = kapi::detail::HostGroup::this_thread();
  Kokkos::atomic_fetch_max(&bytes(0), group.local_memory_bytes());
  Kokkos::atomic_fetch_max(&bytes(1), group.loop_storage_bytes());
}

template <class Space>
struct LargeLocalAndPrivateMemory {
  Vec<std::int64_t, Space> out;
  Kokkos::View<std::size_t[2], typename Space::memory_space> bytes;
  void operator()(const kapi::NdItem<1>& it, const kapi::LocalAccessor<std::int64_t, 1>& slots) const {
    const std::size_t l = it.get_local_id(0), size = it.get_local_range(0), far = slots.size() - 1 - l;
    kapi::PrivateArray<std::int64_t, 2048> mine;
    for (std::size_t k = 0; k < 2048; ++k) mine[k] = std::int64_t(it.get_global_id(0) * 3 + k);
    slots[l] = mine[l % 2048];
    slots[far] = std::int64_t(l);
    kapi::group_barrier(it.get_group());
    out(it.get_global_id(0)) = slots[(l + 1) % size] + slots[slots.size() - 1 - (l + 1) % size] + mine[2047];
    record_held_buffers(bytes);
  }
};

template <class Space>
struct RecordsHeldBuffers {
  Kokkos::View<std::size_t[2], typename Space::memory_space> bytes;
  void operator()(const kapi::NdItem<1>& it, const kapi::LocalAccessor<int, 1>& slots) const {
    slots[it.get_local_id(0)] = 1;
    record_held_buffers(bytes);
  }
};

TYPED_TEST(HostContexts, LargeBuffersAreReleasedWhenTheirLaunchEnds) {
  if constexpr (!kapi::is_host_execution_space_v<TypeParam>) {
    GTEST_SKIP() << "host contexts exist on host backends only";
  } else {
    using kapi::detail::HostGroup;
    const std::size_t size = 1024, groups = 8, n = groups * size;
    const std::size_t local_values = (HostGroup::kept_buffer_bytes + (std::size_t(1) << 20)) / sizeof(std::int64_t);
    ASSERT_LE(size, kapi::max_work_group_size<TypeParam>());
    Vec<std::int64_t, TypeParam> out("out", n);
    Kokkos::View<std::size_t[2], typename TypeParam::memory_space> during("during"), after("after");
    const auto event =
        kapi::call_kernel_async(TypeParam(), LargeLocalAndPrivateMemory<TypeParam>{out, during},
                                kapi::NdRange<1>({n}, {size}), kapi::LocalAccessor<std::int64_t, 1>(local_values));
    event.wait();
    const auto h = kapi_test::to_host(out);
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t g = i / size, next = (i % size + 1) % size;
      ASSERT_EQ(h(i), std::int64_t((g * size + next) * 3 + next % 2048 + next + i * 3 + 2047)) << "work-item " << i;
    }
    const auto held = [](const Kokkos::View<std::size_t[2], typename TypeParam::memory_space>& v) {
      const auto c = kapi_test::to_host(v);
      return std::pair<std::size_t, std::size_t>(c(0), c(1));
    };
    const auto big = held(during);
    EXPECT_GE(big.first, local_values * sizeof(std::int64_t));
    if (event.work_group_engines().loops) {
      EXPECT_GT(big.second, HostGroup::kept_buffer_bytes);
    }
    kapi::call_kernel(TypeParam(), RecordsHeldBuffers<TypeParam>{after}, kapi::NdRange<1>({16 * 64}, {64}),
                      kapi::LocalAccessor<int, 1>(64));
    const auto small = held(after);
    EXPECT_LE(small.first, HostGroup::kept_buffer_bytes)
        << "local memory kept after a launch that needed " << big.first << " bytes";
    EXPECT_LE(small.second, HostGroup::kept_buffer_bytes)
        << "loop storage kept after a launch that needed " << big.second << " bytes";
  }
}

}  // namespace
