// SPDX-License-Identifier: Apache-2.0
// Reduction variables (kapi::reduction, SYCL 2020's sycl::reduction) on every execution
// space: every kapi operator on its value types, from range kernels of 1 and 3 dimensions
// and nd-range kernels with and without barriers (host contexts on host backends), the
// variable's old value combined or replaced (initialize_to_identity), several reductions
// in one launch, custom operators and value types, empty launches, the Reducer's
// shorthands, asynchronous and named launches, and the rejected variables. Every result
// is checked against a host fold of the same values with C++'s own operators.
#include <kapi/barrier.hpp>
#include <kapi/errors.hpp>
#include <kapi/functional.hpp>
#include <kapi/group_algorithms.hpp>
#include <kapi/item.hpp>
#include <kapi/launch.hpp>
#include <kapi/local_accessor.hpp>
#include <kapi/math.hpp>
#include <kapi/range.hpp>
#include <kapi/reduction.hpp>
#include <kapi/sub_group_algorithms.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "execution_spaces.hpp"
#include "value_types.hpp"

namespace {

template <class T, class Space>
using Vec = Kokkos::View<T*, typename Space::memory_space>;
template <class T, class Space>
using Scalar = Kokkos::View<T, typename Space::memory_space>;

template <class V>
typename V::non_const_value_type read(const V& v) {
  typename V::non_const_value_type h;
  Kokkos::deep_copy(h, v);
  return h;
}
template <class T, class Space>
Scalar<T, Space> scalar(const char* label, T value) {
  Scalar<T, Space> v{std::string(label)};
  Kokkos::deep_copy(v, value);
  return v;
}

// ------------------------------------------------------------------ launch shapes

// The launches every operator runs with: a 1-d Range, a 3-d Range, work-groups of 64
// without barriers, and work-groups of 32 that pass barriers and local memory first
// (each work-item combines its neighbour's value, read back from the group's memory).
enum class Shape { range1, range3, groups, groups_with_barriers };
const Shape all_shapes[] = {Shape::range1, Shape::range3, Shape::groups, Shape::groups_with_barriers};

const char* name(Shape s) {
  switch (s) {
    case Shape::range1:
      return "Range<1>";
    case Shape::range3:
      return "Range<3>";
    case Shape::groups:
      return "NdRange<1> groups of 64";
    default:
      return "NdRange<1> groups of 32 with barriers";
  }
}

template <class X>
struct CombineRange1 {
  X x;
  template <class R>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::Item<1>& it, R& r) const {
    r.combine(x(it.get_id(0)));
  }
};

template <class X>
struct CombineRange3 {
  X x;
  template <class R>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::Item<3>& it, R& r) const {
    r.combine(x(it.get_linear_id()));
  }
};

template <class X>
struct CombineGroups {
  X x;
  template <class R>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it, R& r) const {
    r.combine(x(it.get_global_id(0)));
  }
};

template <class X, class T>
struct CombineWithBarriers {
  X x;
  template <class R>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it, const kapi::LocalAccessor<T, 1>& tile, R& r) const {
    const std::size_t l = it.get_local_id(0), size = it.get_local_range(0);
    tile[l] = x(it.get_global_id(0));
    kapi::group_barrier(it.get_group());
    const T neighbour = tile[(l + 1) % size];
    kapi::group_barrier(it.get_group());
    r.combine(neighbour);
  }
};

/// Runs `red` over the n values of x (n = 4 * 5 * m for the 3-d range, a multiple of the
/// group sizes for the nd-ranges) with the launch `shape`.
template <class Space, class T, class X, class Red>
void launch(Shape shape, std::size_t n, const X& x, const Red& red) {
  const Space space;
  switch (shape) {
    case Shape::range1:
      kapi::call_kernel(space, CombineRange1<X>{x}, kapi::Range<1>{n}, red);
      break;
    case Shape::range3:
      kapi::call_kernel(space, CombineRange3<X>{x}, kapi::Range<3>{4, 5, n / 20}, red);
      break;
    case Shape::groups:
      kapi::call_kernel(space, CombineGroups<X>{x}, kapi::NdRange<1>({n}, {64}), red);
      break;
    case Shape::groups_with_barriers:
      kapi::call_kernel(space, CombineWithBarriers<X, T>{x}, kapi::NdRange<1>({n}, {32}), kapi::LocalAccessor<T, 1>(32),
                        red);
      break;
  }
}

// ------------------------------------------------------------------ every operator

/// Checks op over values(i), i < n, combined into a variable holding `old`: the result
/// is ref(old, fold) and, with initialize_to_identity, fold; fold is the host's left fold
/// with `ref` from `start`.
template <class Space, class T, class Op, class Values, class Ref>
void check_operator(const char* op_name, Op op, const Values& values, T old, T start, Ref ref) {
  const std::size_t n = 20 * 64 * 9;  // 11520: divisible by 20 and by both group sizes
  std::vector<T> host(n);
  for (std::size_t i = 0; i < n; ++i) host[i] = values(i);
  auto x = kapi_test::make_view<T, Space>("x", n, [&](std::size_t i) { return host[i]; });
  T fold = start;
  for (const T& v : host) fold = ref(fold, v);
  for (Shape shape : all_shapes) {
    const std::string what = std::string(op_name) + "<" + kapi_test::type_name<T>() + "> over " + name(shape);
    auto combined = scalar<T, Space>("combined", old);
    launch<Space, T>(shape, n, x, kapi::reduction(combined, op));
    EXPECT_EQ(read(combined), ref(old, fold)) << what << ", combined with the old value";

    auto replaced = scalar<T, Space>("replaced", old);
    launch<Space, T>(shape, n, x, kapi::reduction(replaced, op, kapi::property::reduction::initialize_to_identity{}));
    EXPECT_EQ(read(replaced), fold) << what << ", initialize_to_identity";
  }
}

template <class Space>
class ReductionVariables : public ::testing::Test {};
KAPI_TYPED_TEST_SUITE(ReductionVariables);

// Small integers: every sum is exact in every type, whatever the order.
template <class T>
T small_value(std::size_t i) {
  const std::int64_t h = std::int64_t((i * 7919u) % 201u);
  return std::is_signed_v<T> ? T(h - 100) : T(h);
}

TYPED_TEST(ReductionVariables, Plus) {
  kapi_test::for_each_value_type([](auto type) {
    using T = typename decltype(type)::type;
    check_operator<TypeParam, T>("plus", kapi::plus<>(), small_value<T>, T(5), T(0), [](T a, T b) { return T(a + b); });
  });
  check_operator<TypeParam, double>("plus<double>", kapi::plus<double>(), small_value<double>, 0.5, 0.0,
                                    [](double a, double b) { return a + b; });
}

TYPED_TEST(ReductionVariables, Multiplies) {
  // Ones, with a 2 or a -1 at every 1009th element: the product is an exact power of two.
  auto values = [](auto type) {
    using T = typename decltype(type)::type;
    return [](std::size_t i) { return i % 1009 == 3 ? T(2) : i % 1009 == 700 ? T(-1) : T(1); };
  };
  check_operator<TypeParam, std::int64_t>("multiplies", kapi::multiplies<>(), values(kapi_test::Type<std::int64_t>{}),
                                          std::int64_t(3), std::int64_t(1),
                                          [](std::int64_t a, std::int64_t b) { return a * b; });
  check_operator<TypeParam, double>("multiplies", kapi::multiplies<>(), values(kapi_test::Type<double>{}), 3.0, 1.0,
                                    [](double a, double b) { return a * b; });
  check_operator<TypeParam, float>("multiplies", kapi::multiplies<>(), values(kapi_test::Type<float>{}), 0.5f, 1.0f,
                                   [](float a, float b) { return a * b; });
}

TYPED_TEST(ReductionVariables, MinimumAndMaximum) {
  kapi_test::for_each_value_type([](auto type) {
    using T = typename decltype(type)::type;
    auto values = [](std::size_t i) {
      const std::uint64_t h = (i * 2654435761u) % 1000003u;
      return std::is_signed_v<T> ? T(std::int64_t(h) - 500001) : T(h + 10);
    };
    // The old value lies outside the values: combined, it wins; replaced, it is gone.
    const T low = std::is_signed_v<T> ? T(-600000) : T(1), high = T(2000000);
    check_operator<TypeParam, T>("minimum", kapi::minimum<>(), values, low, std::numeric_limits<T>::max(),
                                 [](T a, T b) { return std::min(a, b); });
    check_operator<TypeParam, T>("maximum", kapi::maximum<>(), values, high, std::numeric_limits<T>::lowest(),
                                 [](T a, T b) { return std::max(a, b); });
  });
}

TYPED_TEST(ReductionVariables, BitwiseOperators) {
  kapi_test::for_each_type<std::int32_t, std::uint32_t, std::int64_t, std::uint64_t>([](auto type) {
    using T = typename decltype(type)::type;
    constexpr std::size_t bits = sizeof(T) * 8;
    // bit_and clears bit i at element i < bits except bit 5 (the old value 0x1f lacks it),
    // bit_or sets them (the old value 0x20 has it), bit_xor mixes everything.
    using U = std::make_unsigned_t<T>;
    auto clear = [](std::size_t i) { return i < bits && i != 5 ? T(~(U(1) << i)) : T(~U(0)); };
    auto set = [](std::size_t i) { return i < bits && i != 5 ? T(U(1) << i) : T(0); };
    auto mix = [](std::size_t i) { return T(i * 2654435761u + (i >> 3)); };
    check_operator<TypeParam, T>("bit_and", kapi::bit_and<>(), clear, T(0x1f), T(~U(0)),
                                 [](T a, T b) { return T(a & b); });
    check_operator<TypeParam, T>("bit_or", kapi::bit_or<>(), set, T(0x20), T(0), [](T a, T b) { return T(a | b); });
    check_operator<TypeParam, T>("bit_xor", kapi::bit_xor<>(), mix, T(0x5a5a), T(0), [](T a, T b) { return T(a ^ b); });
  });
}

TYPED_TEST(ReductionVariables, LogicalOperators) {
  // One exception in the middle, and none.
  check_operator<TypeParam, bool>(
      "logical_and", kapi::logical_and<>(), [](std::size_t i) { return i != 5000; }, true, true,
      [](bool a, bool b) { return a && b; });
  check_operator<TypeParam, bool>(
      "logical_and", kapi::logical_and<>(), [](std::size_t) { return true; }, false, true,
      [](bool a, bool b) { return a && b; });
  check_operator<TypeParam, bool>(
      "logical_or", kapi::logical_or<>(), [](std::size_t i) { return i == 5000; }, false, false,
      [](bool a, bool b) { return a || b; });
  check_operator<TypeParam, bool>(
      "logical_or", kapi::logical_or<>(), [](std::size_t) { return false; }, true, false,
      [](bool a, bool b) { return a || b; });
  check_operator<TypeParam, int>(
      "logical_or<int>", kapi::logical_or<int>(), [](std::size_t i) { return int(i == 77); }, 0, 0,
      [](int a, int b) { return int(a || b); });
}

// ------------------------------------------------------------ several in one launch

// A range kernel with five reductions among ordinary arguments: a sum (+=), a count (++),
// a minimum and a maximum (combine), a product through a pointer and a rank-1 View.
struct Statistics {
  template <class X, class Sum, class Count, class Min, class Max, class Prod>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::Item<1>& it, Sum& sum, const X& x, Count& count, Min& lo,
                                         const int threshold, Max& hi, Prod& prod) const {
    const double v = x(it.get_id(0));
    sum += v;
    if (v > threshold) ++count;
    lo.combine(int(v));
    hi.combine(float(v));
    if (it.get_id(0) % 1000 == 1) prod *= 2.0;
  }
};

TYPED_TEST(ReductionVariables, SeveralReductionsInOneLaunch) {
  using Space = TypeParam;
  const std::size_t n = 100003;
  auto x = kapi_test::make_view<double, Space>("x", n, [](std::size_t i) { return small_value<double>(i); });
  auto sum = scalar<double, Space>("sum", 1.0);
  Vec<std::int64_t, Space> count("count", 1);
  auto lo = scalar<int, Space>("lo", 0);
  auto hi = scalar<float, Space>("hi", 0);
  auto prod = scalar<double, Space>("prod", 1.0);
  kapi::call_kernel(
      Space(), Statistics{}, kapi::Range<1>{n}, kapi::reduction(sum, kapi::plus<>()), x,
      kapi::reduction(count, kapi::plus<>()),
      kapi::reduction(lo, kapi::minimum<>(), kapi::property::reduction::initialize_to_identity{}), 50,
      kapi::reduction(hi, kapi::maximum<>(), kapi::property_list{kapi::property::reduction::initialize_to_identity{}}),
      kapi::reduction(prod.data(), kapi::multiplies<>()));
  double s = 1.0, p = 1.0;
  std::int64_t c = 0;
  int l = std::numeric_limits<int>::max();
  float h = -1e30f;
  for (std::size_t i = 0; i < n; ++i) {
    const double v = small_value<double>(i);
    s += v;
    c += v > 50 ? 1 : 0;
    l = std::min(l, int(v));
    h = std::max(h, float(v));
    if (i % 1000 == 1) p *= 2.0;
  }
  EXPECT_EQ(read(sum), s);
  EXPECT_EQ(kapi_test::to_host(count)(0), c);
  EXPECT_EQ(read(lo), l);
  EXPECT_EQ(read(hi), h);
  EXPECT_EQ(read(prod), p);
}

// An nd-range kernel with barriers, local memory, a group algorithm and two reductions:
// each group's leader combines the group's sum (reduce_over_group) into one variable,
// every work-item its value times its neighbour's into the other.
struct GroupsAndReductions {
  template <class X, class GroupSums, class Products>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<2>& it, const X& x, GroupSums& group_sums,
                                         const kapi::LocalAccessor<std::int64_t, 2>& tile, Products& products) const {
    const std::size_t r = it.get_local_id(0), c = it.get_local_id(1);
    const std::size_t rows = it.get_local_range(0), cols = it.get_local_range(1);
    const std::size_t cols_total = it.get_global_range(1);
    const std::int64_t v = x(it.get_global_id(0) * cols_total + it.get_global_id(1));
    tile(r, c) = v;
    kapi::group_barrier(it.get_group());
    const std::int64_t neighbour = tile((r + 1) % rows, (c + 1) % cols);
    products += v * neighbour;
    const std::int64_t s = kapi::reduce_over_group(it.get_group(), v, kapi::plus<>());
    if (it.get_group().leader()) group_sums += s;
  }
};

TYPED_TEST(ReductionVariables, NdRangeKernelWithBarriersGroupAlgorithmsAndReductions) {
  using Space = TypeParam;
  const std::size_t rows = 48, cols = 64, lr = 4, lc = 8;  // 12 x 8 groups of 32
  auto x = kapi_test::make_view<std::int64_t, Space>("x", rows * cols,
                                                     [](std::size_t i) { return small_value<std::int64_t>(i); });
  auto group_sums = scalar<std::int64_t, Space>("group_sums", 0);
  auto products = scalar<std::int64_t, Space>("products", 7);
  kapi::call_kernel(Space(), GroupsAndReductions{}, kapi::NdRange<2>({rows, cols}, {lr, lc}), x,
                    kapi::reduction(group_sums, kapi::plus<>()), kapi::LocalAccessor<std::int64_t, 2>({lr, lc}),
                    kapi::reduction(products, kapi::plus<>()));
  std::int64_t total = 0, prod = 7;
  auto at = [&](std::size_t i, std::size_t j) { return small_value<std::int64_t>(i * cols + j); };
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) {
      total += at(i, j);
      const std::size_t gi = i / lr * lr, gj = j / lc * lc;
      prod += at(i, j) * at(gi + (i - gi + 1) % lr, gj + (j - gj + 1) % lc);
    }
  EXPECT_EQ(read(group_sums), total);
  EXPECT_EQ(read(products), prod);
}

// ------------------------------------------------------- custom operators and values

// No known identity: the reduction names one.
struct AbsMax {
  KOKKOS_INLINE_FUNCTION double operator()(double a, double b) const {
    return (a < 0 ? -a : a) < (b < 0 ? -b : b) ? b : a;
  }
};

// A value type of its own: the minimum and where it is (ties: the lower index), with its
// identity as a member, as kapi::known_identity finds it.
struct MinLoc {
  double value;
  std::int64_t index;
};
struct MinLocOp {
  KOKKOS_INLINE_FUNCTION MinLoc operator()(const MinLoc& a, const MinLoc& b) const {
    return (b.value < a.value || (b.value == a.value && b.index < a.index)) ? b : a;
  }
  template <class U>
  KOKKOS_INLINE_FUNCTION static U identity() {
    return U{HUGE_VAL, INT64_MAX};
  }
};

struct CustomReductions {
  template <class X, class A, class M>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::Item<1>& it, const X& x, A& abs_max, M& min_loc) const {
    const std::size_t i = it.get_id(0);
    abs_max.combine(x(i));
    min_loc.combine(MinLoc{x(i), std::int64_t(i)});
  }
};

TYPED_TEST(ReductionVariables, CustomOperatorsAndValueTypes) {
  using Space = TypeParam;
  const std::size_t n = 30011;
  auto value = [](std::size_t i) { return double(std::int64_t((i * 7919u) % 10007u) - 5003) / 8.0; };
  auto x = kapi_test::make_view<double, Space>("x", n, value);
  auto abs_max = scalar<double, Space>("abs_max", 0.0);
  Scalar<MinLoc, Space> min_loc("min_loc");
  kapi::call_kernel(Space(), CustomReductions{}, kapi::Range<1>{n}, x, kapi::reduction(abs_max, 0.0, AbsMax{}),
                    kapi::reduction(min_loc, MinLocOp(), kapi::property::reduction::initialize_to_identity{}));
  double am = 0, mv = HUGE_VAL;
  std::int64_t mi = -1;
  for (std::size_t i = 0; i < n; ++i) {
    const double v = value(i);
    if (std::abs(v) > std::abs(am)) am = v;
    if (v < mv) {
      mv = v;
      mi = std::int64_t(i);
    }
  }
  EXPECT_EQ(read(abs_max), am);
  const MinLoc ml = read(min_loc);
  EXPECT_EQ(ml.value, mv);
  EXPECT_EQ(ml.index, mi);
}

// ------------------------------------------------------------- shorthands, identity

struct Shorthands {
  template <class Sum, class Count, class Prod, class And, class Or, class Xor, class Ident>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::Item<1>& it, Sum& sum, Count& count, Prod& prod, And& a, Or& o,
                                         Xor& x, Ident& ident) const {
    const std::size_t i = it.get_id(0);
    sum += int(i);
    count++;
    ++count;
    if (i < 10) prod *= 3.0;
    a &= ~(std::uint32_t(1) << (i % 32));
    o |= std::uint32_t(1) << (i % 16);
    x ^= std::uint32_t(i);
    ident.combine(sum.identity() + prod.identity() + a.identity() + x.identity());  // 0 + 1 + ~0 + 0 per item
  }
};

TYPED_TEST(ReductionVariables, ReducerShorthandsAndIdentities) {
  using Space = TypeParam;
  const std::size_t n = 1000;
  auto sum = scalar<int, Space>("sum", 0);
  auto count = scalar<std::int64_t, Space>("count", 0);
  auto prod = scalar<double, Space>("prod", 1.0);
  auto a = scalar<std::uint32_t, Space>("and", ~std::uint32_t(0));
  auto o = scalar<std::uint32_t, Space>("or", 0);
  auto x = scalar<std::uint32_t, Space>("xor", 0);
  auto ident = scalar<double, Space>("ident", 0.0);
  kapi::call_kernel(Space(), Shorthands{}, kapi::Range<1>{n}, kapi::reduction(sum, kapi::plus<>()),
                    kapi::reduction(count, kapi::plus<>()), kapi::reduction(prod, kapi::multiplies<>()),
                    kapi::reduction(a, kapi::bit_and<>()), kapi::reduction(o, kapi::bit_or<>()),
                    kapi::reduction(x, kapi::bit_xor<>()), kapi::reduction(ident, kapi::plus<>()));
  std::uint32_t xr = 0;
  for (std::size_t i = 0; i < n; ++i) xr ^= std::uint32_t(i);
  EXPECT_EQ(read(sum), int(n * (n - 1) / 2));
  EXPECT_EQ(read(count), std::int64_t(2 * n));
  EXPECT_EQ(read(prod), 59049.0);  // 3^10
  EXPECT_EQ(read(a), 0u);
  EXPECT_EQ(read(o), 0xffffu);
  EXPECT_EQ(read(x), xr);
  EXPECT_EQ(read(ident), double(n) * (1.0 + double(~std::uint32_t(0))));
}

// ------------------------------------------------------------------ empty launches

TYPED_TEST(ReductionVariables, EmptyLaunchesKeepTheVariableOrSetTheIdentity) {
  using Space = TypeParam;
  auto x = kapi_test::make_view<int, Space>("x", 1, [](std::size_t) { return 1; });
  for (int nd = 0; nd < 2; ++nd) {
    auto kept = scalar<int, Space>("kept", 42);
    auto reset = scalar<int, Space>("reset", 42);
    auto reset_min = scalar<int, Space>("reset_min", 42);
    const auto keep = kapi::reduction(kept, kapi::plus<>());
    const auto to_identity =
        kapi::reduction(reset, kapi::plus<>(), kapi::property::reduction::initialize_to_identity{});
    const auto to_min_identity =
        kapi::reduction(reset_min, kapi::minimum<>(), kapi::property::reduction::initialize_to_identity{});
    if (nd) {
      kapi::call_kernel(Space(), CombineGroups<decltype(x)>{x}, kapi::NdRange<1>({0}, {64}), keep);
      kapi::call_kernel(Space(), CombineGroups<decltype(x)>{x}, kapi::NdRange<1>({0}, {64}), to_identity);
      kapi::call_kernel(Space(), CombineGroups<decltype(x)>{x}, kapi::NdRange<1>({0}, {64}), to_min_identity);
    } else {
      kapi::call_kernel(Space(), CombineRange1<decltype(x)>{x}, kapi::Range<1>{0}, keep);
      kapi::call_kernel(Space(), CombineRange1<decltype(x)>{x}, kapi::Range<1>{0}, to_identity);
      kapi::call_kernel(Space(), CombineRange3<decltype(x)>{x}, kapi::Range<3>{4, 0, 2}, to_min_identity);
    }
    EXPECT_EQ(read(kept), 42) << (nd ? "nd-range" : "range");
    EXPECT_EQ(read(reset), 0) << (nd ? "nd-range" : "range");
    EXPECT_EQ(read(reset_min), std::numeric_limits<int>::max()) << (nd ? "nd-range" : "range");
  }
}

// ------------------------------------------------ launch forms, sizes, variables

template <class Space>
void sum_with_a_lambda(std::size_t n, double& result) {
  auto x = kapi_test::make_view<double, Space>("x", n, [](std::size_t i) { return small_value<double>(i); });
  auto sum = scalar<double, Space>("sum", 0.0);
  // A lambda takes its Reducer by type (device lambdas cannot be generic).
  kapi::call_kernel(
      Space(), KOKKOS_LAMBDA(const kapi::Item<1>& it, kapi::Reducer<double, kapi::plus<>>& s) { s += x(it.get_id(0)); },
      kapi::Range<1>{n}, kapi::reduction(sum, kapi::plus<>()));
  result = read(sum);
}

TYPED_TEST(ReductionVariables, LaunchFormsAndSizes) {
  using Space = TypeParam;
  // Sizes around the host chunking (4096 work-items and up) and a large one.
  for (std::size_t n : {std::size_t(1), std::size_t(4095), std::size_t(4097), std::size_t(3 << 20) + 17}) {
    std::int64_t expect = 0;
    for (std::size_t i = 0; i < n; ++i) expect += small_value<std::int64_t>(i);
    auto x =
        kapi_test::make_view<std::int64_t, Space>("x", n, [](std::size_t i) { return small_value<std::int64_t>(i); });

    auto a = scalar<std::int64_t, Space>("a", 0);
    kapi::call_kernel(Space(), CombineRange1<decltype(x)>{x}, kapi::Range<1>{n}, kapi::reduction(a, kapi::plus<>()));
    EXPECT_EQ(read(a), expect) << "n = " << n;

    auto b = scalar<std::int64_t, Space>("b", 0);  // named for Kokkos Tools
    kapi::call_kernel("my-sum", Space(), CombineRange1<decltype(x)>{x}, kapi::Range<1>{n},
                      kapi::reduction(b, kapi::plus<>()));
    EXPECT_EQ(read(b), expect) << "n = " << n;

    auto c = scalar<std::int64_t, Space>("c", 0);  // asynchronous: the result is there after wait()
    auto event = kapi::call_kernel_async(Space(), CombineRange1<decltype(x)>{x}, kapi::Range<1>{n},
                                         kapi::reduction(c, kapi::plus<>()));
    event.wait();
    EXPECT_EQ(read(c), expect) << "n = " << n;

    // Launches queued one behind the other before any is waited for (on CUDA they share
    // their stream's reduction scratch, each leaving it ready for the next).
    std::vector<Scalar<std::int64_t, Space>> queued;
    std::vector<kapi::KernelEvent<Space>> events;
    for (int i = 0; i < 3; ++i) {
      queued.push_back(scalar<std::int64_t, Space>("queued", 0));
      events.push_back(kapi::call_kernel_async(Space(), CombineRange1<decltype(x)>{x}, kapi::Range<1>{n},
                                               kapi::reduction(queued.back(), kapi::plus<>())));
    }
    for (auto& e : events) e.wait();
    for (auto& q : queued) EXPECT_EQ(read(q), expect) << "n = " << n << ", queued launches";
  }
  double lambda_sum = 0;
  sum_with_a_lambda<Space>(5000, lambda_sum);
  double expect = 0;
  for (std::size_t i = 0; i < 5000; ++i) expect += small_value<double>(i);
  EXPECT_EQ(lambda_sum, expect);
}

TEST(ReductionVariablesDefaultSpace, TheIssuesSpelling) {
  // kapi::call_kernel(kernel, range, kapi::reduction(sum_view, kapi::plus<>()), args...)
  using Space = Kokkos::DefaultExecutionSpace;
  const std::size_t n = 777;
  auto x = kapi_test::make_view<int, Space>("x", n, [](std::size_t i) { return int(i); });
  Kokkos::View<int, Space::memory_space> sum_view("sum");
  kapi::call_kernel(CombineRange1<decltype(x)>{x}, kapi::Range<1>{n}, kapi::reduction(sum_view, kapi::plus<>()));
  EXPECT_EQ(read(sum_view), int(n * (n - 1) / 2));
}

TYPED_TEST(ReductionVariables, RejectedVariables) {
  using Space = TypeParam;
  auto x = kapi_test::make_view<int, Space>("x", 8, [](std::size_t) { return 1; });
  Vec<int, Space> two("two", 2);
  EXPECT_THROW(kapi::reduction(two, kapi::plus<>()), kapi::launch_error);  // not one element
  auto v = scalar<int, Space>("v", 0);
  EXPECT_THROW(kapi::call_kernel(Space(), Statistics{}, kapi::Range<1>{8}, kapi::reduction(v, kapi::plus<>()), x,
                                 kapi::reduction(v, kapi::plus<>()), kapi::reduction(v, kapi::minimum<>()), 1,
                                 kapi::reduction(v, kapi::maximum<>()), kapi::reduction(v, kapi::multiplies<>())),
               kapi::launch_error);  // the same variable twice
  EXPECT_THROW(kapi::call_kernel(Space(), CombineRange1<decltype(x)>{x}, kapi::Range<1>{8},
                                 kapi::reduction(static_cast<int*>(nullptr), kapi::plus<>())),
               kapi::launch_error);
  try {
    kapi::call_kernel(Space(), CombineRange1<decltype(x)>{x}, kapi::Range<1>{8},
                      kapi::reduction(static_cast<int*>(nullptr), kapi::plus<>()));
  } catch (const kapi::launch_error& e) {
    EXPECT_NE(std::string(e.what()).find("null pointer"), std::string::npos) << e.what();
  }
  Vec<int, Space> one("one", 1);  // a rank-1 View of one element is a variable
  kapi::call_kernel(Space(), CombineRange1<decltype(x)>{x}, kapi::Range<1>{8}, kapi::reduction(one, kapi::plus<>()));
  EXPECT_EQ(kapi_test::to_host(one)(0), 8);
}

}  // namespace
