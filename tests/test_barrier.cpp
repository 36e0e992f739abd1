// SPDX-License-Identifier: Apache-2.0
// Barrier semantics: results that are wrong unless every work-item of the group waits
// at every barrier, for group sizes far above the host backends' Kokkos team limits.
#include <kapi/barrier.hpp>
#include <kapi/device_limits.hpp>
#include <kapi/item.hpp>
#include <kapi/launch.hpp>
#include <kapi/local_accessor.hpp>
#include <kapi/range.hpp>

#include "execution_spaces.hpp"

namespace {

// Each round: every work-item publishes its value, waits, takes its right neighbour's
// value, waits again. Without both barriers a work-item reads a stale or a future slot.
struct RotateThroughLocalMemory {
  int rounds;

  template <int N, class Out>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<N>& it, const Out& out,
                                         const kapi::LocalAccessor<std::uint32_t, 1>& slots) const {
    const std::size_t l = it.get_local_linear_id(), size = it.get_local_linear_range();
    std::uint32_t value = std::uint32_t(l * 7 + it.get_group().get_group_linear_id() * 1000);
    for (int r = 0; r < rounds; ++r) {
      slots[l] = value;
      kapi::group_barrier(it.get_group());
      value = slots[(l + 1) % size] * 3u + std::uint32_t(r);
      kapi::group_barrier(it.get_group());
    }
    out(it.get_global_linear_id()) = value;
  }
};

// The same computation, one group at a time with all work-items in lockstep.
std::vector<std::uint32_t> rotate_reference(std::size_t groups, std::size_t size, int rounds) {
  std::vector<std::uint32_t> out(groups * size), value(size), next(size);
  for (std::size_t g = 0; g < groups; ++g) {
    for (std::size_t l = 0; l < size; ++l) value[l] = std::uint32_t(l * 7 + g * 1000);
    for (int r = 0; r < rounds; ++r) {
      for (std::size_t l = 0; l < size; ++l) next[l] = value[(l + 1) % size] * 3u + std::uint32_t(r);
      value = next;
    }
    for (std::size_t l = 0; l < size; ++l) out[g * size + l] = value[l];
  }
  return out;
}

template <class Space, int N>
void check_rotation(const kapi::NdRange<N>& range, int rounds) {
  const std::size_t size = range.local.size(), groups = range.global.size() / size;
  Kokkos::View<std::uint32_t*, typename Space::memory_space> out("out", range.global.size());
  kapi::LocalAccessor<std::uint32_t, 1> slots(size);
  kapi::call_kernel(Space(), RotateThroughLocalMemory{rounds}, range, out, slots);
  auto h = kapi_test::to_host(out);
  // Global linear ids of 1-d ranges follow group after group; for N-d ranges map them back.
  const auto ref = rotate_reference(groups, size, rounds);
  for (std::size_t gl = 0; gl < range.global.size(); ++gl) {
    std::size_t gid[N], grp[N], lid[N];
    kapi::detail::delinearize(gl, range.global.extent, gid);
    std::size_t ng[N];
    for (int d = 0; d < N; ++d) ng[d] = range.global.extent[d] / range.local.extent[d];
    for (int d = 0; d < N; ++d) grp[d] = gid[d] / range.local.extent[d], lid[d] = gid[d] % range.local.extent[d];
    const std::size_t g = kapi::detail::linearize(grp, ng), l = kapi::detail::linearize(lid, range.local.extent);
    ASSERT_EQ(h(gl), ref[g * size + l]) << "work-item " << l << " of group " << g << ", group size " << size;
  }
}

template <class Space>
struct Barrier : ::testing::Test {};
KAPI_TYPED_TEST_SUITE(Barrier);

TYPED_TEST(Barrier, EveryWorkItemWaitsAcrossRounds1d) {
  for (std::size_t size : {1, 2, 7, 32, 64, 100, 256, 1024}) {
    if (size > kapi::max_work_group_size<TypeParam>()) continue;
    check_rotation<TypeParam, 1>(kapi::NdRange<1>({size * 5}, {size}), 6);
  }
}

TYPED_TEST(Barrier, EveryWorkItemWaitsAcrossRounds2d3d) {
  check_rotation<TypeParam, 2>(kapi::NdRange<2>({12, 24}, {4, 8}), 5);
  check_rotation<TypeParam, 2>(kapi::NdRange<2>({64, 32}, {32, 32}), 3);
  check_rotation<TypeParam, 3>(kapi::NdRange<3>({6, 6, 10}, {3, 2, 5}), 4);
}

// A kernel with no barrier must give the same answer (the host runs it without contexts).
template <class Space>
void check_barrier_free_groups() {
  const std::size_t n = 4096;
  Kokkos::View<std::size_t*, typename Space::memory_space> out("out", n);
  kapi::call_kernel(
      Space(),
      KOKKOS_LAMBDA(kapi::NdItem<1> it, decltype(out) o) {
        o(it.get_global_id(0)) = it.get_group().get_group_linear_id() * 10000 + it.get_local_id(0);
      },
      kapi::NdRange<1>({n}, {512}), out);
  auto h = kapi_test::to_host(out);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(h(i), (i / 512) * 10000 + i % 512);
}

TYPED_TEST(Barrier, BarrierFreeGroups) { check_barrier_free_groups<TypeParam>(); }

// Reads local memory after the group's last barrier: right only if the next group that
// shares the memory (a device team runs group after group) waits until these reads are done.
struct ReadAfterTheLastBarrier {
  template <class Out>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it, const Out& out,
                                         const kapi::LocalAccessor<std::uint32_t, 1>& slots) const {
    const std::size_t l = it.get_local_id(0), size = it.get_local_range(0);
    slots[l] = std::uint32_t(it.get_global_id(0));
    kapi::group_barrier(it.get_group());
    out(it.get_global_id(0)) = slots[size - 1 - l];
  }
};

TYPED_TEST(Barrier, MoreGroupsThanTheDeviceHoldsShareLocalMemorySafely) {
  const std::size_t size = 64;
  // On a device, three times the groups of the fewest teams a launch starts
  // (detail::device_teams): each team runs three or four groups in turn.
  const std::size_t groups =
      kapi_test::is_host_space<TypeParam>
          ? 100
          : 3 * kapi::detail::device_min_group_waves * std::size_t(TypeParam().concurrency()) / size + 7;
  Kokkos::View<std::uint32_t*, typename TypeParam::memory_space> out("out", groups * size);
  for (int round = 0; round < 3; ++round) {
    kapi::call_kernel(TypeParam(), ReadAfterTheLastBarrier{}, kapi::NdRange<1>({groups * size}, {size}), out,
                      kapi::LocalAccessor<std::uint32_t, 1>(size));
    auto h = kapi_test::to_host(out);
    for (std::size_t i = 0; i < groups * size; ++i) {
      const std::size_t g = i / size, l = i % size;
      ASSERT_EQ(h(i), g * size + size - 1 - l) << "work-item " << l << " of group " << g << " of " << groups;
    }
  }
}

// Every word of a large local memory written by one work-item and read by another across
// a barrier. On CUDA local memory up to the block's shared memory (227 KiB on an H100)
// runs in kapi's own launch, beyond it in Kokkos's level-1 team scratch.
struct SwapThroughLargeLocalMemory {
  template <class Out>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it, const Out& out,
                                         const kapi::LocalAccessor<std::uint32_t, 1>& words) const {
    const std::size_t l = it.get_local_id(0), size = it.get_local_range(0), n = words.size();
    const std::uint32_t base = std::uint32_t(it.get_group().get_group_id(0) * n);
    for (std::size_t w = l; w < n; w += size) words[w] = base + std::uint32_t(w);
    kapi::group_barrier(it.get_group());
    std::uint32_t sum = 0;  // the words of the mirrored work-item
    for (std::size_t w = size - 1 - l; w < n; w += size) sum += words[n - 1 - w] ^ std::uint32_t(w);
    out(it.get_global_id(0)) = sum;
  }
};

TYPED_TEST(Barrier, LargeLocalMemoryIsSharedByTheGroup) {
  const std::size_t size = 256, groups = 40;
  Kokkos::View<std::uint32_t*, typename TypeParam::memory_space> out("out", groups * size);
  for (std::size_t kib : {16, 47, 49, 100, 200, 226, 300}) {
    const std::size_t n = kib * 1024 / sizeof(std::uint32_t);
    if (n * sizeof(std::uint32_t) > kapi::max_local_memory_bytes<TypeParam>()) continue;
    kapi::call_kernel(TypeParam(), SwapThroughLargeLocalMemory{}, kapi::NdRange<1>({groups * size}, {size}), out,
                      kapi::LocalAccessor<std::uint32_t, 1>(n));
    auto h = kapi_test::to_host(out);
    for (std::size_t g = 0; g < groups; ++g)
      for (std::size_t l = 0; l < size; ++l) {
        std::uint32_t sum = 0;
        for (std::size_t w = size - 1 - l; w < n; w += size) sum += std::uint32_t(g * n + n - 1 - w) ^ std::uint32_t(w);
        ASSERT_EQ(h(g * size + l), sum) << "work-item " << l << " of group " << g << ", " << kib << " KiB";
      }
  }
}

}  // namespace
