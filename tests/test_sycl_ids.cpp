// SPDX-License-Identifier: Apache-2.0
// Ids and ranges as values (issue 36): kapi::Id<N>'s operators, Range's, and kernels
// written as SYCL writes them — a range kernel taking id<N> (or size_t), item.get_id(),
// nd_item.get_global_id() without a dimension, get_group(d), ranges as values, views
// indexed by an id or an item — each against a plain host loop.
#include <cstdint>
#include <type_traits>

#include <kapi/item.hpp>
#include <kapi/launch.hpp>
#include <kapi/range.hpp>

#include "execution_spaces.hpp"

namespace {

// ---- Id and Range on the host: SYCL 2020's operators --------------------------------

static_assert(std::is_trivially_copyable_v<kapi::Id<3>> && std::is_trivially_copyable_v<kapi::Range<3>>);
static_assert(kapi::Id<2>(3, 4)[1] == 4 && kapi::Id<2>().get(0) == 0);
static_assert(kapi::Id<2>(3, 4) + kapi::Id<2>(1, 2) == kapi::Id<2>(4, 6));
static_assert(kapi::Id<2>(3, 4) * 2 == kapi::Id<2>(6, 8) && 10 - kapi::Id<2>(3, 4) == kapi::Id<2>(7, 6));
static_assert((kapi::Id<2>(3, 4) < kapi::Id<2>(4, 4)) == kapi::Id<2>(1, 0));  // element-wise, as SYCL
static_assert(std::is_same_v<decltype(kapi::Id{1, 2, 3}), kapi::Id<3>>);
static_assert(kapi::Range<2>(4, 6) * kapi::Range<2>(2, 3) == kapi::Range<2>(8, 18));
static_assert(kapi::Range<2>(8, 18) / 2 == kapi::Range<2>(4, 9) && 2 * kapi::Range<1>(3) == kapi::Range<1>(6));
// Id<1> is a size_t; an Item<1> converts to Id<1> and size_t; an Id<2> to nothing scalar.
static_assert(std::is_convertible_v<kapi::Id<1>, std::size_t> && !std::is_convertible_v<kapi::Id<2>, std::size_t>);
static_assert(std::is_convertible_v<kapi::Item<2>, kapi::Id<2>> && std::is_convertible_v<kapi::Item<1>, std::size_t>);
static_assert(!std::is_convertible_v<kapi::Item<2>, kapi::Id<1>> &&
              !std::is_convertible_v<kapi::NdItem<1>, kapi::Id<1>>);

TEST(SyclIds, IdOperatorsMatchElementWiseArithmetic) {
  const std::size_t a[3] = {7, 12, 5}, b[3] = {3, 4, 5};
  const kapi::Id<3> x(a[0], a[1], a[2]), y = kapi::Id<3>::from_array(b);
  const kapi::Id<3> sum = x + y, diff = x - y, prod = x * y, quot = x / y, rem = x % y, shl = x << 1, band = x & y;
  const kapi::Id<3> gt = x > y, le = x <= y, land = x && (y - 3), scalar = 100 - x / 2;
  for (int d = 0; d < 3; ++d) {
    EXPECT_EQ(sum[d], a[d] + b[d]);
    EXPECT_EQ(diff[d], a[d] - b[d]);
    EXPECT_EQ(prod[d], a[d] * b[d]);
    EXPECT_EQ(quot[d], a[d] / b[d]);
    EXPECT_EQ(rem[d], a[d] % b[d]);
    EXPECT_EQ(shl[d], a[d] << 1);
    EXPECT_EQ(band[d], a[d] & b[d]);
    EXPECT_EQ(gt[d], std::size_t(a[d] > b[d]));
    EXPECT_EQ(le[d], std::size_t(a[d] <= b[d]));
    EXPECT_EQ(land[d], std::size_t(a[d] && b[d] - 3));
    EXPECT_EQ(scalar.get(d), 100 - a[d] / 2);
  }
  kapi::Id<3> c = x;
  c += y;
  c *= 2;
  c -= 1;
  ++c;
  EXPECT_EQ(c, kapi::Id<3>(20, 32, 20));
  EXPECT_EQ(c++, kapi::Id<3>(20, 32, 20));
  EXPECT_EQ(c, kapi::Id<3>(21, 33, 21));
  EXPECT_NE(c, x);
  EXPECT_EQ(kapi::Id<2>(kapi::Range<2>(5, 6)), kapi::Id<2>(5, 6));
  EXPECT_EQ(kapi::Id<2>(1, 1) + kapi::Range<2>(5, 6), kapi::Id<2>(6, 7));  // a Range converts
}

TEST(SyclIds, OneDimensionalIdIsASize) {
  kapi::Id<1> i = 5;
  const std::size_t s = i;
  const int k = 3;
  EXPECT_EQ(s, 5u);
  EXPECT_TRUE(i == 5 && 5 == i && i != k);
  EXPECT_EQ(std::size_t(i + k), 8u);
  EXPECT_EQ(std::size_t(2 * i), 10u);
  if (i < 7) i += 1;  // an Id<1> of 0 or 1, tested as a size
  EXPECT_EQ(i, 6);
}

// ---- Range kernels: id<N>, size_t and item as the parameter --------------------------

using Grid = Kokkos::View<std::int64_t**, Kokkos::LayoutRight>;

// SYCL: h.parallel_for(range<2>{r, c}, [=](id<2> i) { out[i] = in[i] * 10 + i[1]; });
struct ScaleById {
  template <class In, class Out>
  KOKKOS_INLINE_FUNCTION void operator()(kapi::Id<2> i, const In& in, const Out& out) const {
    kapi::at(out, i) = kapi::at(in, i) * 10 + std::int64_t(i[1]);
  }
};

// SYCL: parallel_for(range<2>, [=](item<2> it) { ... it.get_id(), it.get_range(), it[d] ... });
struct RecordItem {
  template <class Out>
  KOKKOS_INLINE_FUNCTION void operator()(kapi::Item<2> it, const Out& out) const {
    const kapi::Id<2> id = it.get_id();
    const kapi::Range<2> r = it.get_range();
    kapi::at(out, it) = std::int64_t(id[0] * 1000 + it[1] * 10 + (r == kapi::Range<2>(out.extent(0), out.extent(1))));
  }
};

template <class Space>
void check_range_kernels_with_ids() {
  const std::size_t rows = 13, cols = 7;
  using View = Kokkos::View<std::int64_t**, Kokkos::LayoutRight, typename Space::memory_space>;
  View in("in", rows, cols), out("out", rows, cols), item_out("item_out", rows, cols);
  auto h_in = Kokkos::create_mirror_view(in);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) h_in(i, j) = std::int64_t(i * 31 + j * 7);
  Kokkos::deep_copy(in, h_in);
  kapi::call_kernel(Space(), ScaleById{}, kapi::Range<2>(rows, cols), in, out);
  kapi::call_kernel(Space(), RecordItem{}, kapi::Range<2>(rows, cols), item_out);
  auto h_out = kapi_test::to_host(out);
  auto h_item = kapi_test::to_host(item_out);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) {
      ASSERT_EQ(h_out(i, j), std::int64_t((i * 31 + j * 7) * 10 + j)) << i << ", " << j;
      ASSERT_EQ(h_item(i, j), std::int64_t(i * 1000 + j * 10 + 1)) << i << ", " << j;
    }
}

// SYCL: parallel_for(range<1>{n}, [=](id<1> i) { y[i] = a * x[i] + y[i]; }), and the same
// with size_t i, as SYCL allows for one dimension.
template <class Space>
void check_one_dimensional_range_kernels() {
  const std::size_t n = 1000;
  auto x = kapi_test::make_view<double, Space>("x", n, [](std::size_t i) { return double(i); });
  auto y = kapi_test::make_view<double, Space>("y", n, [](std::size_t i) { return double(2 * i + 1); });
  Kokkos::View<double*, typename Space::memory_space> z("z", n);
  const double a = 3;
  kapi::call_kernel(
      Space(),
      KOKKOS_LAMBDA(kapi::Id<1> i, decltype(x) xs, decltype(y) ys) {
        ys(i[0]) = a * kapi::at(xs, i) + ys(std::size_t(i));
      },
      kapi::Range<1>(n), x, y);
  kapi::call_kernel(
      Space(), KOKKOS_LAMBDA(std::size_t i, decltype(y) ys, decltype(z) zs) { zs(i) = ys(i) - 1; }, kapi::Range<1>(n),
      y, z);
  auto h = kapi_test::to_host(y);
  auto hz = kapi_test::to_host(z);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(h(i), 3.0 * double(i) + double(2 * i + 1)) << i;
    ASSERT_EQ(hz(i), h(i) - 1) << i;
  }
}

// A 5-point stencil as SYCL writes it with id arithmetic (interior only).
struct Stencil {
  template <class In, class Out>
  KOKKOS_INLINE_FUNCTION void operator()(kapi::Item<2> it, const In& in, const Out& out) const {
    const kapi::Id<2> i = it.get_id() + kapi::Id<2>(1, 1);
    const kapi::Id<2> dx(0, 1), dy(1, 0);
    kapi::at(out, i) =
        4 * kapi::at(in, i) - kapi::at(in, i - dx) - kapi::at(in, i + dx) - kapi::at(in, i - dy) - kapi::at(in, i + dy);
  }
};

template <class Space>
void check_stencil_with_id_arithmetic() {
  const std::size_t rows = 17, cols = 11;
  using View = Kokkos::View<std::int64_t**, Kokkos::LayoutRight, typename Space::memory_space>;
  View in("in", rows, cols), out("out", rows, cols);
  auto h_in = Kokkos::create_mirror_view(in);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) h_in(i, j) = std::int64_t((i * i * 3 + j * 5) % 23);
  Kokkos::deep_copy(in, h_in);
  kapi::call_kernel(Space(), Stencil{}, kapi::Range<2>(rows - 2, cols - 2), in, out);
  auto h = kapi_test::to_host(out);
  for (std::size_t i = 1; i + 1 < rows; ++i)
    for (std::size_t j = 1; j + 1 < cols; ++j)
      ASSERT_EQ(h(i, j), 4 * h_in(i, j) - h_in(i, j - 1) - h_in(i, j + 1) - h_in(i - 1, j) - h_in(i + 1, j))
          << i << ", " << j;
}

// ---- Nd-range kernels: ids and ranges as values --------------------------------------

enum Field : int {
  global_0,
  global_1,
  local_0,
  local_1,
  group_0,
  group_1,
  group_linear,
  group_via_group_0,
  group_via_group_1,
  group_local_0,
  group_local_1,
  group_local_linear,
  global_range_0,
  global_range_1,
  local_range_0,
  local_range_1,
  group_range_0,
  group_range_1,
  ranges_agree,
  fields
};

// Every query as SYCL spells it, recorded per work-item at its global id.
struct RecordNdItem {
  template <class Out>
  KOKKOS_INLINE_FUNCTION void operator()(kapi::NdItem<2> it, const Out& out) const {
    const kapi::Id<2> g = it.get_global_id(), l = it.get_local_id();
    const kapi::Range<2> gr = it.get_global_range(), lr = it.get_local_range(), grp = it.get_group_range();
    const auto group = it.get_group();
    const kapi::Id<2> group_id = group.get_group_id(), group_local = group.get_local_id();
    auto rec = [&](int f, std::size_t v) { out(g[0], g[1], f) = std::int64_t(v); };
    rec(global_0, g[0]);
    rec(global_1, g.get(1));
    rec(local_0, l[0]);
    rec(local_1, l[1]);
    rec(group_0, it.get_group(0));
    rec(group_1, it.get_group(1));
    rec(group_linear, it.get_group_linear_id());
    rec(group_via_group_0, group_id[0]);
    rec(group_via_group_1, group[1]);
    rec(group_local_0, group_local[0]);
    rec(group_local_1, group.get_local_id(1));
    rec(group_local_linear, group.get_local_linear_id());
    rec(global_range_0, gr[0]);
    rec(global_range_1, gr.get(1));
    rec(local_range_0, lr[0]);
    rec(local_range_1, lr[1]);
    rec(group_range_0, grp[0]);
    rec(group_range_1, it.get_group_range(1));
    rec(ranges_agree, grp * lr == gr && it.get_nd_range().get_group_range() == grp && group.get_group_range() == grp &&
                          group.get_local_range() == lr && g == kapi::Id<2>(it.get_group(0), it.get_group(1)) * lr + l);
  }
};

template <class Space>
void check_nd_item_values(std::size_t g0, std::size_t g1, std::size_t l0, std::size_t l1) {
  const kapi::Range<2> groups(g0, g1), local(l0, l1), global = groups * local;
  Kokkos::View<std::int64_t***, Kokkos::LayoutRight, typename Space::memory_space> out("out", global[0], global[1],
                                                                                       fields);
  kapi::call_kernel(Space(), RecordNdItem{}, kapi::NdRange<2>(global, local), out);
  auto h = kapi_test::to_host(out);
  for (std::size_t i = 0; i < global[0]; ++i)
    for (std::size_t j = 0; j < global[1]; ++j) {
      const std::int64_t expected[fields] = {std::int64_t(i),
                                             std::int64_t(j),
                                             std::int64_t(i % l0),
                                             std::int64_t(j % l1),
                                             std::int64_t(i / l0),
                                             std::int64_t(j / l1),
                                             std::int64_t((i / l0) * g1 + j / l1),
                                             std::int64_t(i / l0),
                                             std::int64_t(j / l1),
                                             std::int64_t(i % l0),
                                             std::int64_t(j % l1),
                                             std::int64_t((i % l0) * l1 + j % l1),
                                             std::int64_t(g0 * l0),
                                             std::int64_t(g1 * l1),
                                             std::int64_t(l0),
                                             std::int64_t(l1),
                                             std::int64_t(g0),
                                             std::int64_t(g1),
                                             1};
      for (int f = 0; f < fields; ++f) ASSERT_EQ(h(i, j, f), expected[f]) << "(" << i << ", " << j << ") field " << f;
    }
}

template <class Space>
struct SyclIdKernels : ::testing::Test {};
KAPI_TYPED_TEST_SUITE(SyclIdKernels);

TYPED_TEST(SyclIdKernels, RangeKernelTakesIdOrItem) { check_range_kernels_with_ids<TypeParam>(); }
TYPED_TEST(SyclIdKernels, OneDimensionalRangeKernelTakesIdOrSize) { check_one_dimensional_range_kernels<TypeParam>(); }
TYPED_TEST(SyclIdKernels, StencilWithIdArithmetic) { check_stencil_with_id_arithmetic<TypeParam>(); }
TYPED_TEST(SyclIdKernels, NdItemIdsAndRangesAsValues) {
  check_nd_item_values<TypeParam>(3, 5, 4, 2);
  check_nd_item_values<TypeParam>(2, 1, 1, 7);
}

}  // namespace
