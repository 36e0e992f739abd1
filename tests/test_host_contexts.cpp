// SPDX-License-Identifier: Apache-2.0
// Work-items that run as host contexts (host backends, groups with barriers): what must
// keep working there, in particular under AddressSanitizer, which has to follow every
// switch between the thread's stack and a context's (detail/sanitizer.hpp): exceptions
// thrown and caught inside a work-item, large stack frames, many groups reusing the
// pooled stacks, a floating-point rounding mode per work-item.
#include <kapi/kapi.hpp>

#include <cfenv>
#include <stdexcept>

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

}  // namespace
