// SPDX-License-Identifier: Apache-2.0
// Group algorithms: every operator on every value type, for work-groups of 1, 7, 32, 64,
// 256 and 1024 work-items (as far as the space allows), against independent host
// references (plain loops, std::numeric_limits identities).
#include <kapi/barrier.hpp>
#include <kapi/errors.hpp>
#include <kapi/execution_space.hpp>
#include <kapi/functional.hpp>
#include <kapi/group.hpp>
#include <kapi/group_algorithms.hpp>
#include <kapi/item.hpp>
#include <kapi/launch.hpp>
#include <kapi/local_accessor.hpp>
#include <kapi/phased.hpp>
#include <kapi/range.hpp>
#include <kapi/sub_group_algorithms.hpp>

#include <gmock/gmock.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <initializer_list>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "execution_spaces.hpp"
#include "operator_cases.hpp"
#include "value_types.hpp"

namespace {

template <class T, class Space>
using Vec = Kokkos::View<T*, typename Space::memory_space>;
template <class T, class Space>
using Mat = Kokkos::View<T**, Kokkos::LayoutRight, typename Space::memory_space>;

// ------------------------------------------------------------- the reference operators

using kapi_test::op_init;
using kapi_test::op_input;
using kapi_test::op_name;
using kapi_test::OpKind;
using kapi_test::ref_apply;
using kapi_test::ref_identity;

// Inputs for work-group algorithms (groups of up to 1024 work-items).
template <class T>
T input(OpKind k, std::size_t i) {
  return op_input<T>(k, i, kapi_test::rare_in_work_groups);
}

// What every work-item computes, one row of `out` per algorithm.
enum Row { reduce, inclusive, exclusive, inclusive_init, exclusive_init, reduce_init, rows };

// One kernel per value type (and list of operators): the operator is a run-time value,
// and each branch calls the collectives with kapi's functor type, which selects their
// code path and identity. Kernels that differ only by the operator would each
// instantiate the whole launch machinery.
template <class T, class Space, OpKind... K>
struct GroupOps {
  Vec<T, Space> in;
  Mat<T, Space> out;
  T init;
  OpKind op_kind;
  template <int N>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<N>& it) const {
    const auto g = it.get_group();
    // The group's work-items in local-linear order hold consecutive inputs.
    const std::size_t i = g.get_group_linear_id() * g.get_local_linear_range() + it.get_local_linear_id();
    const T x = in(i);
    kapi_test::with_kapi_op<K...>(op_kind, [&](auto op) { run(g, i, x, op); });
  }
  template <class G, class Op>
  KOKKOS_INLINE_FUNCTION void run(const G& g, std::size_t i, const T x, const Op op) const {
    out(reduce, i) = kapi::reduce_over_group(g, x, op);
    out(inclusive, i) = kapi::inclusive_scan_over_group(g, x, op);
    out(exclusive, i) = kapi::exclusive_scan_over_group(g, x, op);
    out(inclusive_init, i) = kapi::inclusive_scan_over_group(g, x, op, init);
    out(exclusive_init, i) = kapi::exclusive_scan_over_group(g, x, init, op);
    out(reduce_init, i) = kapi::reduce_over_group(g, x, init, op);
  }
};

// The operators each value type is tested with: all for integers, no bitwise ones for
// floating point.
template <class T, class Space>
using EveryOp = std::conditional_t<
    std::is_integral_v<T>,
    GroupOps<T, Space, OpKind::plus, OpKind::multiplies, OpKind::minimum, OpKind::maximum, OpKind::bit_and,
             OpKind::bit_or, OpKind::bit_xor, OpKind::logical_and, OpKind::logical_or>,
    GroupOps<T, Space, OpKind::plus, OpKind::multiplies, OpKind::minimum, OpKind::maximum, OpKind::logical_and,
             OpKind::logical_or>>;

template <class T>
void reference(OpKind k, const std::vector<T>& in, std::size_t size, T init, std::vector<std::vector<T>>& ref) {
  const std::size_t n = in.size();
  ref.assign(rows, std::vector<T>(n));
  for (std::size_t g0 = 0; g0 < n; g0 += size) {
    T total = in[g0];
    for (std::size_t l = 1; l < size; ++l) total = ref_apply(k, total, in[g0 + l]);
    T running = ref_identity<T>(k), running_init = init;
    for (std::size_t l = 0; l < size; ++l) {
      const std::size_t i = g0 + l;
      ref[reduce][i] = total;
      ref[reduce_init][i] = ref_apply(k, init, total);
      ref[exclusive][i] = running;
      ref[exclusive_init][i] = running_init;
      running = ref_apply(k, running, in[i]);
      running_init = ref_apply(k, running_init, in[i]);
      ref[inclusive][i] = running;
      ref[inclusive_init][i] = running_init;
    }
  }
}

// The kernel's results against the reference. Only the launch depends on the operator's
// type: everything else is compiled once per value type.
template <class T, class View>
void expect_group_ops(OpKind k, const std::vector<T>& in, std::size_t size, T init, const View& out) {
  const std::size_t n = in.size();
  std::vector<std::vector<T>> ref;
  reference(k, in, size, init, ref);
  auto h = kapi_test::to_host(out);
  static const char* row_names[] = {"reduce",         "inclusive",      "exclusive",
                                    "inclusive+init", "exclusive+init", "reduce+init"};
  for (int r = 0; r < rows; ++r)
    for (std::size_t i = 0; i < n; ++i)
      ASSERT_EQ(h(r, i), ref[r][i]) << row_names[r] << " with " << op_name(k) << " on " << kapi_test::type_name<T>()
                                    << ", group size " << size << ", work-item " << i % size << " of group "
                                    << i / size;
}

template <class T>
std::vector<T> inputs(OpKind k, std::size_t n) {
  std::vector<T> in(n);
  for (std::size_t i = 0; i < n; ++i) in[i] = input<T>(k, i);
  return in;
}

// Instantiated per kernel (value type and list of operators), not per operator.
template <class Space, class T, class Kernel, int N>
void check_group_ops(OpKind k, const kapi::NdRange<N>& range) {
  const std::size_t n = range.global.size();
  const std::vector<T> in = inputs<T>(k, n);
  const T init = op_init<T>(k);
  auto din = kapi_test::make_view<T, Space>("in", in);
  Mat<T, Space> out("out", rows, n);
  kapi::call_kernel(Space(), Kernel{din, out, init, k}, range);
  expect_group_ops(k, in, range.local.size(), init, out);
}

template <class Space, class T>
void check_ops_1d(std::initializer_list<OpKind> kinds) {
  for (std::size_t size : kapi_test::group_sizes<Space>()) {
    const std::size_t groups = size >= 256 ? 2 : 5;
    for (OpKind k : kinds)
      check_group_ops<Space, T, EveryOp<T, Space>, 1>(k, kapi::NdRange<1>({groups * size}, {size}));
  }
}

template <class Space>
struct GroupAlgorithms : ::testing::Test {};
KAPI_TYPED_TEST_SUITE(GroupAlgorithms);

TYPED_TEST(GroupAlgorithms, EveryOperatorOnIntegers) {
  kapi_test::for_each_type<std::int32_t, std::int64_t, std::uint32_t, std::uint64_t>([](auto t) {
    using T = typename decltype(t)::type;
    check_ops_1d<TypeParam, T>({OpKind::plus, OpKind::multiplies, OpKind::minimum, OpKind::maximum, OpKind::bit_and,
                                OpKind::bit_or, OpKind::bit_xor, OpKind::logical_and, OpKind::logical_or});
  });
}

TYPED_TEST(GroupAlgorithms, EveryOperatorOnFloatingPoint) {
  kapi_test::for_each_type<float, double>([](auto t) {
    using T = typename decltype(t)::type;
    check_ops_1d<TypeParam, T>(
        {OpKind::plus, OpKind::multiplies, OpKind::minimum, OpKind::maximum, OpKind::logical_and, OpKind::logical_or});
  });
}

// Local linear order (last dimension fastest) in 2-d and 3-d groups.
TYPED_TEST(GroupAlgorithms, MultiDimensionalGroups) {
  using S = TypeParam;
  check_group_ops<S, std::int64_t, GroupOps<std::int64_t, S, OpKind::plus>>(OpKind::plus,
                                                                            kapi::NdRange<2>({8, 32}, {4, 16}));
  check_group_ops<S, double, GroupOps<double, S, OpKind::maximum>>(OpKind::maximum, kapi::NdRange<2>({14, 9}, {7, 3}));
  check_group_ops<S, std::uint32_t, GroupOps<std::uint32_t, S, OpKind::bit_xor>>(
      OpKind::bit_xor, kapi::NdRange<3>({4, 6, 10}, {2, 3, 5}));
}

// Fractional values: within n·ε·Σ|x| of a double-precision reference; on host backends
// exactly the sequential left fold, and bitwise reproducible everywhere.
template <class Space, class T>
void check_floating_point_tolerance(std::size_t size) {
  const std::size_t groups = 3, n = groups * size;
  std::mt19937 gen(42);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  std::vector<T> in(n);
  for (auto& x : in) x = T(dist(gen));
  auto din = kapi_test::make_view<T, Space>("in", n, [&](std::size_t i) { return in[i]; });
  Mat<T, Space> out("out", rows, n), again("again", rows, n);
  // The kernel of the every-operator test, with plus.
  kapi::call_kernel(Space(), EveryOp<T, Space>{din, out, T(0.5), OpKind::plus}, kapi::NdRange<1>({n}, {size}));
  kapi::call_kernel(Space(), EveryOp<T, Space>{din, again, T(0.5), OpKind::plus}, kapi::NdRange<1>({n}, {size}));
  auto h = kapi_test::to_host(out), h2 = kapi_test::to_host(again);
  const double eps = std::numeric_limits<T>::epsilon();
  for (std::size_t g0 = 0; g0 < n; g0 += size) {
    double total = 0, abs_total = 0, running = 0;
    T sequential = 0;
    for (std::size_t l = 0; l < size; ++l) total += in[g0 + l], abs_total += std::abs(double(in[g0 + l]));
    const double bound = double(size + 1) * eps * (abs_total + 0.5);
    for (std::size_t l = 0; l < size; ++l) {
      const std::size_t i = g0 + l;
      EXPECT_NEAR(double(h(reduce, i)), total, bound) << "size " << size;
      EXPECT_NEAR(double(h(exclusive, i)), running, bound) << "size " << size << ", item " << l;
      EXPECT_NEAR(double(h(exclusive_init, i)), 0.5 + running, bound);
      running += double(in[i]);
      sequential = l == 0 ? in[i] : T(sequential + in[i]);
      EXPECT_NEAR(double(h(inclusive, i)), running, bound) << "size " << size << ", item " << l;
      EXPECT_NEAR(double(h(inclusive_init, i)), 0.5 + running, bound);
      if (kapi_test::is_host_space<Space>) {
        EXPECT_EQ(h(inclusive, i), sequential) << "host: the sequential fold";
      }
    }
  }
  for (int r = 0; r < rows; ++r)
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(h(r, i), h2(r, i)) << "not reproducible: row " << r << ", " << i;
}

TYPED_TEST(GroupAlgorithms, FloatingPointWithinToleranceAndReproducible) {
  for (std::size_t size : kapi_test::group_sizes<TypeParam>()) {
    check_floating_point_tolerance<TypeParam, float>(size);
    check_floating_point_tolerance<TypeParam, double>(size);
  }
}

// ----------------------------------------------------- the host's combining order

// On host backends reductions combine in a documented order (docs: "Results"): eight
// contiguous blocks of local ids, each summed left to right (the last block also takes
// the n mod 8 ids after them), then the blocks' sums left to right; groups under 16 items
// fold left to right. Written out here from that description.
float documented_host_order(const std::vector<float>& v, std::size_t first, std::size_t n) {
  float sum = v[first];
  if (n < 16) {
    for (std::size_t i = 1; i < n; ++i) sum += v[first + i];
    return sum;
  }
  const std::size_t m = n / 8;
  for (int b = 0; b < 8; ++b) {
    const std::size_t begin = b * m, end = b == 7 ? n : begin + m;
    float block = v[first + begin];
    for (std::size_t i = begin + 1; i < end; ++i) block += v[first + i];
    sum = b == 0 ? block : sum + block;
  }
  return sum;
}

// Associative, not commutative: regrouping keeps the last value, reordering would not.
struct KeepLast {
  template <class T>
  KOKKOS_INLINE_FUNCTION T operator()(const T&, const T& b) const {
    return b;
  }
};

template <class Space>
struct FoldOrderFlat {
  Vec<float, Space> in;
  Mat<float, Space> sums;
  Mat<std::int64_t, Space> lasts;
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it) const {
    const auto g = it.get_group();
    const float s = kapi::reduce_over_group(g, in(it.get_global_id(0)), kapi::plus<>());
    const std::int64_t last = kapi::reduce_over_group(g, std::int64_t(it.get_local_id(0)), KeepLast{});
    if (it.get_local_id(0) == 0) sums(g.get_group_linear_id(), 0) = s, lasts(g.get_group_linear_id(), 0) = last;
  }
};

template <class Space>
struct FoldOrderPhased {
  Vec<float, Space> in;
  Mat<float, Space> sums;
  Mat<std::int64_t, Space> lasts;
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::WorkGroup<1>& wg) const {
    const float s = kapi::reduce_over_work_items(
        wg, [&](const kapi::NdItem<1>& it) { return in(it.get_global_id(0)); }, kapi::plus<>());
    const std::int64_t last = kapi::reduce_over_work_items(
        wg, [&](const kapi::NdItem<1>& it) { return std::int64_t(it.get_local_id(0)); }, KeepLast{});
    const std::size_t g = wg.get_group_linear_id();
    kapi::single_work_item(wg, [&] { sums(g, 1) = s, lasts(g, 1) = last; });
  }
};

TYPED_TEST(GroupAlgorithms, HostReductionsCombineInTheDocumentedOrder) {
  using S = TypeParam;
  if constexpr (!kapi_test::is_host_space<S>) {
    GTEST_SKIP() << "device backends combine as a tree";
  } else {
    for (std::size_t size : {7, 16, 17, 100, 257, 1023, 1024}) {
      const std::size_t groups = 3, n = groups * size;
      // Magnitudes from 1 to 10^7 mixed, so that each grouping rounds differently.
      std::mt19937 gen{static_cast<unsigned>(size)};
      std::uniform_real_distribution<double> dist(-1.0, 1.0);
      std::vector<float> in(n);
      for (auto& x : in) x = float(dist(gen) * std::pow(10.0, double(gen() % 8)));
      auto din = kapi_test::make_view<float, S>("in", n, [&](std::size_t i) { return in[i]; });
      Mat<float, S> sums("sums", groups, 2);
      Mat<std::int64_t, S> lasts("lasts", groups, 2);
      kapi::call_kernel(S(), FoldOrderFlat<S>{din, sums, lasts}, kapi::NdRange<1>({n}, {size}));
      kapi::call_kernel(S(), FoldOrderPhased<S>{din, sums, lasts}, kapi::NdRange<1>({n}, {size}));
      const auto hs = kapi_test::to_host(sums);
      const auto hl = kapi_test::to_host(lasts);
      bool differs_from_left_fold = false;
      for (std::size_t g = 0; g < groups; ++g) {
        const float expect = documented_host_order(in, g * size, size);
        float left = in[g * size];
        for (std::size_t l = 1; l < size; ++l) left += in[g * size + l];
        differs_from_left_fold |= left != expect;
        EXPECT_EQ(hs(g, 0), expect) << "reduce_over_group, group " << g << " of size " << size;
        EXPECT_EQ(hs(g, 1), expect) << "reduce_over_work_items, group " << g << " of size " << size;
        EXPECT_EQ(hl(g, 0), std::int64_t(size - 1)) << "reduce_over_group reordered, size " << size;
        EXPECT_EQ(hl(g, 1), std::int64_t(size - 1)) << "reduce_over_work_items reordered, size " << size;
      }
      if (size >= 100) {
        EXPECT_TRUE(differs_from_left_fold) << "the inputs do not tell the orders apart, size " << size;
      }
    }
  }
}

// ------------------------------------------------------------------------ broadcast

template <class T, class Space>
struct Broadcast {
  Vec<T, Space> in;
  Mat<T, Space> out;
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it) const {
    const auto g = it.get_group();
    const std::size_t i = it.get_global_id(0), size = g.get_local_linear_range();
    out(0, i) = kapi::group_broadcast(g, in(i));
    out(1, i) = kapi::group_broadcast(g, in(i), size - 1);
    out(2, i) = kapi::group_broadcast(g, in(i), size / 2);
  }
};

template <class Space, class T>
void check_broadcast(std::size_t size) {
  const std::size_t n = 4 * size;
  auto in = kapi_test::make_view<T, Space>("in", n, [](std::size_t i) { return input<T>(OpKind::maximum, i); });
  Mat<T, Space> out("out", 3, n);
  kapi::call_kernel(Space(), Broadcast<T, Space>{in, out}, kapi::NdRange<1>({n}, {size}));
  auto h = kapi_test::to_host(out);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t g0 = i - i % size;
    ASSERT_EQ(h(0, i), input<T>(OpKind::maximum, g0)) << "from 0, size " << size;
    ASSERT_EQ(h(1, i), input<T>(OpKind::maximum, g0 + size - 1)) << "from the last, size " << size;
    ASSERT_EQ(h(2, i), input<T>(OpKind::maximum, g0 + size / 2)) << "from the middle, size " << size;
  }
}

TYPED_TEST(GroupAlgorithms, Broadcast) {
  kapi_test::for_each_value_type([](auto t) {
    for (std::size_t size : kapi_test::group_sizes<TypeParam>())
      check_broadcast<TypeParam, typename decltype(t)::type>(size);
  });
}

// An id outside the group reads nothing past it: every work-item gets its own value
// back; host backends report the id and the group size as launch_error after the launch
// (devices abort in debug builds, so there the test runs only without them).
template <class Space>
struct BroadcastOutside {
  Vec<int, Space> out;
  std::size_t from;
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it) const {
    const std::size_t i = it.get_global_id(0);
    out(i) = kapi::group_broadcast(it.get_group(), int(i), from);
    out(i) += kapi::group_broadcast(it.get_group(), int(i));  // the group carries on: a later collective works
  }
};

template <class Space>
void check_broadcast_outside() {
  constexpr bool host = kapi::is_host_execution_space_v<Space>;
  for (std::size_t size : {std::size_t(1), std::size_t(4), std::size_t(7)}) {
    for (std::size_t from : {size, size + 3, ~std::size_t(0)}) {
      const std::size_t n = 3 * size;
      Vec<int, Space> out("out", n);
      std::string message;
      try {
        kapi::call_kernel(Space(), BroadcastOutside<Space>{out, from}, kapi::NdRange<1>({n}, {size}));
      } catch (const kapi::launch_error& e) {
        message = e.what();
      }
      const std::string what = "from " + std::to_string(from) + ", size " + std::to_string(size);
      if (host) {
        EXPECT_NE(message.find("group_broadcast: source local id " + std::to_string(from) + " is outside work-group "),
                  std::string::npos)
            << what << ": " << (message.empty() ? "no launch_error" : message);
        EXPECT_NE(message.find(" of " + std::to_string(size) + " work-items"), std::string::npos)
            << what << ": " << message;
      } else {
        EXPECT_EQ(message, "") << what;
      }
      auto h = kapi_test::to_host(out);
      for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(h(i), int(i + i - i % size)) << what << ", work-item " << i;
    }
  }
}

TYPED_TEST(GroupAlgorithms, BroadcastFromOutsideTheGroup) {
#if defined(KOKKOS_ENABLE_DEBUG) || defined(KAPI_DEBUG)
  if (!kapi::is_host_execution_space_v<TypeParam>) GTEST_SKIP() << "a device build with debug checks aborts the kernel";
#endif
  check_broadcast_outside<TypeParam>();
}

// ------------------------------------------------------------------- any, all, none

// Pattern p for local id l of a group of `size`: 0 none, 1 only the last, 2 all, 3 all but the first.
KOKKOS_INLINE_FUNCTION bool pattern(int p, std::size_t l, std::size_t size) {
  return p == 0 ? false : p == 1 ? l == size - 1 : p == 2 ? true : l != 0;
}

struct IsPositive {
  KOKKOS_INLINE_FUNCTION bool operator()(int x) const { return x > 0; }
};

template <class Space>
struct Predicates {
  Mat<int, Space> out;
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it) const {
    const auto g = it.get_group();
    const std::size_t i = it.get_global_id(0), l = it.get_local_id(0), size = g.get_local_linear_range();
    const int p = int(g.get_group_linear_id() % 4);
    const bool b = pattern(p, l, size);
    out(0, i) = kapi::any_of_group(g, b);
    out(1, i) = kapi::all_of_group(g, b);
    out(2, i) = kapi::none_of_group(g, b);
    const int x = b ? 1 : -1;
    out(3, i) = kapi::any_of_group(g, x, IsPositive());
    out(4, i) = kapi::all_of_group(g, x, IsPositive());
    out(5, i) = kapi::none_of_group(g, x, IsPositive());
  }
};

TYPED_TEST(GroupAlgorithms, AnyAllNone) {
  for (std::size_t size : kapi_test::group_sizes<TypeParam>()) {
    const std::size_t n = 8 * size;
    Mat<int, TypeParam> out("out", 6, n);
    kapi::call_kernel(TypeParam(), Predicates<TypeParam>{out}, kapi::NdRange<1>({n}, {size}));
    auto h = kapi_test::to_host(out);
    for (std::size_t i = 0; i < n; ++i) {
      const int p = int((i / size) % 4);
      bool any = false, all = true;
      for (std::size_t l = 0; l < size; ++l) any |= pattern(p, l, size), all &= pattern(p, l, size);
      for (int form = 0; form < 2; ++form) {
        ASSERT_EQ(h(3 * form + 0, i), int(any)) << "any, pattern " << p << ", size " << size;
        ASSERT_EQ(h(3 * form + 1, i), int(all)) << "all, pattern " << p << ", size " << size;
        ASSERT_EQ(h(3 * form + 2, i), int(!any)) << "none, pattern " << p << ", size " << size;
      }
    }
  }
}

// ------------------------------------------------------------- joint (over memory)

// Runs the launches; on a device, a group size the compiled kernel cannot take (its
// register use caps it below the hardware's 1024) is reported and skipped, not failed.
template <class Space, class F>
bool launch_fits(const F& launches) {
  try {
    launches();
    return true;
  } catch (const kapi::launch_error& e) {
    if (kapi::is_host_execution_space_v<Space>) throw;
    if (std::string(e.what()).find("register") == std::string::npos) throw;
    std::printf("[ NOTE     ] %s: skipped\n", e.what());
    return false;
  }
}

// Each group works on its own segment of `data` (global) or a copy of it in local memory.
// Part 0: reductions and predicates; 1: inclusive scans; 2: exclusive scans; 3: all.
// Devices run three kernels, each small enough in registers for 1024-work-item groups;
// host backends one kernel that does all. One kernel per value type: the operator is a
// run-time value among K..., each branch calling the algorithms with kapi's functor.
template <class T, class Space, int Part, OpKind... K>
struct JointOps {
  Vec<T, Space> data;
  Mat<T, Space> scans;    // rows: inclusive, inclusive+init, exclusive, exclusive+init
  Mat<T, Space> reduces;  // per group: reduce, reduce+init, any>0, all>0, none>0
  std::size_t len;
  T init;
  bool local_memory;
  OpKind op_kind;

  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it, const kapi::LocalAccessor<T, 1>& tile) const {
    const auto g = it.get_group();
    const std::size_t group = g.get_group_linear_id(), l = it.get_local_id(0), size = g.get_local_linear_range();
    const T* first = data.data() + group * len;
    if (local_memory) {
      for (std::size_t k = l; k < len; k += size) tile[k] = first[k];
      kapi::group_barrier(g);
      first = tile.get_pointer();
    }
    kapi_test::with_kapi_op<K...>(op_kind, [&](auto op) { run(g, first, tile, op); });
  }

  template <class Op>
  KOKKOS_INLINE_FUNCTION void run(const kapi::Group<1>& g, const T* first, const kapi::LocalAccessor<T, 1>& tile,
                                  const Op op) const {
    const std::size_t group = g.get_group_linear_id(), l = g.impl_local_linear_id();
    const T* last = first + len;
    if constexpr (Part == 0 || Part == 3) {
      const T total = kapi::joint_reduce(g, first, last, op);
      const T total_init = kapi::joint_reduce(g, first, last, init, op);
      const bool any = kapi::joint_any_of(g, first, last, IsPositiveT());
      const bool all = kapi::joint_all_of(g, first, last, IsPositiveT());
      const bool none = kapi::joint_none_of(g, first, last, IsPositiveT());
      if (l == 0) {
        reduces(group, 0) = total;
        reduces(group, 1) = total_init;
        reduces(group, 2) = T(any);
        reduces(group, 3) = T(all);
        reduces(group, 4) = T(none);
      }
    }
    if constexpr (Part == 1 || Part == 3) scan<true>(g, first, last, tile, op);
    if constexpr (Part == 2 || Part == 3) scan<false>(g, first, last, tile, op);
  }

  template <bool Inclusive, class Op>
  KOKKOS_INLINE_FUNCTION void scan(const kapi::Group<1>& g, const T* first, const T* last,
                                   const kapi::LocalAccessor<T, 1>& tile, const Op op) const {
    const std::size_t group = g.get_group_linear_id(), size = g.get_local_linear_range();
    const std::size_t l = g.impl_local_linear_id();
    {
      constexpr int row = Inclusive ? 0 : 2;  // rows row (plain) and row + 1 (with init)
      T* out = &scans(row, 0) + group * len;  // scans has at least one column
      T* out_init = &scans(row + 1, 0) + group * len;
      if (local_memory) {
        // In place in local memory, then copied out.
        T* work = tile.get_pointer();
        const auto stage = [&](T* to) {
          for (std::size_t k = l; k < len; k += size) to[k] = work[k];
          kapi::group_barrier(g);
          for (std::size_t k = l; k < len; k += size) work[k] = data(group * len + k);
          kapi::group_barrier(g);
        };
        if constexpr (Inclusive) {
          kapi::joint_inclusive_scan(g, work, work + len, work, op);
          stage(out);
          kapi::joint_inclusive_scan(g, work, work + len, work, op, init);
        } else {
          kapi::joint_exclusive_scan(g, work, work + len, work, op);
          stage(out);
          kapi::joint_exclusive_scan(g, work, work + len, work, init, op);
        }
        stage(out_init);
      } else {
        T* end = nullptr;
        if constexpr (Inclusive) {
          kapi::joint_inclusive_scan(g, first, last, out, op);
          end = kapi::joint_inclusive_scan(g, first, last, out_init, op, init);
        } else {
          kapi::joint_exclusive_scan(g, first, last, out, op);
          end = kapi::joint_exclusive_scan(g, first, last, out_init, init, op);
        }
        if (end != out_init + len) reduces(group, 5) = T(1);  // wrong end pointer
      }
    }
  }
  struct IsPositiveT {
    KOKKOS_INLINE_FUNCTION bool operator()(const T& x) const { return x > T(0); }
  };
};

// The joint algorithms' results against the reference, compiled once per value type.
template <class T, class View>
void expect_joint(OpKind op, const std::vector<T>& in, std::size_t groups, std::size_t size, std::size_t len,
                  bool local_memory, T init, const View& scans, const View& reduces) {
  auto hs = kapi_test::to_host(scans);
  auto hr = kapi_test::to_host(reduces);
  const std::string what = std::string(op_name(op)) + " on " + kapi_test::type_name<T>() + ", group size " +
                           std::to_string(size) + ", length " + std::to_string(len) +
                           (local_memory ? ", local memory" : ", global memory");
  for (std::size_t g = 0; g < groups; ++g) {
    T total = ref_identity<T>(op), total_init = init;
    bool any = false, all = true;
    for (std::size_t k = 0; k < len; ++k) {
      const T x = in[g * len + k];
      const std::size_t i = g * len + k;
      ASSERT_EQ(hs(2, i), total) << "exclusive, element " << k << ", " << what;
      ASSERT_EQ(hs(3, i), total_init) << "exclusive+init, element " << k << ", " << what;
      total = ref_apply(op, total, x);
      total_init = ref_apply(op, total_init, x);
      ASSERT_EQ(hs(0, i), total) << "inclusive, element " << k << ", " << what;
      ASSERT_EQ(hs(1, i), total_init) << "inclusive+init, element " << k << ", " << what;
      any |= x > T(0), all &= x > T(0);
    }
    EXPECT_EQ(hr(g, 0), total) << "reduce, group " << g << ", " << what;
    EXPECT_EQ(hr(g, 1), total_init) << "reduce+init, group " << g << ", " << what;
    EXPECT_EQ(hr(g, 2), T(any)) << "any, " << what;
    EXPECT_EQ(hr(g, 3), T(all)) << "all, " << what;
    EXPECT_EQ(hr(g, 4), T(!any)) << "none, " << what;
    EXPECT_EQ(hr(g, 5), T(0)) << "end pointer, " << what;
  }
}

// The operators each value type's joint kernel takes: those the test runs it with.
template <class T>
struct JointCases {
  template <class Space, int Part>
  using Kernel = JointOps<T, Space, Part, OpKind::plus, OpKind::maximum>;
};
template <>
struct JointCases<std::int32_t> {
  template <class Space, int Part>
  using Kernel = JointOps<std::int32_t, Space, Part, OpKind::plus, OpKind::maximum, OpKind::multiplies>;
};
template <>
struct JointCases<std::int64_t> {
  template <class Space, int Part>
  using Kernel = JointOps<std::int64_t, Space, Part, OpKind::plus, OpKind::maximum, OpKind::logical_or>;
};
template <>
struct JointCases<std::uint64_t> {
  template <class Space, int Part>
  using Kernel = JointOps<std::uint64_t, Space, Part, OpKind::plus, OpKind::maximum, OpKind::bit_xor>;
};
template <>
struct JointCases<float> {
  template <class Space, int Part>
  using Kernel = JointOps<float, Space, Part, OpKind::plus, OpKind::maximum, OpKind::minimum>;
};

template <class Space, class T>
void check_joint(OpKind k, std::size_t size, std::size_t len, bool local_memory) {
  const std::size_t groups = 3;
  const std::vector<T> in = inputs<T>(k, groups * len);
  const T init = op_init<T>(k);
  std::vector<T> stored = in;
  stored.resize(std::max<std::size_t>(1, in.size()));  // a View of one element where there are none
  auto data = kapi_test::make_view<T, Space>("data", stored);
  Mat<T, Space> scans("scans", 4, std::max<std::size_t>(1, groups * len)), reduces("reduces", groups, 6);
  const kapi::NdRange<1> range({groups * size}, {size});
  const kapi::LocalAccessor<T, 1> tile(local_memory ? std::max<std::size_t>(1, len) : 1);
  const auto launch = [&](auto part) {
    using Kernel = typename JointCases<T>::template Kernel<Space, decltype(part)::value>;
    kapi::call_kernel(Space(), Kernel{data, scans, reduces, len, init, local_memory, k}, range, tile);
  };
  if (!launch_fits<Space>([&] {
        if constexpr (kapi::is_host_execution_space_v<Space>) {
          launch(std::integral_constant<int, 3>());
        } else {
          launch(std::integral_constant<int, 0>());
          launch(std::integral_constant<int, 1>());
          launch(std::integral_constant<int, 2>());
        }
      }))
    return;
  expect_joint(k, in, groups, size, len, local_memory, init, scans, reduces);
}

TYPED_TEST(GroupAlgorithms, JointOverGlobalAndLocalMemory) {
  for (std::size_t size : kapi_test::group_sizes<TypeParam>())
    for (std::size_t len : {0, 5, 2500})
      for (bool local_memory : {false, true}) {
        kapi_test::for_each_value_type([&](auto t) {
          using T = typename decltype(t)::type;
          check_joint<TypeParam, T>(OpKind::plus, size, len, local_memory);
          check_joint<TypeParam, T>(OpKind::maximum, size, len, local_memory);
        });
        check_joint<TypeParam, std::uint64_t>(OpKind::bit_xor, size, len, local_memory);
        check_joint<TypeParam, std::int32_t>(OpKind::multiplies, size, len, local_memory);
        check_joint<TypeParam, float>(OpKind::minimum, size, len, local_memory);
        check_joint<TypeParam, std::int64_t>(OpKind::logical_or, size, len, local_memory);
      }
}

// ------------------------------------- collectives among barriers and local memory

// Rounds of: a scan, a barrier-separated exchange through local memory, a reduction and
// a broadcast. Wrong unless collectives and barriers interleave correctly.
template <class Space>
struct Mixed {
  Vec<std::uint64_t, Space> out;
  int rounds;
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it,
                                         const kapi::LocalAccessor<std::uint64_t, 1>& slots) const {
    const auto g = it.get_group();
    const std::size_t l = it.get_local_id(0), size = g.get_local_linear_range();
    std::uint64_t v = it.get_global_id(0) * 2654435761u % 1000;
    for (int r = 0; r < rounds; ++r) {
      const std::uint64_t s = kapi::inclusive_scan_over_group(g, v, kapi::plus<>());
      slots[l] = s;
      kapi::group_barrier(g);
      const std::uint64_t mirrored = slots[size - 1 - l];
      kapi::group_barrier(g);
      const std::uint64_t top = kapi::reduce_over_group(g, mirrored, kapi::maximum<>());
      v = (mirrored ^ top) % 100003 + kapi::group_broadcast(g, v, (std::size_t(r) * 7) % size) % 13;
    }
    out(it.get_global_id(0)) = v;
  }
};

TYPED_TEST(GroupAlgorithms, CollectivesAmongBarriersAndLocalMemory) {
  const int rounds = 5;
  for (std::size_t size : kapi_test::group_sizes<TypeParam>()) {
    const std::size_t groups = 3, n = groups * size;
    Vec<std::uint64_t, TypeParam> out("out", n);
    kapi::call_kernel(TypeParam(), Mixed<TypeParam>{out, rounds}, kapi::NdRange<1>({n}, {size}),
                      kapi::LocalAccessor<std::uint64_t, 1>(size));
    auto h = kapi_test::to_host(out);
    for (std::size_t g = 0; g < groups; ++g) {
      std::vector<std::uint64_t> v(size), s(size), next(size);
      for (std::size_t l = 0; l < size; ++l) v[l] = (g * size + l) * 2654435761u % 1000;
      for (int r = 0; r < rounds; ++r) {
        std::uint64_t acc = 0, top = 0;
        for (std::size_t l = 0; l < size; ++l) s[l] = acc += v[l];
        for (std::size_t l = 0; l < size; ++l) top = std::max(top, s[size - 1 - l]);
        const std::uint64_t b = v[(std::size_t(r) * 7) % size];
        for (std::size_t l = 0; l < size; ++l) next[l] = (s[size - 1 - l] ^ top) % 100003 + b % 13;
        v = next;
      }
      for (std::size_t l = 0; l < size; ++l) ASSERT_EQ(h(g * size + l), v[l]) << "size " << size << ", item " << l;
    }
  }
}

// ---------------------------------------------------------- misuse on host backends

template <class Space>
struct DivergentCollective {
  Vec<int, Space> out;
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it) const {
    if (it.get_local_id(0) != 0) out(it.get_global_id(0)) = kapi::reduce_over_group(it.get_group(), 1, kapi::plus<>());
  }
};

TYPED_TEST(GroupAlgorithms, DivergentCollectiveIsReportedOnHost) {
  if constexpr (!kapi::is_host_execution_space_v<TypeParam>) {
    GTEST_SKIP() << "a divergent collective is undefined behaviour on a device";
  } else {
    Vec<int, TypeParam> out("out", 64);
    try {
      kapi::call_kernel(TypeParam(), DivergentCollective<TypeParam>{out}, kapi::NdRange<1>({64}, {16}));
      FAIL() << "no launch_error";
    } catch (const kapi::launch_error& e) {
      EXPECT_THAT(e.what(), ::testing::HasSubstr("every work-item of a group must reach the same barriers"));
    }
  }
}

}  // namespace
