// SPDX-License-Identifier: Apache-2.0
// kapi/tile_copy.hpp: tiles copied into local memory and back out by a small nd-range
// kernel, for every layout (row-major, padded, transposed, panels), copy mode and kind of
// source View, checked against values computed here on the host, element by element
// where the layout puts them.
#include <gtest/gtest.h>

#include <kapi/barrier.hpp>
#include <kapi/item.hpp>
#include <kapi/launch.hpp>
#include <kapi/local_accessor.hpp>
#include <kapi/range.hpp>
#include <kapi/tile_copy.hpp>

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "execution_spaces.hpp"
#include "expected_tile_layout.hpp"
#include "value_types.hpp"

namespace {

namespace tile_layout = kapi::tile_layout;
using kapi_test::ExpectedLayout;

template <class Space>
struct TileCopy : ::testing::Test {};
KAPI_TYPED_TEST_SUITE(TileCopy);

enum class CopyMode {
  copy,       // TileCopy::copy (fetch, then store)
  copy_rows,  // TileCopy::copy_rows (no staging)
  pipelined,  // fetch of the next block while this one is read, two local buffers
};
const char* mode_name(CopyMode m) {
  return m == CopyMode::copy ? "copy" : m == CopyMode::copy_rows ? "copy_rows" : "pipelined";
}

// Group (gr, gc) copies `steps` consecutive blocks of a row of blocks, starting at
// (row0 + gr·Rows, col0 + gc·steps·Cols), into local memory, and writes each block from
// there to out at (gr·Rows, (gc·steps + s)·Cols). Local memory is first filled with a
// sentinel, and the last buffer is dumped to `raw` as it lies, so that the test sees
// where each element went and that nothing outside the layout's elements was written.
template <class T, int Rows, int Cols, int Items, class Layout>
struct TileRoundTrip {
  using Copy = kapi::TileCopy<T, Rows, Cols, Items, Layout>;
  std::size_t row0, col0;
  int steps;
  int buffer_size;  // elements per local buffer, a multiple of 16 bytes
  CopyMode mode;
  T sentinel;

  template <class Src, class Out, class Raw>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<2>& it, const Src& src, const Out& out, const Raw& raw,
                                         const kapi::LocalAccessor<T, 1>& buffers) const {
    const int item = static_cast<int>(it.get_local_id(1));
    const std::size_t gr = it.get_group().get_group_id(0), gc = it.get_group().get_group_id(1);
    for (int e = item; e < 2 * buffer_size; e += Items) buffers[e] = sentinel;
    kapi::group_barrier(it.get_group());
    T* const buffer[2] = {buffers.get_pointer(), buffers.get_pointer() + buffer_size};
    const std::size_t row = row0 + gr * Rows;
    const auto col = [&](int s) { return col0 + (gc * steps + s) * Cols; };
    Copy copy;
    if (mode == CopyMode::copy_rows)
      Copy::copy_rows(src, row, col(0), buffer[0], item);
    else
      copy.copy(src, row, col(0), buffer[0], item);
    kapi::group_barrier(it.get_group());
    for (int s = 0; s < steps; ++s) {
      const bool more = mode == CopyMode::pipelined && s + 1 < steps;
      if (more) copy.fetch(src, row, col(s + 1), item);  // in registers while block s is read
      for (int e = item; e < Rows * Cols; e += Items) {
        const int r = e / Cols, c = e % Cols;
        out(gr * Rows + r, (gc * steps + s) * Cols + c) = buffer[s % 2][Layout::offset(r, c)];
      }
      if (more) copy.store(buffer[(s + 1) % 2], item);
      kapi::group_barrier(it.get_group());
    }
    const std::size_t group = it.get_group().get_group_linear_id();
    for (int e = item; e < buffer_size; e += Items) raw(group * buffer_size + e) = buffer[(steps - 1) % 2][e];
  }
};

/// A source View and the values it holds: value(i, j) of element (i, j), computed on the host.
struct SourceValues {
  std::size_t rows, cols, column_offset;  // column_offset: where the View starts in its parent
  double value(std::size_t i, std::size_t j) const { return double(1 + i * 97 + (j + column_offset)); }
};

/// One round trip's shape: its groups, their buffers and what the kernel writes.
template <class T, int Rows, int Cols, int Items, class Layout>
struct RoundTrip {
  using Kernel = TileRoundTrip<T, Rows, Cols, Items, Layout>;
  using Expected = ExpectedLayout<Layout>;
  SourceValues values;
  std::size_t row0, col0;
  CopyMode mode;
  static constexpr int align = int(16 / sizeof(T)) > 1 ? int(16 / sizeof(T)) : 1;
  static constexpr T sentinel = T(-12345);
  int steps = mode == CopyMode::pipelined ? 3 : 1;
  int buffer_size = int((Expected::size(Rows, Cols) + align - 1) / align * align);
  // Enough groups to cover the View from (row0, col0), and one more row and column of
  // them wholly outside it (all zeros).
  std::size_t groups_r = (values.rows - row0 + Rows - 1) / Rows + 1;
  std::size_t groups_c = (values.cols - col0 + steps * Cols - 1) / (steps * Cols) + 1;
  std::size_t out_rows = groups_r * Rows, out_cols = groups_c * steps * Cols;

  // What the kernel wrote against what it should have, compiled once per shape (not per
  // kind of source View).
  template <class Out, class Raw>
  void expect(const Out& out, const Raw& raw, const std::string& what) const;
};

template <class Space, class T, int Rows, int Cols, int Items, class Layout, class Src>
void check_round_trip(const Src& src, const SourceValues& values, std::size_t row0, std::size_t col0, CopyMode mode,
                      const std::string& what) {
  using Trip = RoundTrip<T, Rows, Cols, Items, Layout>;
  const Trip trip{values, row0, col0, mode};
  Kokkos::View<T**, Kokkos::LayoutRight, typename Space::memory_space> out("out", trip.out_rows, trip.out_cols);
  Kokkos::View<T*, typename Space::memory_space> raw("raw", trip.groups_r * trip.groups_c * trip.buffer_size);
  kapi::LocalAccessor<T, 1> buffers(2 * std::size_t(trip.buffer_size));
  kapi::call_kernel(Space(), typename Trip::Kernel{row0, col0, trip.steps, trip.buffer_size, mode, trip.sentinel},
                    kapi::NdRange<2>({trip.groups_r, trip.groups_c * Items}, {1, std::size_t(Items)}), src, out, raw,
                    buffers);
  trip.expect(out, raw, what);
}

/// What a round trip wrote, against what it should have, for tiles of `rows` x `cols`
/// whose element (r, c) the layout puts at at[r * cols + c]: compiled once per value type,
/// not per shape (the shape's compile-time values passed as run-time ones).
struct TripShape {
  SourceValues values;
  std::size_t row0, col0;
  CopyMode mode;
  int rows, cols, width, steps, buffer_size;
  std::size_t groups_r, groups_c, out_rows, out_cols;
  std::vector<std::size_t> at;
};

template <class T, class Out, class Raw>
void expect_round_trip(const TripShape& t, T sentinel, const Out& out, const Raw& raw, const std::string& what) {
  const auto expected = [&](std::size_t i, std::size_t j) {  // element (i, j) of out
    const std::size_t si = t.row0 + i, sj = t.col0 + j;
    return si < t.values.rows && sj < t.values.cols ? T(t.values.value(si, sj)) : T(0);
  };
  const std::string context = what + ", " + mode_name(t.mode) + ", block origin (" + std::to_string(t.row0) + ", " +
                              std::to_string(t.col0) + "), " + std::to_string(sizeof(T) * 8) + "-bit, " +
                              std::to_string(t.rows) + "x" + std::to_string(t.cols) + " tile, width " +
                              std::to_string(t.width);
  auto h = kapi_test::to_host(out);
  for (std::size_t i = 0; i < t.out_rows; ++i)
    for (std::size_t j = 0; j < t.out_cols; ++j)
      ASSERT_EQ(h(i, j), expected(i, j)) << "out(" << i << ", " << j << "): " << context;

  // Every group's last buffer, element by element where the layout puts it; sentinels elsewhere.
  auto hraw = kapi_test::to_host(raw);
  std::vector<T> want(t.buffer_size);
  for (std::size_t gr = 0; gr < t.groups_r; ++gr)
    for (std::size_t gc = 0; gc < t.groups_c; ++gc) {
      std::fill(want.begin(), want.end(), sentinel);
      for (int r = 0; r < t.rows; ++r)
        for (int c = 0; c < t.cols; ++c)
          want[t.at[std::size_t(r) * t.cols + c]] =
              expected(gr * t.rows + r, (gc * t.steps + t.steps - 1) * t.cols + c);
      const std::size_t base = (gr * t.groups_c + gc) * t.buffer_size;
      for (int e = 0; e < t.buffer_size; ++e)
        ASSERT_EQ(hraw(base + e), want[e])
            << "local memory element " << e << " of group (" << gr << ", " << gc << "): " << context;
    }
}

template <class T, int Rows, int Cols, int Items, class Layout>
template <class Out, class Raw>
void RoundTrip<T, Rows, Cols, Items, Layout>::expect(const Out& out, const Raw& raw, const std::string& what) const {
  TripShape t{values, row0,        col0,     mode,     Rows,     Cols,     Kernel::Copy::width,
              steps,  buffer_size, groups_r, groups_c, out_rows, out_cols, {}};
  t.at.resize(std::size_t(Rows) * Cols);
  for (int r = 0; r < Rows; ++r)
    for (int c = 0; c < Cols; ++c) t.at[std::size_t(r) * Cols + c] = Expected::at(r, c);
  expect_round_trip<T>(t, sentinel, out, raw, what);
}

// A source View filled with values.value(i, j): compiled per View type, not per shape.
template <class View>
void fill(const View& view, const SourceValues& values) {
  using T = typename View::value_type;
  auto h = Kokkos::create_mirror_view(view);
  for (std::size_t i = 0; i < h.extent(0); ++i)
    for (std::size_t j = 0; j < h.extent(1); ++j) h(i, j) = T(values.value(i, j));
  Kokkos::deep_copy(view, h);
}

/// Every mode and kind of source View, with blocks inside the View and hanging over its
/// right and bottom edges, starting at and off a vector boundary.
template <class Space, class T, int Rows, int Cols, int Items, class Layout>
void check_tile_copy() {
  using Memory = typename Space::memory_space;
  using Copy = kapi::TileCopy<T, Rows, Cols, Items, Layout>;
  const std::size_t rows = 2 * Rows + 3, cols = 2 * Cols + 1;

  // LayoutRight, 16-byte aligned rows when cols allows: the vector path.
  Kokkos::View<T**, Kokkos::LayoutRight, Memory> right("right", rows, cols * Copy::width);
  const SourceValues right_values{rows, cols * Copy::width, 0};
  fill(right, right_values);
  // Rows cols * width + 1 apart: an aligned start but unaligned rows (when width > 1).
  Kokkos::View<T**, Kokkos::LayoutRight, Memory> wide("wide", rows, cols * Copy::width + 1);
  fill(wide, SourceValues{rows, cols * Copy::width + 1, 0});
  auto unaligned_rows = Kokkos::subview(wide, Kokkos::ALL, std::make_pair(std::size_t(0), cols * Copy::width));
  // LayoutLeft: columns contiguous, the element-by-element path.
  Kokkos::View<T**, Kokkos::LayoutLeft, Memory> left("left", rows, cols);
  const SourceValues left_values{rows, cols, 0};
  fill(left, left_values);

  // Kinds of source; the subviews share their parent's values, shifted where they start later.
  auto shifted = Kokkos::subview(right, Kokkos::ALL, std::make_pair(std::size_t(1), right.extent(1)));
  auto cut = Kokkos::subview(right, Kokkos::ALL, std::make_pair(std::size_t(0), right.extent(1) - 1));
  const SourceValues shifted_values{rows, right.extent(1) - 1, 1}, cut_values{rows, right.extent(1) - 1, 0};

  for (CopyMode mode : {CopyMode::copy, CopyMode::copy_rows, CopyMode::pipelined})
    for (std::size_t col0 : {std::size_t(0), std::size_t(Copy::width), std::size_t(1)})
      for (std::size_t row0 : {std::size_t(0), std::size_t(2)}) {
        const auto check = [&](const auto& src, const SourceValues& values, const char* what) {
          check_round_trip<Space, T, Rows, Cols, Items, Layout>(src, values, row0, col0, mode, what);
        };
        check(right, right_values, "LayoutRight");
        check(shifted, shifted_values, "subview from column 1 (misaligned data)");
        check(cut, cut_values, "subview without the last column (edge inside a vector)");
        check(unaligned_rows, right_values, "rows not 16-byte multiples apart");
        check(left, left_values, "LayoutLeft");
        if (::testing::Test::HasFatalFailure()) return;
      }
}

// The vector width each shape gets (16 bytes where the row, the work split and the
// layout's rows allow it, narrower or 1 otherwise).
static_assert(kapi::TileCopy<float, 8, 8, 16, tile_layout::RowMajor<8>>::width == 4);
static_assert(kapi::TileCopy<double, 8, 8, 16, tile_layout::RowMajor<8>>::width == 2);
static_assert(kapi::TileCopy<float, 8, 8, 16, tile_layout::RowMajor<12>>::width == 4);
static_assert(kapi::TileCopy<float, 8, 8, 16, tile_layout::RowMajor<9>>::width == 1);
static_assert(kapi::TileCopy<float, 8, 8, 16, tile_layout::RowMajor<10>>::width == 2);
static_assert(kapi::TileCopy<float, 8, 8, 16, tile_layout::Transposed<9>>::width == 4);
static_assert(kapi::TileCopy<float, 8, 8, 16, tile_layout::Panels<8, 2>>::width == 2);
static_assert(kapi::TileCopy<float, 4, 8, 16, tile_layout::RowMajor<8>>::width == 2);  // work split: 32 / 16
static_assert(kapi::TileCopy<float, 5, 3, 5, tile_layout::RowMajor<3>>::width == 1);
static_assert(kapi::TileCopy<double, 5, 3, 5, tile_layout::Transposed<6>>::per_item == 3);

TYPED_TEST(TileCopy, RowMajor) {
  check_tile_copy<TypeParam, float, 8, 8, 16, tile_layout::RowMajor<8>>();
  check_tile_copy<TypeParam, double, 8, 8, 16, tile_layout::RowMajor<8>>();
  check_tile_copy<TypeParam, float, 4, 8, 16, tile_layout::RowMajor<8>>();
}

TYPED_TEST(TileCopy, RowMajorPadded) {
  check_tile_copy<TypeParam, float, 8, 8, 16, tile_layout::RowMajor<12>>();   // padded by a vector
  check_tile_copy<TypeParam, double, 8, 8, 16, tile_layout::RowMajor<10>>();  // padded by a vector
  check_tile_copy<TypeParam, float, 8, 8, 16, tile_layout::RowMajor<9>>();    // padded by one: scalar
  check_tile_copy<TypeParam, double, 8, 8, 16, tile_layout::RowMajor<9>>();
}

TYPED_TEST(TileCopy, Transposed) {
  check_tile_copy<TypeParam, float, 8, 8, 16, tile_layout::Transposed<9>>();
  check_tile_copy<TypeParam, double, 8, 8, 16, tile_layout::Transposed<12>>();
  check_tile_copy<TypeParam, float, 16, 4, 8, tile_layout::Transposed<20>>();
}

TYPED_TEST(TileCopy, Panels) {
  check_tile_copy<TypeParam, float, 8, 8, 16, tile_layout::Panels<8, 4>>();
  check_tile_copy<TypeParam, float, 8, 8, 16, tile_layout::Panels<8, 2>>();
  check_tile_copy<TypeParam, double, 8, 8, 16, tile_layout::Panels<8, 4>>();
}

TYPED_TEST(TileCopy, NarrowRows) {  // Cols = 3: no vector width applies
  check_tile_copy<TypeParam, float, 5, 3, 5, tile_layout::RowMajor<3>>();
  check_tile_copy<TypeParam, double, 5, 3, 5, tile_layout::RowMajor<4>>();
  check_tile_copy<TypeParam, float, 5, 3, 5, tile_layout::Transposed<5>>();
  check_tile_copy<TypeParam, double, 5, 3, 5, tile_layout::Transposed<6>>();
  check_tile_copy<TypeParam, float, 5, 3, 15, tile_layout::Panels<5, 3>>();
}

// Panels whose width does not divide the tile's columns: the last panel of a row is
// partial, and copy_rows must stop at the tile's edge (not read or write a whole panel).
TYPED_TEST(TileCopy, PanelsPartialLastPanel) {
  check_tile_copy<TypeParam, float, 4, 6, 4, tile_layout::Panels<4, 4>>();
}

}  // namespace
