// SPDX-License-Identifier: Apache-2.0
// Kernels with barriers as the work-group loop pass compiles them (Clang builds with the
// plugin, framework/compiler/): values kept per work-item across barriers, barriers in
// uniform loops and branches, private memory across a barrier, 1/1023/1024-item groups, the
// group algorithms, and a kernel the pass must leave on fibers. Every result is checked
// against a sequential reference, so each test also passes on fibers
// (KAPI_WORK_GROUPS=fibers, ctest's *_fibers entries) and on devices; where the plugin is
// built, the tests also check which engine ran.
#include <kapi/barrier.hpp>
#include <kapi/device_limits.hpp>
#include <kapi/errors.hpp>
#include <kapi/functional.hpp>
#include <kapi/group_algorithms.hpp>
#include <kapi/item.hpp>
#include <kapi/launch.hpp>
#include <kapi/local_accessor.hpp>
#include <kapi/private_array.hpp>
#include <kapi/range.hpp>
#include <kapi/host/detail/work_group_setting.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include <gmock/gmock.h>

#include "execution_spaces.hpp"

namespace {

using ::testing::HasSubstr;

template <class Space>
using Out = Kokkos::View<std::int64_t*, typename Space::memory_space>;

// The engine a kernel the pass transforms must get on this build, space and setting.
template <class Space, class Event>
void expect_engine(const Event& event, bool transformable) {
  if constexpr (kapi_test::is_host_space<Space>) {
    const kapi::WorkGroupEngines e = event.work_group_engines();
    const bool loops = transformable && kapi_test::work_groups_run_as_loops();
    EXPECT_EQ(e.loops, loops) << "the kernel ran on the other engine";
    EXPECT_EQ(e.fibers, !loops);
  }
}

template <class Space, class Kernel, int N, class... Args>
void run(const Kernel& kernel, const kapi::NdRange<N>& range, bool transformable, const Args&... args) {
  auto event = kapi::call_kernel_async(Space(), kernel, range, args...);
  event.wait();
  expect_engine<Space>(event, transformable);
}

// Values defined before barriers and used after them, each work-item its own: an id
// computation, a value loaded from memory that the kernel then overwrites, a loop-carried
// sum, and the neighbour's value through local memory.
template <class Space>
struct KeepsValues {
  Out<Space> in, out;
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it,
                                         const kapi::LocalAccessor<std::int64_t, 1>& slots) const {
    const std::size_t l = it.get_local_id(0), g = it.get_global_id(0), size = it.get_local_range(0);
    const std::int64_t mine = in(g);  // overwritten below: must be kept, not reloaded
    const std::int64_t scaled = std::int64_t(l) * 3 + 1;
    slots[l] = mine;
    kapi::group_barrier(it.get_group());
    in(g) = -1;
    std::int64_t sum = 0;
    for (std::size_t k = 0; k < 3; ++k) sum += slots[(l + k) % size];
    kapi::group_barrier(it.get_group());
    slots[l] = sum;
    kapi::group_barrier(it.get_group());
    out(g) = mine * 1000 + scaled + sum + slots[(l + size - 1) % size];
  }
};

std::vector<std::int64_t> keeps_reference(std::size_t groups, std::size_t size) {
  std::vector<std::int64_t> out(groups * size);
  for (std::size_t g = 0; g < groups; ++g)
    for (std::size_t l = 0; l < size; ++l) {
      auto input = [&](std::size_t i) { return std::int64_t(g * size + i) * 7 % 101; };
      auto sum_at = [&](std::size_t j) {
        std::int64_t s = 0;
        for (std::size_t k = 0; k < 3; ++k) s += input((j + k) % size);
        return s;
      };
      out[g * size + l] = input(l) * 1000 + std::int64_t(l) * 3 + 1 + sum_at(l) + sum_at((l + size - 1) % size);
    }
  return out;
}

template <class Space>
struct WorkGroupLoops : ::testing::Test {};
KAPI_TYPED_TEST_SUITE(WorkGroupLoops);

template <class Space>
void check_keeps_values(std::size_t size, std::size_t groups) {
  Out<Space> in("in", groups * size), out("out", groups * size);
  Kokkos::parallel_for(
      Kokkos::RangePolicy<Space>(0, in.extent(0)), KOKKOS_LAMBDA(std::size_t i) { in(i) = std::int64_t(i) * 7 % 101; });
  run<Space>(KeepsValues<Space>{in, out}, kapi::NdRange<1>({groups * size}, {size}), true,
             kapi::LocalAccessor<std::int64_t, 1>(size));
  const auto h = kapi_test::to_host(out);
  const auto ref = keeps_reference(groups, size);
  for (std::size_t i = 0; i < ref.size(); ++i) ASSERT_EQ(h(i), ref[i]) << "item " << i << ", groups of " << size;
}

TYPED_TEST(WorkGroupLoops, ValuesLiveAcrossBarriersPerWorkItem) {
  for (std::size_t size : {1, 2, 7, 64, 256, 1023, 1024}) {
    if (size > kapi::max_work_group_size<TypeParam>()) continue;
    check_keeps_values<TypeParam>(size, 5);
  }
}

// A work-item's findings in one number: group < 2^12, local linear id < 2^12, codes < 2^18.
KOKKOS_INLINE_FUNCTION std::int64_t encode(std::size_t group, std::size_t l, std::int64_t code, std::int64_t seen,
                                           bool mismatch) {
  return ((((std::int64_t(group) << 12 | std::int64_t(l)) << 18 | code) << 18 | seen) << 1) | (mismatch ? 1 : 0);
}

// 2-d and 3-d groups: the pass runs each region as loops over the local shape's levels, the
// ids their counters. Every work-item writes its ids to local memory, reads its mirror
// image's (each id d becomes L_d - 1 - id) after a barrier, and again, in a second round
// (a barrier in a loop), the image of the image: its own.
template <class Space, int N>
struct NdIdsAcrossBarriers {
  Out<Space> out;
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<N>& it,
                                         const kapi::LocalAccessor<std::int64_t, 1>& slots) const {
    std::int64_t code = 0;
    std::size_t mirror = 0;
    for (int d = 0; d < N; ++d) {
      code = code * 64 + std::int64_t(it.get_local_id(d));
      mirror = mirror * it.get_local_range(d) + (it.get_local_range(d) - 1 - it.get_local_id(d));
    }
    const std::size_t l = it.get_local_linear_id();
    std::int64_t seen = code;
    for (int round = 0; round < 2; ++round) {
      slots[l] = seen;
      kapi::group_barrier(it.get_group());
      seen = slots[mirror];
      kapi::group_barrier(it.get_group());
    }
    const std::int64_t first = slots[mirror];  // unchanged since the last round's barrier: its image's, ours
    out(it.get_global_linear_id()) = encode(it.get_group_linear_id(), l, code, seen, first != seen);
  }
};

template <class Space, int N>
void check_nd_ids(const std::size_t (&local)[N], const std::size_t (&groups)[N]) {
  std::size_t global[N], items = 1, size = 1;
  for (int d = 0; d < N; ++d) global[d] = local[d] * groups[d], items *= global[d], size *= local[d];
  Out<Space> out("out", items);
  kapi::NdRange<N> range = [&] {
    if constexpr (N == 2)
      return kapi::NdRange<2>({global[0], global[1]}, {local[0], local[1]});
    else
      return kapi::NdRange<3>({global[0], global[1], global[2]}, {local[0], local[1], local[2]});
  }();
  run<Space>(NdIdsAcrossBarriers<Space, N>{out}, range, true, kapi::LocalAccessor<std::int64_t, 1>(size));
  const auto h = kapi_test::to_host(out);
  // The reference: SYCL's order, the last dimension fastest, for global, local and group ids.
  for (std::size_t linear = 0; linear < items; ++linear) {
    std::size_t id[N], rest = linear;
    for (int d = N - 1; d >= 0; --d) id[d] = rest % global[d], rest /= global[d];
    std::size_t group = 0, l = 0;
    std::int64_t code = 0;
    for (int d = 0; d < N; ++d) {
      group = group * groups[d] + id[d] / local[d];
      l = l * local[d] + id[d] % local[d];
      code = code * 64 + std::int64_t(id[d] % local[d]);
    }
    // two rounds: the image's image is the item itself, and so is what its image holds
    const std::int64_t want = encode(group, l, code, code, false);
    ASSERT_EQ(h(linear), want) << "global linear id " << linear << ", local range " << local[0] << "x" << local[1]
                               << (N == 3 ? "x" + std::to_string(local[N - 1]) : std::string());
  }
}

TYPED_TEST(WorkGroupLoops, NdIdsAreTheLoopsCountersAcrossBarriers) {
  check_nd_ids<TypeParam, 2>({1, 1}, {3, 2});
  check_nd_ids<TypeParam, 2>({16, 16}, {2, 3});
  check_nd_ids<TypeParam, 2>({5, 1}, {2, 4});
  check_nd_ids<TypeParam, 2>({1, 7}, {3, 1});
  check_nd_ids<TypeParam, 2>({3, 31}, {2, 2});
  check_nd_ids<TypeParam, 3>({3, 5, 7}, {2, 1, 3});
  check_nd_ids<TypeParam, 3>({1, 1, 1}, {2, 2, 2});
  check_nd_ids<TypeParam, 3>({2, 1, 9}, {1, 3, 2});
  check_nd_ids<TypeParam, 3>({4, 8, 8}, {2, 1, 1});
}

// Barriers in a loop whose trip count is the kernel's argument, and one in a branch that
// depends on the group (uniform within it), not on the work-item.
template <class Space>
struct UniformControl {
  Out<Space> out;
  int rounds;
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it,
                                         const kapi::LocalAccessor<std::int64_t, 1>& slots) const {
    const std::size_t l = it.get_local_id(0), size = it.get_local_range(0);
    std::int64_t v = std::int64_t(it.get_global_id(0));
    for (int r = 0; r < rounds; ++r) {
      slots[l] = v;
      kapi::group_barrier(it.get_group());
      v = slots[(l + 1) % size] * 2 + r;
      kapi::group_barrier(it.get_group());
    }
    if (it.get_group_linear_id() % 2 == 1) {
      slots[l] = v;
      kapi::group_barrier(it.get_group());
      v += slots[size - 1 - l];
    }
    out(it.get_global_id(0)) = v;
  }
};

TYPED_TEST(WorkGroupLoops, BarriersInUniformLoopsAndBranches) {
  for (std::size_t size : {1, 5, 256, 1024}) {
    if (size > kapi::max_work_group_size<TypeParam>()) continue;
    for (int rounds : {0, 1, 4}) {
      const std::size_t groups = 4;
      Out<TypeParam> out("out", groups * size);
      run<TypeParam>(UniformControl<TypeParam>{out, rounds}, kapi::NdRange<1>({groups * size}, {size}), true,
                     kapi::LocalAccessor<std::int64_t, 1>(size));
      const auto h = kapi_test::to_host(out);
      for (std::size_t g = 0; g < groups; ++g) {
        std::vector<std::int64_t> v(size), next(size);
        for (std::size_t l = 0; l < size; ++l) v[l] = std::int64_t(g * size + l);
        for (int r = 0; r < rounds; ++r) {
          for (std::size_t l = 0; l < size; ++l) next[l] = v[(l + 1) % size] * 2 + r;
          v = next;
        }
        if (g % 2 == 1) {
          for (std::size_t l = 0; l < size; ++l) next[l] = v[l] + v[size - 1 - l];
          v = next;
        }
        for (std::size_t l = 0; l < size; ++l)
          ASSERT_EQ(h(g * size + l), v[l]) << "work-item " << l << " of group " << g << ", rounds " << rounds;
      }
    }
  }
}

// A tree reduction in local memory: log2(size) barriers in a loop, the branch inside it on
// the work-item (no barrier under it).
template <class Space>
struct TreeReduction {
  Out<Space> out;
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it,
                                         const kapi::LocalAccessor<std::int64_t, 1>& tile) const {
    const std::size_t l = it.get_local_id(0), size = it.get_local_range(0);
    tile[l] = std::int64_t(it.get_global_id(0)) + 1;
    kapi::group_barrier(it.get_group());
    for (std::size_t half = 1; half < size; half *= 2) {
      if (l % (2 * half) == 0 && l + half < size) tile[l] += tile[l + half];
      kapi::group_barrier(it.get_group());
    }
    if (l == 0) out(it.get_group_linear_id()) = tile[0];
  }
};

TYPED_TEST(WorkGroupLoops, TreeReductionWithOneToFullGroups) {
  for (std::size_t size : {1, 3, 1023, 1024}) {
    if (size > kapi::max_work_group_size<TypeParam>()) continue;
    const std::size_t groups = 3;
    Out<TypeParam> out("out", groups);
    run<TypeParam>(TreeReduction<TypeParam>{out}, kapi::NdRange<1>({groups * size}, {size}), true,
                   kapi::LocalAccessor<std::int64_t, 1>(size));
    const auto h = kapi_test::to_host(out);
    for (std::size_t g = 0; g < groups; ++g) {
      const auto first = std::int64_t(g * size) + 1, last = std::int64_t(g * size + size);
      ASSERT_EQ(h(g), (first + last) * std::int64_t(size) / 2) << "group " << g << " of size " << size;
    }
  }
}

// A large private array per work-item, filled before a barrier and read after it: it
// lives in the engine's storage, not on the stack, however large the group.
template <class Space>
struct LargePrivateArray {
  Out<Space> out;
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it,
                                         const kapi::LocalAccessor<std::int64_t, 1>& slots) const {
    const std::size_t l = it.get_local_id(0), size = it.get_local_range(0);
    kapi::PrivateArray<std::int64_t, 2048> mine;
    for (std::size_t k = 0; k < 2048; ++k) mine[k] = std::int64_t(it.get_global_id(0) * 31 + k);
    slots[l] = mine[l % 2048];
    kapi::group_barrier(it.get_group());
    std::int64_t sum = slots[(l + 1) % size];
    for (std::size_t k = 0; k < 2048; k += 7) sum += mine[k];
    out(it.get_global_id(0)) = sum;
  }
};

TYPED_TEST(WorkGroupLoops, LargePrivateArrayAcrossABarrier) {
  for (std::size_t size : {1, 64, 1024}) {
    if (size > kapi::max_work_group_size<TypeParam>()) continue;
    const std::size_t groups = 2;
    Out<TypeParam> out("out", groups * size);
    run<TypeParam>(LargePrivateArray<TypeParam>{out}, kapi::NdRange<1>({groups * size}, {size}), true,
                   kapi::LocalAccessor<std::int64_t, 1>(size));
    const auto h = kapi_test::to_host(out);
    for (std::size_t i = 0; i < groups * size; ++i) {
      const std::size_t g = i / size, l = i % size, next = g * size + (l + 1) % size;
      std::int64_t sum = std::int64_t(next * 31 + (l + 1) % size % 2048);
      for (std::size_t k = 0; k < 2048; k += 7) sum += std::int64_t(i * 31 + k);
      ASSERT_EQ(h(i), sum) << "work-item " << l << " of group " << g << ", groups of " << size;
    }
  }
}

// Group algorithms, several per kernel (each a barrier of its own).
template <class Space>
struct Collectives {
  Kokkos::View<std::int64_t**, typename Space::memory_space> out;
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it) const {
    const auto g = it.get_group();
    const std::size_t i = it.get_global_id(0), size = g.get_local_linear_range();
    const std::int64_t x = std::int64_t(i % 13) - 4;
    out(0, i) = kapi::reduce_over_group(g, x, kapi::plus<>());
    out(1, i) = kapi::inclusive_scan_over_group(g, x, kapi::plus<>());
    out(2, i) = kapi::exclusive_scan_over_group(g, x, kapi::plus<>());
    out(3, i) = kapi::group_broadcast(g, x * 2, size - 1);
    out(4, i) = kapi::reduce_over_group(g, x, kapi::maximum<>());
  }
};

TYPED_TEST(WorkGroupLoops, GroupReduceScanBroadcast) {
  for (std::size_t size : {1, 100, 1024}) {
    if (size > kapi::max_work_group_size<TypeParam>()) continue;
    const std::size_t groups = 3, n = groups * size;
    Kokkos::View<std::int64_t**, typename TypeParam::memory_space> out("out", 5, n);
    run<TypeParam>(Collectives<TypeParam>{out}, kapi::NdRange<1>({n}, {size}), true);
    const auto h = kapi_test::to_host(out);
    for (std::size_t g = 0; g < groups; ++g) {
      std::int64_t sum = 0, max = -100, scan = 0;
      for (std::size_t l = 0; l < size; ++l) {
        const std::int64_t x = std::int64_t((g * size + l) % 13) - 4;
        sum += x;
        max = std::max(max, x);
      }
      const std::int64_t last = std::int64_t((g * size + size - 1) % 13) - 4;
      for (std::size_t l = 0; l < size; ++l) {
        const std::size_t i = g * size + l;
        const std::int64_t x = std::int64_t(i % 13) - 4;
        ASSERT_EQ(h(0, i), sum) << i;
        ASSERT_EQ(h(2, i), scan) << i;
        scan += x;
        ASSERT_EQ(h(1, i), scan) << i;
        ASSERT_EQ(h(3, i), last * 2) << i;
        ASSERT_EQ(h(4, i), max) << i;
      }
    }
  }
}

// A broadcast (whose bad-source error path builds a string under a branch on its
// argument) in a loop of barriers whose trip count is the kernel's argument. The error
// path's lifetime markers once counted as writes that made the argument, and so the
// loop's barriers, look work-item dependent: the kernel stayed on fibers.
template <class Space>
struct BroadcastRounds {
  Out<Space> out;
  int rounds;
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it,
                                         const kapi::LocalAccessor<std::int64_t, 1>& slots) const {
    const auto g = it.get_group();
    const std::size_t l = it.get_local_id(0), size = g.get_local_linear_range();
    std::int64_t v = std::int64_t(it.get_global_id(0)) * 7 % 101;
    for (int r = 0; r < rounds; ++r) {
      const std::int64_t b = kapi::group_broadcast(g, v, std::size_t(r) * 5 % size);
      slots[l] = v + b;
      kapi::group_barrier(g);
      v = slots[(l + 1) % size] - 2 * b + r;
      kapi::group_barrier(g);
    }
    out(it.get_global_id(0)) = v;
  }
};

TYPED_TEST(WorkGroupLoops, BroadcastInAUniformLoopRunsAsLoops) {
  for (std::size_t size : {1, 3, 64, 1024}) {
    if (size > kapi::max_work_group_size<TypeParam>()) continue;
    const std::size_t groups = 3;
    const int rounds = 4;
    Out<TypeParam> out("out", groups * size);
    run<TypeParam>(BroadcastRounds<TypeParam>{out, rounds}, kapi::NdRange<1>({groups * size}, {size}), true,
                   kapi::LocalAccessor<std::int64_t, 1>(size));
    const auto h = kapi_test::to_host(out);
    for (std::size_t g = 0; g < groups; ++g) {
      std::vector<std::int64_t> v(size), next(size);
      for (std::size_t l = 0; l < size; ++l) v[l] = std::int64_t(g * size + l) * 7 % 101;
      for (int r = 0; r < rounds; ++r) {
        const std::int64_t b = v[std::size_t(r) * 5 % size];
        for (std::size_t l = 0; l < size; ++l) next[l] = v[(l + 1) % size] + b - 2 * b + r;
        v = next;
      }
      for (std::size_t l = 0; l < size; ++l)
        ASSERT_EQ(h(g * size + l), v[l]) << "work-item " << l << " of group " << g << ", groups of " << size;
    }
  }
}

// Values the same for the whole group, live across barriers: a loop counter halved at
// every step, a step count, the group's id. The loops keep them once per group.
template <class Space>
struct UniformCounters {
  Out<Space> out;
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it,
                                         const kapi::LocalAccessor<std::int64_t, 1>& tile) const {
    const std::size_t l = it.get_local_id(0), size = it.get_local_range(0), group = it.get_group_linear_id();
    std::int64_t acc = std::int64_t(it.get_global_id(0)) % 11;
    std::size_t s = size, steps = 0;
    while (s > 1) {
      tile[l] = acc;
      kapi::group_barrier(it.get_group());
      s = (s + 1) / 2;
      acc = l < s && l + s < size ? tile[l] + tile[l + s] : tile[l];
      kapi::group_barrier(it.get_group());
      ++steps;
    }
    out(it.get_global_id(0)) = acc * 1000 + std::int64_t(steps * 10 + group % 7 + s);
  }
};

TYPED_TEST(WorkGroupLoops, UniformCountersAcrossBarriers) {
  for (std::size_t size : {2, 3, 7, 64, 100, 1024}) {  // (of 1, no barrier runs)
    if (size > kapi::max_work_group_size<TypeParam>()) continue;
    const std::size_t groups = 4;
    Out<TypeParam> out("out", groups * size);
    run<TypeParam>(UniformCounters<TypeParam>{out}, kapi::NdRange<1>({groups * size}, {size}), true,
                   kapi::LocalAccessor<std::int64_t, 1>(size));
    const auto h = kapi_test::to_host(out);
    for (std::size_t g = 0; g < groups; ++g) {
      std::vector<std::int64_t> acc(size), next(size);
      for (std::size_t l = 0; l < size; ++l) acc[l] = std::int64_t(g * size + l) % 11;
      std::size_t s = size, steps = 0;
      while (s > 1) {
        s = (s + 1) / 2;
        for (std::size_t l = 0; l < size; ++l) next[l] = l < s && l + s < size ? acc[l] + acc[l + s] : acc[l];
        acc = next;
        ++steps;
      }
      for (std::size_t l = 0; l < size; ++l)
        ASSERT_EQ(h(g * size + l), acc[l] * 1000 + std::int64_t(steps * 10 + g % 7 + s))
            << "work-item " << l << " of group " << g << ", groups of " << size;
    }
  }
}

// A value that looks the same for the group but is not: loaded at an address every
// work-item reads, which work-item 0 writes in the same region (after its own load). A
// host runs a region's work-items one after another (on fibers as in the loops), so
// work-item 0 reads the old value and the others the new one; the value lives across a
// barrier and must stay per work-item. (A device gives no such order: host only.)
template <class Space>
struct LoadWrittenInItsRegion {
  Out<Space> out;
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it,
                                         const kapi::LocalAccessor<std::int64_t, 1>& tile) const {
    const std::size_t l = it.get_local_id(0);
    if (l == 0) tile[0] = 100 + std::int64_t(it.get_group_linear_id());
    kapi::group_barrier(it.get_group());
    const std::int64_t v = tile[0];
    if (l == 0) tile[0] = 7;
    kapi::group_barrier(it.get_group());
    out(it.get_global_id(0)) = v * 1000 + std::int64_t(l);
  }
};

TYPED_TEST(WorkGroupLoops, LoadWrittenInItsRegionStaysPerWorkItem) {
  if constexpr (!kapi_test::is_host_space<TypeParam>) {
    GTEST_SKIP() << "the order of a region's work-items is a host engine's";
  } else {
    for (std::size_t size : {1, 2, 64, 1024}) {
      const std::size_t groups = 3;
      Out<TypeParam> out("out", groups * size);
      run<TypeParam>(LoadWrittenInItsRegion<TypeParam>{out}, kapi::NdRange<1>({groups * size}, {size}), true,
                     kapi::LocalAccessor<std::int64_t, 1>(1));
      const auto h = kapi_test::to_host(out);
      for (std::size_t g = 0; g < groups; ++g)
        for (std::size_t l = 0; l < size; ++l)
          ASSERT_EQ(h(g * size + l), (l == 0 ? std::int64_t(100 + g) : 7) * 1000 + std::int64_t(l))
              << "work-item " << l << " of group " << g << ", groups of " << size;
    }
  }
}

// Barriers under a branch on a value that differs between the work-items only through
// memory (work-item 0 reads the flag before it sets it, the others after): two barriers for
// some work-items, one for the others. Nothing at compile time shows the branch depends on
// the work-item, so the kernel runs as loops, which must report the divergence.
template <class Space>
struct DivergentThroughMemory {
  Out<Space> out;
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it,
                                         const kapi::LocalAccessor<std::int64_t, 1>& flag) const {
    flag[0] = 0;
    kapi::group_barrier(it.get_group());
    const std::int64_t seen = flag[0];
    if (it.get_local_id(0) == 0) flag[0] = 1;
    if (seen != 0) {
      kapi::group_barrier(it.get_group());
      kapi::group_barrier(it.get_group());
    } else {
      kapi::group_barrier(it.get_group());
    }
    out(it.get_global_id(0)) = seen;
  }
};

TYPED_TEST(WorkGroupLoops, DivergenceThroughMemoryIsReportedByTheLoops) {
  if constexpr (!kapi_test::is_host_space<TypeParam>) {
    GTEST_SKIP() << "divergent barriers are reported on host backends";
  } else {
    Out<TypeParam> out("out", 64);
    auto event = kapi::call_kernel_async(TypeParam(), DivergentThroughMemory<TypeParam>{out},
                                         kapi::NdRange<1>({64}, {16}), kapi::LocalAccessor<std::int64_t, 1>(1));
    bool reported = false;
    try {
      event.wait();
    } catch (const kapi::launch_error& e) {
      reported = true;
      EXPECT_THAT(std::string(e.what()), HasSubstr("same barriers"));
    }
    const bool loops = event.work_group_engines().loops;
    EXPECT_EQ(loops, kapi_test::work_groups_run_as_loops());
    if (loops) {
      EXPECT_TRUE(reported) << "the loops ran a divergent group without a report";
    }
  }
}

// An exception after a barrier names its work-item (the loops keep the running id where the
// engine reads it, before every call).
template <class Space>
struct ThrowsAfterABarrier {
  Out<Space> out;
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it,
                                         const kapi::LocalAccessor<std::int64_t, 1>& slots) const {
    const std::size_t l = it.get_local_id(0);
    slots[l] = std::int64_t(l) * 3;
    kapi::group_barrier(it.get_group());
#if !KAPI_COMPILING_DEVICE_CODE  // launched on host spaces only
    if (it.get_group_linear_id() == 1 && l == 37) throw std::runtime_error("thrown after a barrier");
#endif
    out(it.get_global_id(0)) = slots[(l + 1) % it.get_local_range(0)];
  }
};

TYPED_TEST(WorkGroupLoops, ExceptionAfterABarrierNamesItsWorkItem) {
  if constexpr (!kapi_test::is_host_space<TypeParam>) {
    GTEST_SKIP() << "device code cannot throw";
  } else {
    Out<TypeParam> out("out", 256);
    auto event = kapi::call_kernel_async(TypeParam(), ThrowsAfterABarrier<TypeParam>{out},
                                         kapi::NdRange<1>({256}, {64}), kapi::LocalAccessor<std::int64_t, 1>(64));
    try {
      event.wait();
      ADD_FAILURE() << "nothing thrown";
    } catch (const kapi::launch_error& e) {
      EXPECT_THAT(std::string(e.what()), HasSubstr("work-item 37 of work-group 1"));
      EXPECT_THAT(std::string(e.what()), HasSubstr("thrown after a barrier"));
    }
    EXPECT_EQ(event.work_group_engines().loops, kapi_test::work_groups_run_as_loops());
  }
}

// A barrier under a branch on the work-item: the pass leaves it on fibers, which report
// the divergence as always.
template <class Space>
struct DivergentBarrier {
  Out<Space> out;
  std::size_t k;
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it) const {
    if (it.get_local_id(0) < k) kapi::group_barrier(it.get_group());
    out(it.get_global_id(0)) = 1;
  }
};

TYPED_TEST(WorkGroupLoops, BarrierUnderAWorkItemBranchStillReportsDivergence) {
  if constexpr (!kapi_test::is_host_space<TypeParam>) {
    GTEST_SKIP() << "divergent barriers are reported on host backends";
  } else {
    Out<TypeParam> out("out", 64);
    auto event =
        kapi::call_kernel_async(TypeParam(), DivergentBarrier<TypeParam>{out, 5}, kapi::NdRange<1>({64}, {16}));
    try {
      event.wait();
      ADD_FAILURE() << "a divergent barrier was not reported";
    } catch (const kapi::launch_error& e) {
      EXPECT_THAT(std::string(e.what()), HasSubstr("same barriers"));
    }
    EXPECT_FALSE(event.work_group_engines().loops);
  }
}

TYPED_TEST(WorkGroupLoops, BadSettingIsALaunchError) {
  const char* env = std::getenv("KAPI_WORK_GROUPS");
  if (!env || kapi::detail::parse_host_work_groups(env).error.empty())
    GTEST_SKIP() << "runs under the kapi_tests_bad_work_group_setting case (KAPI_WORK_GROUPS=threads)";
  if constexpr (!kapi_test::is_host_space<TypeParam>) {
    GTEST_SKIP() << "host work-groups only";
  } else {
    Out<TypeParam> out("out", 64);
    try {
      kapi::call_kernel(TypeParam(), DivergentBarrier<TypeParam>{out, 0}, kapi::NdRange<1>({64}, {16}));
      ADD_FAILURE() << "a bad KAPI_WORK_GROUPS was not reported";
    } catch (const kapi::launch_error& e) {
      EXPECT_THAT(std::string(e.what()), HasSubstr(std::string("KAPI_WORK_GROUPS='") + env + "'"));
    }
  }
}

}  // namespace
