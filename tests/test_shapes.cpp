// SPDX-License-Identifier: Apache-2.0
// Shapes in every natural spelling: Range, NdRange, LocalAccessor and PrivateArray
// written as numba-dpex and SYCL code writes them ((s, s), ({s, s}), {s, s}, Range<2>{s, s},
// CTAD, std::array, C-array types), with any mix of integer types. Each spelling below
// must compile (this file is the compile test: g++ 12 rejected LocalAccessor<T, 2>({s, s})
// as ambiguous before), and kernels on every execution space check the extents they see
// and that the local and private memory hold that many elements.
#include <kapi/atomic_ref.hpp>
#include <kapi/barrier.hpp>
#include <kapi/item.hpp>
#include <kapi/launch.hpp>
#include <kapi/local_accessor.hpp>
#include <kapi/private_array.hpp>
#include <kapi/range.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "execution_spaces.hpp"

namespace {

// ------------------------------------------------------------------- Range and NdRange

constexpr kapi::Range<2> r_braced{3, 5};
constexpr kapi::Range<2> r_paren(3, 5);
constexpr kapi::Range<2> r_copy_list = {3, 5};
constexpr kapi::Range r_ctad{3, 5};
constexpr kapi::Range r_ctad_paren(3u, std::size_t(5));
constexpr kapi::Range<2> r_braced_arg({3, 5});
constexpr kapi::Range r_ctad_array(std::array<std::size_t, 2>{3, 5});
constexpr kapi::Range<2> r_array(std::array<int, 2>{3, 5});
constexpr kapi::Range<1> r_one = 7;
constexpr kapi::Range r_three{2, 3, std::int64_t(4)};
static_assert(std::is_same_v<decltype(r_ctad), const kapi::Range<2>>);
static_assert(std::is_same_v<decltype(r_ctad_array), const kapi::Range<2>>);
static_assert(std::is_same_v<decltype(r_three), const kapi::Range<3>>);
static_assert(r_braced[0] == 3 && r_braced[1] == 5 && r_paren[1] == 5 && r_copy_list[1] == 5 && r_ctad[1] == 5 &&
              r_ctad_paren[1] == 5 && r_braced_arg[1] == 5 && r_ctad_array[1] == 5 && r_array[1] == 5 &&
              r_one[0] == 7 && r_three.size() == 24);

const kapi::NdRange<2> nd_braced({8, 12}, {4, 6});
const kapi::NdRange nd_ctad({8, 12}, {4, 6});
const kapi::NdRange nd_ctad_ranges(kapi::Range{8, 12}, kapi::Range{4, 6});
const kapi::NdRange nd_ctad_mixed(kapi::Range{8, 12}, {4, 6});
const kapi::NdRange<2> nd_list{{8, 12}, {4, 6}};
const kapi::NdRange nd_arrays(std::array<std::size_t, 2>{8, 12}, std::array<int, 2>{4, 6});
const kapi::NdRange nd_one(64, 16);
const kapi::NdRange<1> nd_one_int(64u, 16);
const kapi::NdRange nd_three({4, 4, 8}, {2, 2, 4});
static_assert(std::is_same_v<decltype(nd_ctad), const kapi::NdRange<2>>);
static_assert(std::is_same_v<decltype(nd_ctad_ranges), const kapi::NdRange<2>>);
static_assert(std::is_same_v<decltype(nd_ctad_mixed), const kapi::NdRange<2>>);
static_assert(std::is_same_v<decltype(nd_arrays), const kapi::NdRange<2>>);
static_assert(std::is_same_v<decltype(nd_one), const kapi::NdRange<1>>);
static_assert(std::is_same_v<decltype(nd_three), const kapi::NdRange<3>>);

TEST(Shapes, RangeAndNdRangeSpellings) {
  for (const auto& nd : {nd_braced, nd_ctad, nd_ctad_ranges, nd_ctad_mixed, nd_list, nd_arrays}) {
    EXPECT_EQ(nd.global[0], 8u);
    EXPECT_EQ(nd.global[1], 12u);
    EXPECT_EQ(nd.local[0], 4u);
    EXPECT_EQ(nd.local[1], 6u);
  }
  EXPECT_EQ(nd_one.global[0], 64u);
  EXPECT_EQ(nd_one.local[0], 16u);
  EXPECT_EQ(nd_one_int.local[0], 16u);
  EXPECT_EQ(nd_three.get_group_range()[2], 2u);
}

// ----------------------------------------------------------------------- LocalAccessor

// Every spelling of a 2-d shape, from integers of several types (the variables a host
// program has at hand: a std::size_t, an int, an unsigned, a 64-bit count).
std::vector<kapi::LocalAccessor<float, 2>> local_accessor_spellings(std::size_t s, int t, unsigned u, std::int64_t v) {
  kapi::LocalAccessor<float, 2> a(s, s);                  // extents
  kapi::LocalAccessor<float, 2> b({s, s});                // numba-dpex's LocalAccessor((s, s), ...)
  kapi::LocalAccessor<float, 2> c{s, s};                  // braces
  kapi::LocalAccessor<float, 2> d = {s, s};               // copy-list
  kapi::LocalAccessor<float, 2> e(kapi::Range<2>{s, s});  // SYCL's local_accessor<T, 2>(range<2>{s, s}, h)
  kapi::LocalAccessor<float, 2> f(kapi::Range<2>(s, s));
  kapi::LocalAccessor<float, 2> g(kapi::Range{s, s});  // CTAD Range
  const kapi::Range<2> shape{s, s};
  kapi::LocalAccessor<float, 2> h(shape);  // a Range variable
  kapi::LocalAccessor<float, 2> i(std::array<std::size_t, 2>{s, s});
  kapi::LocalAccessor<float, 2> j({t, t});  // int extents
  kapi::LocalAccessor<float, 2> k({u, u});  // unsigned
  kapi::LocalAccessor<float, 2> l({v, v});  // 64-bit
  kapi::LocalAccessor<float, 2> m({s, t});  // mixed types
  kapi::LocalAccessor<float, 2> n(t, u);
  kapi::LocalAccessor<float, 2> o{v, s};
  kapi::LocalAccessor<float, 2> p({4, 4});  // literals
  kapi::LocalAccessor<float, 2> q({s, 4});  // a variable and a literal
  kapi::LocalAccessor<float, 2> r{{s, s}};
  return {a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q, r};
}

// The same for one and three dimensions.
std::vector<kapi::LocalAccessor<double, 1>> local_accessor_spellings_1d(std::size_t s, int t) {
  kapi::LocalAccessor<double, 1> a(s);
  kapi::LocalAccessor<double, 1> b({s});
  kapi::LocalAccessor<double, 1> c{s};
  kapi::LocalAccessor<double, 1> d(kapi::Range<1>{s});
  kapi::LocalAccessor<double, 1> e(kapi::Range{s});
  kapi::LocalAccessor<double, 1> f(t);
  kapi::LocalAccessor<double, 1> g({t});
  kapi::LocalAccessor<double> h(std::array<int, 1>{t});
  return {a, b, c, d, e, f, g, h};
}
std::vector<kapi::LocalAccessor<int, 3>> local_accessor_spellings_3d(std::size_t s, int t) {
  kapi::LocalAccessor<int, 3> a(s, s, s);
  kapi::LocalAccessor<int, 3> b({s, s, s});
  kapi::LocalAccessor<int, 3> c{s, s, s};
  kapi::LocalAccessor<int, 3> d(kapi::Range<3>{s, s, s});
  kapi::LocalAccessor<int, 3> e({t, t, t});
  kapi::LocalAccessor<int, 3> f({s, t, 4});
  return {a, b, c, d, e, f};
}

// An explicit-only shape: no integer converts to a LocalAccessor by accident.
static_assert(!std::is_convertible_v<int, kapi::LocalAccessor<float, 1>>);
static_assert(!std::is_convertible_v<kapi::Range<2>, kapi::LocalAccessor<float, 2>>);
static_assert(std::is_constructible_v<kapi::LocalAccessor<float, 2>, std::size_t, int>);
static_assert(!std::is_constructible_v<kapi::LocalAccessor<float, 2>, std::size_t>);
static_assert(!std::is_constructible_v<kapi::LocalAccessor<float, 2>, kapi::Range<3>>);

// A work-group sees the accessor's extents and can use all of its elements: each
// work-item fills its share of the tile with its global linear id + the element index,
// and after a barrier work-item 0 of each group sums the whole tile.
struct UseTile {
  template <class Out>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it, const kapi::LocalAccessor<float, 2>& tile,
                                         const Out& out) const {
    const std::size_t rows = tile.get_range()[0], cols = tile.get_range()[1];
    const std::size_t lid = it.get_local_id(0), items = it.get_local_range(0);
    for (std::size_t e = lid; e < rows * cols; e += items) tile(e / cols, e % cols) = float(e);
    kapi::group_barrier(it.get_group());
    if (lid == 0) {
      float sum = 0;
      for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < cols; ++c) sum += tile(r, c);
      const std::size_t g = it.get_group().get_group_linear_id();
      out(g, 0) = float(rows);
      out(g, 1) = float(cols);
      out(g, 2) = sum;
    }
  }
};

template <class Space>
class Shapes : public ::testing::Test {};
KAPI_TYPED_TEST_SUITE(Shapes);

TYPED_TEST(Shapes, LocalAccessorSpellingsGiveTheirShapeToKernels) {
  using Memory = typename TypeParam::memory_space;
  const std::size_t s = 4;
  const auto all = local_accessor_spellings(s, 4, 4u, 4);
  ASSERT_EQ(all.size(), 18u);
  for (std::size_t k = 0; k < all.size(); ++k) {
    EXPECT_EQ(all[k].get_range()[0], 4u) << "spelling " << k;
    EXPECT_EQ(all[k].get_range()[1], 4u) << "spelling " << k;
    Kokkos::View<float**, Kokkos::LayoutRight, Memory> out("out", 3, 3);
    kapi::call_kernel(TypeParam(), UseTile{}, kapi::NdRange<1>({24}, {8}), all[k], out);
    const auto h = kapi_test::to_host(out);
    for (std::size_t g = 0; g < 3; ++g) {
      EXPECT_EQ(h(g, 0), 4.0f) << "spelling " << k;
      EXPECT_EQ(h(g, 1), 4.0f) << "spelling " << k;
      EXPECT_EQ(h(g, 2), 120.0f) << "spelling " << k;  // 0 + 1 + ... + 15
    }
  }
  for (const auto& a : local_accessor_spellings_1d(12, 12)) {
    EXPECT_EQ(a.get_range()[0], 12u);
    EXPECT_EQ(a.byte_size(), 12 * sizeof(double));
  }
  for (const auto& a : local_accessor_spellings_3d(4, 4)) EXPECT_EQ(a.get_range().size(), 64u);
  // Mixed extents keep their order.
  const kapi::LocalAccessor<float, 2> m({std::size_t(2), 5});
  EXPECT_EQ(m.get_range()[0], 2u);
  EXPECT_EQ(m.get_range()[1], 5u);
  const kapi::LocalAccessor<int, 3> f({std::size_t(2), 3, 4});
  EXPECT_EQ(f.get_range()[2], 4u);
}

// ------------------------------------------------------------------------ PrivateArray

static_assert(std::is_same_v<decltype(kapi::PrivateArray<float, 4, 3>::get_range()), kapi::Range<2>>);
static_assert(kapi::PrivateArray<float, 4, 3>::get_range()[1] == 3);
static_assert(kapi::PrivateArray<float[4][3]>::get_range()[0] == 4 &&
              kapi::PrivateArray<float[4][3]>::get_range()[1] == 3);
static_assert(kapi::PrivateArray<float[4][3]>::size() == 12 && kapi::PrivateArray<int[5]>::dimensions == 1);
static_assert(kapi::PrivateArray<double[2][3][4]>::get_range().size() == 24);
static_assert(sizeof(kapi::PrivateArray<float[4][3]>) == sizeof(float) * 12);
static_assert(std::is_base_of_v<kapi::PrivateArray<float, 4, 3>, kapi::PrivateArray<float[4][3]>>);

// Each spelling filled with (row, column) codes and read back in row-major order.
template <class Out>
struct UsePrivate {
  Out out;
  template <class A>
  KOKKOS_INLINE_FUNCTION static float fill_and_sum(A& a) {
    for (std::size_t r = 0; r < 4; ++r)
      for (std::size_t c = 0; c < 3; ++c) a(r, c) += float(10 * r + c);
    float sum = 0;
    for (std::size_t e = 0; e < a.size(); ++e) sum += a[e] * float(e + 1);  // the row-major order counts
    return sum;
  }
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::Item<1>& it) const {
    kapi::PrivateArray<float, 4, 3> a(true);  // zero-filled (fill_zeros)
    kapi::PrivateArray<float[4][3]> b(true);  // the array-type spelling
    kapi::PrivateArray<float, 4, 3> c{};      // value-initialised: zeros
    const std::size_t i = it.get_id(0);
    out(i, 0) = fill_and_sum(a);
    out(i, 1) = fill_and_sum(b);
    out(i, 2) = fill_and_sum(c);
    out(i, 3) = float(b.get_range()[0] * 10 + b.get_range()[1]);
  }
};

TYPED_TEST(Shapes, PrivateArraySpellings) {
  using Memory = typename TypeParam::memory_space;
  using Out = Kokkos::View<float**, Kokkos::LayoutRight, Memory>;
  Out out("out", 16, 4);
  kapi::call_kernel(TypeParam(), UsePrivate<Out>{out}, kapi::Range<1>{16});
  float expect = 0;  // sum over row-major element e = 3r + c of (10r + c)(e + 1)
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 3; ++c) expect += float(10 * r + c) * float(3 * r + c + 1);
  const auto h = kapi_test::to_host(out);
  for (std::size_t i = 0; i < 16; ++i) {
    EXPECT_EQ(h(i, 0), expect);
    EXPECT_EQ(h(i, 1), expect);
    EXPECT_EQ(h(i, 2), expect);
    EXPECT_EQ(h(i, 3), 43.0f);
  }
}

// ------------------------------------------------------------- launches in each spelling

struct CountItems {
  template <int N, class Out>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<N>& it, const Out& out) const {
    kapi::AtomicRef(out, 0).fetch_add(1);
    if (it.get_global_linear_id() == 0) out(1) = int(it.get_local_linear_range());
  }
};

TYPED_TEST(Shapes, LaunchesTakeEverySpelling) {
  using Memory = typename TypeParam::memory_space;
  Kokkos::View<int*, Memory> out("out", 2);
  const std::size_t g = 8;
  const int l = 4;
  auto run = [&](const auto& nd, int items, int group) {
    Kokkos::deep_copy(out, 0);
    kapi::call_kernel(TypeParam(), CountItems{}, nd, out);
    const auto h = kapi_test::to_host(out);
    EXPECT_EQ(h(0), items);
    EXPECT_EQ(h(1), group);
  };
  run(kapi::NdRange<2>({g, g}, {l, l}), 64, 16);
  run(kapi::NdRange({g, g}, {4, 4}), 64, 16);
  run(kapi::NdRange(kapi::Range{g, g}, kapi::Range{l, l}), 64, 16);
  run(kapi::NdRange<1>(g, l), 8, 4);
  run(kapi::NdRange(g, l), 8, 4);
  run(kapi::NdRange({g, g, g}, {2, 2, 2}), 512, 8);
}

}  // namespace
