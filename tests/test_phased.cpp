// SPDX-License-Identifier: Apache-2.0
// The phased work-group form: ids, values across phases, local memory, the
// *_over_work_items collectives, launch checks, and the same kernels written flat and
// phased giving identical results (the seed matmul and a tree reduction).
#include <kapi/barrier.hpp>
#include <kapi/device_limits.hpp>
#include <kapi/errors.hpp>
#include <kapi/execution_space.hpp>
#include <kapi/functional.hpp>
#include <kapi/group_algorithms.hpp>
#include <kapi/hierarchical.hpp>
#include <kapi/item.hpp>
#include <kapi/launch.hpp>
#include <kapi/local_accessor.hpp>
#include <kapi/math.hpp>
#include <kapi/phased.hpp>
#include <kapi/range.hpp>
#include <kapi/sub_group_algorithms.hpp>
#include <kapi/work_group.hpp>
#include <matmul/sliding_window.hpp>
#include <matmul/sliding_window_phased.hpp>

#include <gmock/gmock.h>

#include <random>

#include "execution_spaces.hpp"
#include "random_matrix.hpp"
#include "value_types.hpp"

namespace {

using ::testing::HasSubstr;

template <class T, class Space>
using Vec = Kokkos::View<T*, typename Space::memory_space>;
template <class T, class Space>
using Mat = Kokkos::View<T**, Kokkos::LayoutRight, typename Space::memory_space>;

// ---------------------------------------------------------------------------- ids

// Every id an NdItem offers, packed into one row per work-item (by global linear id).
template <int N, class Out>
KOKKOS_INLINE_FUNCTION void record_ids(const kapi::NdItem<N>& it, const Out& out) {
  const std::size_t g = it.get_global_linear_id();
  int k = 0;
  out(g, k++) = it.get_local_linear_id();
  out(g, k++) = it.get_group().get_group_linear_id();
  out(g, k++) = it.get_global_linear_range();
  out(g, k++) = it.get_local_linear_range();
  for (int d = 0; d < N; ++d) {
    out(g, k++) = it.get_global_id(d);
    out(g, k++) = it.get_local_id(d);
    out(g, k++) = it.get_group().get_group_id(d);
    out(g, k++) = it.get_global_range(d);
  }
}

struct FlatIds {
  template <int N, class Out>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<N>& it, const Out& out) const {
    record_ids(it, out);
  }
};

struct PhasedIds {
  template <int N, class Out>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::WorkGroup<N>& wg, const Out& out) const {
    kapi::for_each_work_item(wg, [&](const kapi::NdItem<N>& it) { record_ids(it, out); });
  }
};

template <class Space, int N>
void check_ids(const kapi::NdRange<N>& range) {
  const std::size_t n = range.global.size();
  Mat<std::size_t, Space> flat("flat", n, 4 + 4 * N), phased("phased", n, 4 + 4 * N);
  kapi::call_kernel(Space(), FlatIds{}, range, flat);
  kapi::call_kernel(Space(), PhasedIds{}, range, phased);
  auto hf = kapi_test::to_host(flat), hp = kapi_test::to_host(phased);
  for (std::size_t g = 0; g < n; ++g) {
    ASSERT_EQ(hf(g, 2), n) << "the flat kernel ran work-item " << g;
    for (int k = 0; k < 4 + 4 * N; ++k) ASSERT_EQ(hp(g, k), hf(g, k)) << "work-item " << g << ", field " << k;
  }
}

template <class Space>
struct Phased : ::testing::Test {};
KAPI_TYPED_TEST_SUITE(Phased);

TYPED_TEST(Phased, IdsMatchTheFlatForm) {
  for (std::size_t size : kapi_test::group_sizes<TypeParam>())
    check_ids<TypeParam, 1>(kapi::NdRange<1>({3 * size}, {size}));
  check_ids<TypeParam, 2>(kapi::NdRange<2>({12, 24}, {4, 8}));
  check_ids<TypeParam, 2>(kapi::NdRange<2>({64, 64}, {32, 32}));
  check_ids<TypeParam, 3>(kapi::NdRange<3>({6, 6, 10}, {3, 2, 5}));
}

// --------------------------------------- values across phases, shared local memory

// test_barrier's rotation, phased: publish, (barrier), take the right neighbour's, (barrier).
struct RotatePhased {
  int rounds;
  template <class Out>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::WorkGroup<1>& wg, const Out& out,
                                         const kapi::LocalAccessor<std::uint32_t, 1>& slots) const {
    const std::size_t size = wg.get_local_linear_range(), group = wg.get_group_linear_id();
    kapi::PerWorkItem<std::uint32_t> value(wg);
    kapi::for_each_work_item(
        wg, [&](const kapi::NdItem<1>& it) { value(it) = std::uint32_t(it.get_local_id(0) * 7 + group * 1000); });
    for (int r = 0; r < rounds; ++r) {
      kapi::for_each_work_item(wg, [&](const kapi::NdItem<1>& it) { slots[it.get_local_id(0)] = value(it); });
      kapi::for_each_work_item(wg, [&](const kapi::NdItem<1>& it) {
        value(it) = slots[(it.get_local_id(0) + 1) % size] * 3u + std::uint32_t(r);
      });
    }
    kapi::for_each_work_item(wg, [&](const kapi::NdItem<1>& it) { out(it.get_global_id(0)) = value(it); });
  }
};

TYPED_TEST(Phased, ValuesLiveAcrossPhasesAndLocalMemoryIsShared) {
  const int rounds = 6;
  for (std::size_t size : kapi_test::group_sizes<TypeParam>()) {
    const std::size_t groups = 5, n = groups * size;
    Vec<std::uint32_t, TypeParam> out("out", n);
    kapi::call_kernel(TypeParam(), RotatePhased{rounds}, kapi::NdRange<1>({n}, {size}), out,
                      kapi::LocalAccessor<std::uint32_t, 1>(size));
    auto h = kapi_test::to_host(out);
    std::vector<std::uint32_t> value(size), next(size);
    for (std::size_t g = 0; g < groups; ++g) {
      for (std::size_t l = 0; l < size; ++l) value[l] = std::uint32_t(l * 7 + g * 1000);
      for (int r = 0; r < rounds; ++r) {
        for (std::size_t l = 0; l < size; ++l) next[l] = value[(l + 1) % size] * 3u + std::uint32_t(r);
        value = next;
      }
      for (std::size_t l = 0; l < size; ++l) ASSERT_EQ(h(g * size + l), value[l]) << "size " << size << ", item " << l;
    }
  }
}

// ---------------------------------------------------- flat vs phased: seed matmul

using kapi_test::random_matrix;

// Fractional inputs, so any difference in the order of the sums would show.
template <class Space, class T>
void check_matmul_flat_vs_phased(std::size_t m, std::size_t k, std::size_t n, std::size_t tile) {
  auto a = random_matrix<T, Space>("A", m, k, 1), b = random_matrix<T, Space>("B", k, n, 2);
  Mat<T, Space> flat("flat", m, n), phased("phased", m, n);
  kapi::LocalAccessor<T, 2> a_tile(tile, tile), b_tile(tile, tile);
  const auto range = matmul::sliding_window_range(m, n, tile);
  kapi::call_kernel(Space(), matmul::SlidingWindow{}, range, a, b, flat, a_tile, b_tile);
  kapi::call_kernel(Space(), matmul::SlidingWindowPhased{}, range, a, b, phased, a_tile, b_tile);
  auto ha = kapi_test::to_host(a), hb = kapi_test::to_host(b);
  auto hf = kapi_test::to_host(flat), hp = kapi_test::to_host(phased);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      ASSERT_EQ(hp(i, j), hf(i, j)) << "C(" << i << "," << j << "), " << m << "x" << k << "x" << n << " tile " << tile;
      double ref = 0, mag = 0;
      for (std::size_t p = 0; p < k; ++p)
        ref += double(ha(i, p)) * hb(p, j), mag += std::abs(double(ha(i, p)) * hb(p, j));
      ASSERT_NEAR(double(hp(i, j)), ref, 2 * k * std::numeric_limits<T>::epsilon() * mag);
    }
}

TYPED_TEST(Phased, SeedMatmulFlatAndPhasedIdentical) {
  check_matmul_flat_vs_phased<TypeParam, float>(5, 5, 5, 2);  // the seed's shape
  check_matmul_flat_vs_phased<TypeParam, float>(100, 77, 131, 16);
  check_matmul_flat_vs_phased<TypeParam, double>(33, 250, 17, 16);
  if (kapi::max_work_group_size<TypeParam>() >= 1024) check_matmul_flat_vs_phased<TypeParam, float>(70, 45, 97, 32);
}

// ------------------------------------------------ flat vs phased: tree reduction

// Halving tree in local memory, for any group size: at each level the upper part (from
// `half` up) folds into the lower part.
struct TreeFlat {
  template <class In, class Out, class T>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it, const In& in, const Out& out,
                                         const kapi::LocalAccessor<T, 1>& tree) const {
    const std::size_t l = it.get_local_id(0);
    tree[l] = in(it.get_global_id(0));
    kapi::group_barrier(it.get_group());
    for (std::size_t active = it.get_local_range(0); active > 1; active = (active + 1) / 2) {
      const std::size_t half = (active + 1) / 2;
      if (l + half < active) tree[l] += tree[l + half];
      kapi::group_barrier(it.get_group());
    }
    if (l == 0) out(it.get_group().get_group_linear_id(), 0) = tree[0];
    out(it.get_group().get_group_linear_id(), 1) =
        kapi::reduce_over_group(it.get_group(), in(it.get_global_id(0)), kapi::plus<>());
  }
};

struct TreePhased {
  template <class In, class Out, class T>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::WorkGroup<1>& wg, const In& in, const Out& out,
                                         const kapi::LocalAccessor<T, 1>& tree) const {
    kapi::for_each_work_item(wg,
                             [&](const kapi::NdItem<1>& it) { tree[it.get_local_id(0)] = in(it.get_global_id(0)); });
    for (std::size_t active = wg.get_local_range(0); active > 1; active = (active + 1) / 2) {
      const std::size_t half = (active + 1) / 2;
      kapi::for_each_work_item(wg, [&](const kapi::NdItem<1>& it) {
        const std::size_t l = it.get_local_id(0);
        if (l + half < active) tree[l] += tree[l + half];
      });
    }
    const std::size_t group = wg.get_group_linear_id();
    kapi::single_work_item(wg, [&] { out(group, 0) = tree[0]; });
    const T sum = kapi::reduce_over_work_items(
        wg, [&](const kapi::NdItem<1>& it) { return in(it.get_global_id(0)); }, kapi::plus<>());
    kapi::single_work_item(wg, [&] { out(group, 1) = sum; });
  }
};

template <class Space, class T>
void check_tree(std::size_t size) {
  const std::size_t groups = 6, n = groups * size;
  std::mt19937 gen(7);
  std::uniform_real_distribution<double> dist(-1, 1);
  std::vector<T> in(n);
  for (auto& x : in) x = std::is_integral_v<T> ? T(dist(gen) * 1000) : T(dist(gen));
  auto din = kapi_test::make_view<T, Space>("in", n, [&](std::size_t i) { return in[i]; });
  Mat<T, Space> flat("flat", groups, 2), phased("phased", groups, 2);
  kapi::call_kernel(Space(), TreeFlat{}, kapi::NdRange<1>({n}, {size}), din, flat, kapi::LocalAccessor<T, 1>(size));
  kapi::call_kernel(Space(), TreePhased{}, kapi::NdRange<1>({n}, {size}), din, phased, kapi::LocalAccessor<T, 1>(size));
  auto hf = kapi_test::to_host(flat), hp = kapi_test::to_host(phased);
  for (std::size_t g = 0; g < groups; ++g) {
    double ref = 0, mag = 0;
    for (std::size_t l = 0; l < size; ++l) ref += in[g * size + l], mag += std::abs(double(in[g * size + l]));
    ASSERT_EQ(hp(g, 0), hf(g, 0)) << "tree, group " << g << ", size " << size << ", " << kapi_test::type_name<T>();
    ASSERT_EQ(hp(g, 1), hf(g, 1)) << "reduce over work-items vs over group, group " << g << ", size " << size;
    ASSERT_NEAR(double(hp(g, 0)), ref, (size + 1) * std::numeric_limits<T>::epsilon() * mag);
    ASSERT_NEAR(double(hp(g, 1)), ref, (size + 1) * std::numeric_limits<T>::epsilon() * mag);
  }
}

TYPED_TEST(Phased, TreeReductionFlatAndPhasedIdentical) {
  for (std::size_t size : kapi_test::group_sizes<TypeParam>()) {
    check_tree<TypeParam, float>(size);
    check_tree<TypeParam, double>(size);
    check_tree<TypeParam, std::int64_t>(size);
  }
}

// Values wider than a device's shared words (8 bytes) cross the group in rounds; values
// wider than all of them (256 bytes) one warp's total at a time. Integers in doubles:
// exact sums in any order.
template <int K>
struct Wide {
  double v[K];
};
struct AddWide {
  template <int K>
  KOKKOS_INLINE_FUNCTION Wide<K> operator()(const Wide<K>& a, const Wide<K>& b) const {
    Wide<K> r;
    for (int j = 0; j < K; ++j) r.v[j] = a.v[j] + b.v[j];
    return r;
  }
};

template <int K>
struct WideSums {
  template <class In, class Out>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::WorkGroup<1>& wg, const In& in, const Out& out) const {
    const Wide<K> sum = kapi::reduce_over_work_items(
        wg,
        [&](const kapi::NdItem<1>& it) {
          Wide<K> w;
          for (int j = 0; j < K; ++j) w.v[j] = in(it.get_global_id(0)) * (j + 1);
          return w;
        },
        AddWide{});
    const Kokkos::complex<double> z = kapi::reduce_over_work_items(
        wg, [&](const kapi::NdItem<1>& it) { return Kokkos::complex<double>(in(it.get_global_id(0)), -1.0); },
        kapi::plus<>());
    kapi::for_each_work_item(wg, [&](const kapi::NdItem<1>& it) {  // every work-item's copy
      const std::size_t i = it.get_global_id(0);
      out(i, 0) = sum.v[0];
      out(i, 1) = sum.v[K - 1];
      out(i, 2) = z.real();
      out(i, 3) = z.imag();
    });
  }
};

template <class Space, int K>
void check_wide_sums(std::size_t size) {
  const std::size_t groups = 5, n = groups * size;
  auto in = kapi_test::make_view<double, Space>("in", n, [](std::size_t i) { return double(i % 97) - 40; });
  Mat<double, Space> out("out", n, 4);
  kapi::call_kernel(Space(), WideSums<K>{}, kapi::NdRange<1>({n}, {size}), in, out);
  auto h = kapi_test::to_host(out);
  for (std::size_t g = 0; g < groups; ++g) {
    double ref = 0;
    for (std::size_t l = 0; l < size; ++l) ref += double((g * size + l) % 97) - 40;
    for (std::size_t l = 0; l < size; ++l) {
      const std::size_t i = g * size + l;
      ASSERT_EQ(h(i, 0), ref) << K * 8 << "-byte values, group " << g << " of " << size << ", work-item " << l;
      ASSERT_EQ(h(i, 1), ref * K) << K * 8 << "-byte values, group " << g << " of " << size << ", work-item " << l;
      ASSERT_EQ(h(i, 2), ref) << "complex, group " << g << " of " << size << ", work-item " << l;
      ASSERT_EQ(h(i, 3), -double(size)) << "complex, group " << g << " of " << size << ", work-item " << l;
    }
  }
}

TYPED_TEST(Phased, ReductionsOfWideValues) {
  for (std::size_t size : kapi_test::group_sizes<TypeParam>()) {
    check_wide_sums<TypeParam, 2>(size);  // 16 bytes: 16 warps' totals a round
    check_wide_sums<TypeParam, 5>(size);  // 40 bytes: 6 a round
    // 320 bytes: wider than the shared words. A work-item holds 80 registers of them:
    // a CUDA block of this kernel takes at most 256 (launch_error beyond).
    if (size <= 256) check_wide_sums<TypeParam, 40>(size);
  }
}

// ----------------------------------------------------- scans over work-items

template <class T, class Op>
struct PhasedScans {
  template <class In, class Out>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::WorkGroup<1>& wg, const In& in, const Out& out) const {
    const Op op;
    const T init = T(5);
    kapi::PerWorkItem<T> a(wg), b(wg), c(wg), d(wg);
    kapi::for_each_work_item(
        wg, [&](const kapi::NdItem<1>& it) { a(it) = b(it) = c(it) = d(it) = in(it.get_global_id(0)); });
    const T ta = kapi::inclusive_scan_over_work_items(wg, a, op);
    const T tb = kapi::inclusive_scan_over_work_items(wg, b, op, init);
    const T tc = kapi::exclusive_scan_over_work_items(wg, c, op);
    const T td = kapi::exclusive_scan_over_work_items(wg, d, init, op);
    kapi::for_each_work_item(wg, [&](const kapi::NdItem<1>& it) {
      const std::size_t g = it.get_global_id(0);
      out(g, 0) = a(it), out(g, 1) = b(it), out(g, 2) = c(it), out(g, 3) = d(it);
      out(g, 4) = ta, out(g, 5) = tb, out(g, 6) = tc, out(g, 7) = td;
    });
  }
};

template <class Space, class T, class Op, class RefOp>
void check_phased_scans(std::size_t size, const RefOp& ref_op, T identity) {
  const std::size_t groups = 4, n = groups * size;
  auto in = kapi_test::make_view<T, Space>("in", n, [](std::size_t i) { return T((i * 2654435761u) % 1000) - T(400); });
  Mat<T, Space> out("out", n, 8);
  kapi::call_kernel(Space(), PhasedScans<T, Op>{}, kapi::NdRange<1>({n}, {size}), in, out);
  auto hi = kapi_test::to_host(in);
  auto h = kapi_test::to_host(out);
  for (std::size_t g = 0; g < groups; ++g) {
    T incl = identity, incl_init = T(5);
    for (std::size_t l = 0; l < size; ++l) {
      const std::size_t i = g * size + l;
      ASSERT_EQ(h(i, 2), incl) << "exclusive, size " << size << ", item " << l;
      ASSERT_EQ(h(i, 3), incl_init) << "exclusive+init, size " << size << ", item " << l;
      incl = ref_op(incl, hi(i)), incl_init = ref_op(incl_init, hi(i));
      ASSERT_EQ(h(i, 0), incl) << "inclusive, size " << size << ", item " << l;
      ASSERT_EQ(h(i, 1), incl_init) << "inclusive+init, size " << size << ", item " << l;
    }
    for (std::size_t l = 0; l < size; ++l) {
      const std::size_t i = g * size + l;
      ASSERT_EQ(h(i, 4), incl) << "total";
      ASSERT_EQ(h(i, 5), incl_init) << "total with init";
      ASSERT_EQ(h(i, 6), incl) << "total of an exclusive scan";
      ASSERT_EQ(h(i, 7), incl_init) << "total of an exclusive scan with init";
    }
  }
}

TYPED_TEST(Phased, ScansOverWorkItems) {
  for (std::size_t size : kapi_test::group_sizes<TypeParam>()) {
    check_phased_scans<TypeParam, std::int64_t, kapi::plus<>>(
        size, [](auto a, auto b) { return a + b; }, 0);
    check_phased_scans<TypeParam, int, kapi::maximum<>>(
        size, [](int a, int b) { return std::max(a, b); }, std::numeric_limits<int>::lowest());
    check_phased_scans<TypeParam, double, kapi::minimum<>>(
        size, [](double a, double b) { return std::min(a, b); }, std::numeric_limits<double>::infinity());
  }
}

// ---------------------------------------------------------------- launch checks

struct PhasedNothing2d {
  template <class Out>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::WorkGroup<2>& wg, const Out& out) const {
    kapi::for_each_work_item(wg, [&](const kapi::NdItem<2>&) { Kokkos::atomic_add(&out(), 1); });
  }
};
struct PhasedNothing1d {
  template <class Out>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::WorkGroup<1>& wg, const Out& out) const {
    kapi::for_each_work_item(wg, [&](const kapi::NdItem<1>&) { Kokkos::atomic_add(&out(), 1); });
  }
};

template <class Space, class Kernel, class R>
std::string phased_launch_message(const R& range, int& ran) {
  Kokkos::View<int, typename Space::memory_space> count("count");
  std::string message;
  try {
    kapi::call_kernel(Space(), Kernel{}, range, count);
  } catch (const kapi::launch_error& e) {
    message = e.what();
  }
  Kokkos::deep_copy(ran, count);
  return message;
}

TYPED_TEST(Phased, LaunchesAreValidated) {
  int ran = -1;
  EXPECT_THAT((phased_launch_message<TypeParam, PhasedNothing2d>(kapi::NdRange<1>({8}, {4}), ran)),
              HasSubstr("rank mismatch: the kernel takes WorkGroup<2> but is launched with NdRange<1>"));
  EXPECT_EQ(ran, 0);
  EXPECT_THAT((phased_launch_message<TypeParam, PhasedNothing1d>(kapi::Range<1>(8), ran)),
              HasSubstr("the kernel takes WorkGroup<1> but is launched with Range<1>: launch a phased kernel with an "
                        "NdRange"));
  EXPECT_EQ(ran, 0);
  EXPECT_THAT((phased_launch_message<TypeParam, PhasedNothing1d>(kapi::NdRange<1>({10}, {4}), ran)),
              HasSubstr("is not divisible by local range {4}"));
  const std::size_t too_big = kapi::max_work_group_size<TypeParam>() * 2;
  EXPECT_THAT((phased_launch_message<TypeParam, PhasedNothing1d>(kapi::NdRange<1>({too_big}, {too_big}), ran)),
              HasSubstr("is larger than"));
  EXPECT_EQ(ran, 0);
  EXPECT_EQ((phased_launch_message<TypeParam, PhasedNothing2d>(kapi::NdRange<2>({8, 6}, {4, 3}), ran)), "");
  EXPECT_EQ(ran, 48);
}

// A kernel that could take either an NdItem or a WorkGroup stays flat.
struct Generic {
  template <class It, class Out>
  KOKKOS_INLINE_FUNCTION void operator()(const It& it, const Out& out) const {
    out(it.get_global_id(0)) = int(it.get_local_id(0)) + 1;
  }
};

TYPED_TEST(Phased, GenericKernelsStayFlat) {
  Vec<int, TypeParam> out("out", 64);
  kapi::call_kernel(TypeParam(), Generic{}, kapi::NdRange<1>({64}, {16}), out);
  auto h = kapi_test::to_host(out);
  for (std::size_t i = 0; i < 64; ++i) ASSERT_EQ(h(i), int(i % 16) + 1);
}

struct BarrierInPhase {
  template <class Out>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::WorkGroup<1>& wg, const Out& out) const {
    kapi::for_each_work_item(wg, [&](const kapi::NdItem<1>& it) {
      kapi::group_barrier(it.get_group());
      out(it.get_global_id(0)) = 1;
    });
  }
};

TYPED_TEST(Phased, BarrierInsideAPhaseIsReportedOnHost) {
  if constexpr (!kapi::is_host_execution_space_v<TypeParam>) {
    GTEST_SKIP() << "on a device a barrier inside a phase is undefined behaviour";
  } else {
    Vec<int, TypeParam> out("out", 32);
    try {
      kapi::call_kernel(TypeParam(), BarrierInPhase{}, kapi::NdRange<1>({32}, {8}), out);
      FAIL() << "no launch_error";
    } catch (const kapi::launch_error& e) {
      EXPECT_THAT(e.what(), HasSubstr("group_barrier or a flat group algorithm was called in a phased kernel"));
    }
  }
}

}  // namespace
