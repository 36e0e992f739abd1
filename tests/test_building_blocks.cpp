// The kernel building blocks (kapi/vec.hpp, tile_copy.hpp, register_block.hpp,
// launch_bounds.hpp), each used from a small nd-range kernel and checked against values
// computed here on the host: tiles copied into local memory and back out for every
// layout and kind of source View, a small GEMM with every fragment kind against a
// double-precision product, and the launch checks a kernel's LaunchBounds bring.
#include <gmock/gmock.h>

#include <kapi/kapi.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "execution_spaces.hpp"
#include "random_matrix.hpp"

namespace {

namespace layout = kapi::tile_layout;

// ---------------------------------------------------------------------------------------
// Vec

template <class T, int W>
struct DoubleAndAddLane {  // dst = 2 * src + lane, one Vec per work-item
  template <class View>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::Item<1>& it, const View& src, const View& dst) const {
    const std::size_t at = it.get_id(0) * W;
    kapi::Vec<T, W> v = kapi::Vec<T, W>::load(&src(at));
    for (int w = 0; w < W; ++w) v[w] = T(2) * v[w] + T(w);
    v.store(&dst(at));
  }
};

template <class T, int W, class Space>
void check_vec_round_trip() {
  const std::size_t vectors = 37, n = vectors * W;
  auto src = kapi_test::make_view<T, Space>("src", n, [](std::size_t i) { return T(3 * i + 1); });
  Kokkos::View<T*, typename Space::memory_space> dst("dst", n);
  // Kokkos allocations are aligned far beyond 16 bytes; the kernel relies on it.
  ASSERT_TRUE((kapi::Vec<T, W>::aligned(src.data()) && kapi::Vec<T, W>::aligned(dst.data())));
  kapi::call_kernel(Space(), DoubleAndAddLane<T, W>{}, kapi::Range<1>(vectors), src, dst);
  auto h = kapi_test::to_host(dst);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(h(i), T(2 * (3 * i + 1) + i % W)) << "element " << i << ", W " << W;
}

template <class Space>
struct BuildingBlocks : ::testing::Test {};
KAPI_TYPED_TEST_SUITE(BuildingBlocks);

TEST(Vec, ShapeAndWidths) {
  static_assert(sizeof(kapi::Vec<float, 4>) == 16 && alignof(kapi::Vec<float, 4>) == 16);
  static_assert(sizeof(kapi::Vec<double, 4>) == 32 && alignof(kapi::Vec<double, 4>) == 32);
  static_assert(kapi::Vec<float, 4>::width == 4);
  static_assert(kapi::vec_width_16_bytes<float> == 4 && kapi::vec_width_16_bytes<double> == 2);
  static_assert(kapi::vec_width_16_bytes<char> == 16);
  struct Wide {
    double v[4];
  };
  static_assert(kapi::vec_width_16_bytes<Wide> == 1);
}

TEST(Vec, AlignedIsTrueOnlyAtMultiplesOfTheVectorSize) {
  alignas(64) float f[16] = {};
  alignas(64) double d[16] = {};
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ((kapi::Vec<float, 4>::aligned(f + i)), i % 4 == 0) << i;
    EXPECT_EQ((kapi::Vec<float, 2>::aligned(f + i)), i % 2 == 0) << i;
    EXPECT_TRUE((kapi::Vec<float, 1>::aligned(f + i))) << i;
    EXPECT_EQ((kapi::Vec<double, 2>::aligned(d + i)), i % 2 == 0) << i;
    EXPECT_EQ((kapi::Vec<double, 4>::aligned(d + i)), i % 4 == 0) << i;
  }
  // A pointer that is not even element-aligned is never Vec-aligned.
  const auto* odd = reinterpret_cast<const float*>(reinterpret_cast<const char*>(f) + 2);
  EXPECT_FALSE((kapi::Vec<float, 4>::aligned(odd)));
}

TEST(Vec, LoadAndStoreOnTheHost) {
  alignas(16) float src[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  alignas(16) float dst[8] = {};
  const auto v = kapi::Vec<float, 4>::load(src + 4);
  EXPECT_EQ(v[0], 5.f);
  EXPECT_EQ(v[3], 8.f);
  v.store(dst);
  EXPECT_THAT(dst, ::testing::ElementsAre(5, 6, 7, 8, 0, 0, 0, 0));
}

TYPED_TEST(BuildingBlocks, VecRoundTripInAKernel) {
  check_vec_round_trip<float, 4, TypeParam>();
  check_vec_round_trip<float, 2, TypeParam>();
  check_vec_round_trip<double, 2, TypeParam>();
  check_vec_round_trip<double, 1, TypeParam>();
}

// ---------------------------------------------------------------------------------------
// TileCopy

// Where each layout puts element (r, c) of a tile, and how much memory it spans, written
// out here from the layouts' descriptions (not from their code).
template <class Layout>
struct ExpectedLayout;
template <int Stride>
struct ExpectedLayout<layout::RowMajor<Stride>> {
  static std::size_t at(int r, int c) { return std::size_t(r) * Stride + c; }
  static std::size_t size(int rows, int) { return std::size_t(rows) * Stride; }
};
template <int Stride>
struct ExpectedLayout<layout::Transposed<Stride>> {
  static std::size_t at(int r, int c) { return std::size_t(c) * Stride + r; }
  static std::size_t size(int, int cols) { return std::size_t(cols) * Stride; }
};
template <int Rows, int PanelCols>
struct ExpectedLayout<layout::Panels<Rows, PanelCols>> {
  static std::size_t at(int r, int c) {
    const int panel = c / PanelCols;
    return std::size_t(panel) * Rows * PanelCols + std::size_t(r) * PanelCols + (c - panel * PanelCols);
  }
  static std::size_t size(int, int cols) { return std::size_t((cols + PanelCols - 1) / PanelCols) * Rows * PanelCols; }
};

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
    if (mode == CopyMode::copy_rows) Copy::copy_rows(src, row, col(0), buffer[0], item);
    else copy.copy(src, row, col(0), buffer[0], item);
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

template <class Space, class T, int Rows, int Cols, int Items, class Layout, class Src>
void check_round_trip(const Src& src, const SourceValues& values, std::size_t row0, std::size_t col0, CopyMode mode,
                      const std::string& what) {
  using Kernel = TileRoundTrip<T, Rows, Cols, Items, Layout>;
  using Expected = ExpectedLayout<Layout>;
  const int steps = mode == CopyMode::pipelined ? 3 : 1;
  const int align = int(16 / sizeof(T)) > 1 ? int(16 / sizeof(T)) : 1;
  const int buffer_size = int((Expected::size(Rows, Cols) + align - 1) / align * align);
  const T sentinel = T(-12345);
  // Enough groups to cover the View from (row0, col0), and one more row and column of
  // them wholly outside it (all zeros).
  const std::size_t groups_r = (values.rows - row0 + Rows - 1) / Rows + 1;
  const std::size_t groups_c = (values.cols - col0 + steps * Cols - 1) / (steps * Cols) + 1;
  const std::size_t out_rows = groups_r * Rows, out_cols = groups_c * steps * Cols;
  Kokkos::View<T**, Kokkos::LayoutRight, typename Space::memory_space> out("out", out_rows, out_cols);
  Kokkos::View<T*, typename Space::memory_space> raw("raw", groups_r * groups_c * buffer_size);
  kapi::LocalAccessor<T, 1> buffers(2 * std::size_t(buffer_size));
  kapi::call_kernel(Space(), Kernel{row0, col0, steps, buffer_size, mode, sentinel},
                    kapi::NdRange<2>({groups_r, groups_c * Items}, {1, std::size_t(Items)}), src, out, raw, buffers);

  const auto expected = [&](std::size_t i, std::size_t j) {  // element (i, j) of out
    const std::size_t si = row0 + i, sj = col0 + j;
    return si < values.rows && sj < values.cols ? T(values.value(si, sj)) : T(0);
  };
  const std::string context = what + ", " + mode_name(mode) + ", block origin (" + std::to_string(row0) + ", " +
                              std::to_string(col0) + "), " + std::to_string(sizeof(T) * 8) + "-bit, " +
                              std::to_string(Rows) + "x" + std::to_string(Cols) + " tile, width " +
                              std::to_string(Kernel::Copy::width);
  auto h = kapi_test::to_host(out);
  for (std::size_t i = 0; i < out_rows; ++i)
    for (std::size_t j = 0; j < out_cols; ++j)
      ASSERT_EQ(h(i, j), expected(i, j)) << "out(" << i << ", " << j << "): " << context;

  // Every group's last buffer, element by element where the layout puts it; sentinels elsewhere.
  auto hraw = kapi_test::to_host(raw);
  std::vector<T> want(buffer_size);
  for (std::size_t gr = 0; gr < groups_r; ++gr)
    for (std::size_t gc = 0; gc < groups_c; ++gc) {
      std::fill(want.begin(), want.end(), sentinel);
      for (int r = 0; r < Rows; ++r)
        for (int c = 0; c < Cols; ++c)
          want[Expected::at(r, c)] = expected(gr * Rows + r, (gc * steps + steps - 1) * Cols + c);
      const std::size_t base = (gr * groups_c + gc) * buffer_size;
      for (int e = 0; e < buffer_size; ++e)
        ASSERT_EQ(hraw(base + e), want[e]) << "local memory element " << e << " of group (" << gr << ", " << gc
                                           << "): " << context;
    }
}

/// Every mode and kind of source View, with blocks inside the View and hanging over its
/// right and bottom edges, starting at and off a vector boundary.
template <class Space, class T, int Rows, int Cols, int Items, class Layout>
void check_tile_copy() {
  using Memory = typename Space::memory_space;
  using Copy = kapi::TileCopy<T, Rows, Cols, Items, Layout>;
  const std::size_t rows = 2 * Rows + 3, cols = 2 * Cols + 1;
  const auto fill = [](auto& view, const SourceValues& values) {
    auto h = Kokkos::create_mirror_view(view);
    for (std::size_t i = 0; i < h.extent(0); ++i)
      for (std::size_t j = 0; j < h.extent(1); ++j) h(i, j) = T(values.value(i, j));
    Kokkos::deep_copy(view, h);
  };

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
static_assert(kapi::TileCopy<float, 8, 8, 16, layout::RowMajor<8>>::width == 4);
static_assert(kapi::TileCopy<double, 8, 8, 16, layout::RowMajor<8>>::width == 2);
static_assert(kapi::TileCopy<float, 8, 8, 16, layout::RowMajor<12>>::width == 4);
static_assert(kapi::TileCopy<float, 8, 8, 16, layout::RowMajor<9>>::width == 1);
static_assert(kapi::TileCopy<float, 8, 8, 16, layout::RowMajor<10>>::width == 2);
static_assert(kapi::TileCopy<float, 8, 8, 16, layout::Transposed<9>>::width == 4);
static_assert(kapi::TileCopy<float, 8, 8, 16, layout::Panels<8, 2>>::width == 2);
static_assert(kapi::TileCopy<float, 4, 8, 16, layout::RowMajor<8>>::width == 2);  // work split: 32 / 16
static_assert(kapi::TileCopy<float, 5, 3, 5, layout::RowMajor<3>>::width == 1);
static_assert(kapi::TileCopy<double, 5, 3, 5, layout::Transposed<6>>::per_item == 3);

TYPED_TEST(BuildingBlocks, TileCopyRowMajor) {
  check_tile_copy<TypeParam, float, 8, 8, 16, layout::RowMajor<8>>();
  check_tile_copy<TypeParam, double, 8, 8, 16, layout::RowMajor<8>>();
  check_tile_copy<TypeParam, float, 4, 8, 16, layout::RowMajor<8>>();
}

TYPED_TEST(BuildingBlocks, TileCopyRowMajorPadded) {
  check_tile_copy<TypeParam, float, 8, 8, 16, layout::RowMajor<12>>();   // padded by a vector
  check_tile_copy<TypeParam, double, 8, 8, 16, layout::RowMajor<10>>();  // padded by a vector
  check_tile_copy<TypeParam, float, 8, 8, 16, layout::RowMajor<9>>();    // padded by one: scalar
  check_tile_copy<TypeParam, double, 8, 8, 16, layout::RowMajor<9>>();
}

TYPED_TEST(BuildingBlocks, TileCopyTransposed) {
  check_tile_copy<TypeParam, float, 8, 8, 16, layout::Transposed<9>>();
  check_tile_copy<TypeParam, double, 8, 8, 16, layout::Transposed<12>>();
  check_tile_copy<TypeParam, float, 16, 4, 8, layout::Transposed<20>>();
}

TYPED_TEST(BuildingBlocks, TileCopyPanels) {
  check_tile_copy<TypeParam, float, 8, 8, 16, layout::Panels<8, 4>>();
  check_tile_copy<TypeParam, float, 8, 8, 16, layout::Panels<8, 2>>();
  check_tile_copy<TypeParam, double, 8, 8, 16, layout::Panels<8, 4>>();
}

TYPED_TEST(BuildingBlocks, TileCopyNarrowRows) {  // Cols = 3: no vector width applies
  check_tile_copy<TypeParam, float, 5, 3, 5, layout::RowMajor<3>>();
  check_tile_copy<TypeParam, double, 5, 3, 5, layout::RowMajor<4>>();
  check_tile_copy<TypeParam, float, 5, 3, 5, layout::Transposed<5>>();
  check_tile_copy<TypeParam, double, 5, 3, 5, layout::Transposed<6>>();
  check_tile_copy<TypeParam, float, 5, 3, 15, layout::Panels<5, 3>>();
}

// Panels whose width does not divide the tile's columns: the last panel of a row is
// partial, and copy_rows must stop at the tile's edge (not read or write a whole panel).
TYPED_TEST(BuildingBlocks, TileCopyPanelsPartialLastPanel) {
  check_tile_copy<TypeParam, float, 4, 6, 4, layout::Panels<4, 4>>();
}

// ---------------------------------------------------------------------------------------
// RegisterBlock: C = A·B, a BM×BN block of C per group, TM×TN per work-item, K in steps of
// BK through local memory. The fragment kinds differ in how the A and B tiles are laid out
// and read; FragmentA/B name the tile layouts and build each work-item's fragments.

constexpr int BM = 16, BN = 16, BK = 4, TM = 4, TN = 8;

// Host style: A row-major [BM][BK] read down a column (Strided), B row-major [BK][BN]
// read along a row (Contiguous); both read in place.
template <class T>
struct StridedA {
  using Layout = layout::RowMajor<BK>;
  KOKKOS_INLINE_FUNCTION static kapi::fragment::Strided<T, TM> make(const T* tile, int ty) {
    return {tile + ty * TM * BK, 1, BK};
  }
  KOKKOS_INLINE_FUNCTION static std::size_t first(int ty) { return std::size_t(ty) * TM; }
};
template <class T>
struct ContiguousB {
  using Layout = layout::RowMajor<BN>;
  KOKKOS_INLINE_FUNCTION static kapi::fragment::Contiguous<T, TN> make(const T* tile, int tx) {
    return {tile + tx * TN, BN};
  }
  KOKKOS_INLINE_FUNCTION static std::size_t first(int tx) { return std::size_t(tx) * TN; }
};
// Both transposed and padded: A [BK][BM + 1] along k, B [BN][BK + 1] with a stride of BK + 1.
template <class T>
struct TransposedStridedA {
  using Layout = layout::Transposed<BM + 1>;
  KOKKOS_INLINE_FUNCTION static kapi::fragment::Strided<T, TM> make(const T* tile, int ty) {
    return {tile + ty * TM, BM + 1, 1};
  }
  KOKKOS_INLINE_FUNCTION static std::size_t first(int ty) { return std::size_t(ty) * TM; }
};
template <class T>
struct TransposedStridedB {
  using Layout = layout::Transposed<BK + 1>;
  KOKKOS_INLINE_FUNCTION static kapi::fragment::Strided<T, TN> make(const T* tile, int tx) {
    return {tile + tx * TN * (BK + 1), 1, BK + 1};
  }
  KOKKOS_INLINE_FUNCTION static std::size_t first(int tx) { return std::size_t(tx) * TN; }
};
// Device style: a work-item's rows (columns) are runs of W, runs spread across the
// block, read as aligned Vecs from A transposed [BK][BM + W] and B row-major [BK][BN].
template <class T>
struct RunsA {
  static constexpr int W = kapi::vec_width_16_bytes<T>;
  using Layout = layout::Transposed<BM + W>;
  KOKKOS_INLINE_FUNCTION static kapi::fragment::Runs<T, TM, W> make(const T* tile, int ty) {
    return {tile + ty * W, BM + W, BM / (TM / W)};
  }
  KOKKOS_INLINE_FUNCTION static std::size_t first(int ty) { return std::size_t(ty) * W; }
};
template <class T>
struct RunsB {
  static constexpr int W = kapi::vec_width_16_bytes<T>;
  using Layout = layout::RowMajor<BN>;
  KOKKOS_INLINE_FUNCTION static kapi::fragment::Runs<T, TN, W> make(const T* tile, int tx) {
    return {tile + tx * W, BN, BN / (TN / W)};
  }
  KOKKOS_INLINE_FUNCTION static std::size_t first(int tx) { return std::size_t(tx) * W; }
};

template <class T, class FragmentA, class FragmentB>
struct BlockedProduct {
  static constexpr int rows = BM / TM, cols = BN / TN, items = rows * cols;
  using launch_bounds = kapi::LaunchBounds<items>;
  using ACopy = kapi::TileCopy<T, BM, BK, items, typename FragmentA::Layout>;
  using BCopy = kapi::TileCopy<T, BK, BN, items, typename FragmentB::Layout>;

  static kapi::NdRange<2> range(std::size_t m, std::size_t n) {
    return kapi::NdRange<2>({(m + BM - 1) / BM * rows, (n + BN - 1) / BN * cols},
                            {std::size_t(rows), std::size_t(cols)});
  }

  template <class A, class B, class C>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<2>& it, const A& a, const B& b, const C& c,
                                         const kapi::LocalAccessor<T, 1>& a_tile,
                                         const kapi::LocalAccessor<T, 1>& b_tile) const {
    const int ty = static_cast<int>(it.get_local_id(0)), tx = static_cast<int>(it.get_local_id(1));
    const int lid = ty * cols + tx;
    const std::size_t row0 = it.get_group().get_group_id(0) * BM, col0 = it.get_group().get_group_id(1) * BN;
    const auto a_fragment = FragmentA::make(a_tile.get_pointer(), ty);
    const auto b_fragment = FragmentB::make(b_tile.get_pointer(), tx);
    kapi::RegisterBlock<T, TM, TN> block;
    for (std::size_t k0 = 0; k0 < a.extent(1); k0 += BK) {
      ACopy().copy(a, row0, k0, a_tile.get_pointer(), lid);
      BCopy().copy(b, k0, col0, b_tile.get_pointer(), lid);
      kapi::group_barrier(it.get_group());
      block.template multiply_accumulate<BK>(a_fragment, b_fragment);
      kapi::group_barrier(it.get_group());
    }
    block.store(c, [&](int i) { return row0 + FragmentA::first(ty) + std::size_t(a_fragment.position(i)); },
                [&](int j) { return col0 + FragmentB::first(tx) + std::size_t(b_fragment.position(j)); });
  }
};

using kapi_test::random_matrix;

template <class Space, class T, class FragmentA, class FragmentB>
void check_blocked_product(std::size_t m, std::size_t n, std::size_t k, const char* fragments) {
  using Kernel = BlockedProduct<T, FragmentA, FragmentB>;
  const auto a = random_matrix<T, Space>("A", m, k, 1), b = random_matrix<T, Space>("B", k, n, 2);
  auto c = random_matrix<T, Space>("C", m, n, 3);
  Kokkos::deep_copy(c, T(-777));  // every element must be written
  kapi::LocalAccessor<T, 1> a_tile(ExpectedLayout<typename FragmentA::Layout>::size(BM, BK));
  kapi::LocalAccessor<T, 1> b_tile(ExpectedLayout<typename FragmentB::Layout>::size(BK, BN));
  kapi::call_kernel(Space(), Kernel{}, Kernel::range(m, n), a, b, c, a_tile, b_tile);
  auto ha = kapi_test::to_host(a);
  auto hb = kapi_test::to_host(b);
  auto hc = kapi_test::to_host(c);
  const double eps = std::numeric_limits<T>::epsilon();
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      double exact = 0, magnitude = 0;
      for (std::size_t q = 0; q < k; ++q) {
        exact += double(ha(i, q)) * double(hb(q, j));
        magnitude += std::abs(double(ha(i, q)) * double(hb(q, j)));
      }
      ASSERT_LE(std::abs(double(hc(i, j)) - exact), 2.0 * double(k + 1) * eps * magnitude + 1e-30)
          << "C(" << i << ", " << j << ") = " << hc(i, j) << ", exact " << exact << "; " << fragments << ", "
          << sizeof(T) * 8 << "-bit, " << m << "x" << n << "x" << k;
    }
}

template <class Space, class T, class FragmentA, class FragmentB>
void check_blocked_products(const char* fragments) {
  // One block, a single element, and sizes that are not multiples of BM, BN or BK.
  const std::size_t shapes[][3] = {{16, 16, 4}, {1, 1, 1}, {37, 29, 23}, {5, 70, 9}, {33, 17, 8}, {20, 3, 0}};
  for (const auto& s : shapes) {
    check_blocked_product<Space, T, FragmentA, FragmentB>(s[0], s[1], s[2], fragments);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

template <class Space, class T>
void check_every_fragment_kind() {
  check_blocked_products<Space, T, StridedA<T>, ContiguousB<T>>("Strided A, Contiguous B");
  check_blocked_products<Space, T, TransposedStridedA<T>, TransposedStridedB<T>>("Strided A and B, transposed tiles");
  check_blocked_products<Space, T, RunsA<T>, RunsB<T>>("Runs A and B");
  // Mixed: a Runs fragment makes the block read both fragments into registers first.
  check_blocked_products<Space, T, RunsA<T>, ContiguousB<T>>("Runs A, Contiguous B");
  check_blocked_products<Space, T, StridedA<T>, RunsB<T>>("Strided A, Runs B");
}

TYPED_TEST(BuildingBlocks, RegisterBlockProductFloat) { check_every_fragment_kind<TypeParam, float>(); }
TYPED_TEST(BuildingBlocks, RegisterBlockProductDouble) { check_every_fragment_kind<TypeParam, double>(); }

TEST(RegisterBlock, StartsAtZeroAndAccumulatesOuterProducts) {
  kapi::RegisterBlock<double, 2, 3> block;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_EQ(block(i, j), 0.0);
  // a(k, i) = column i of a 2x2 A^T; b(k, j) row k of B: acc = A·B with A = [[1, 3], [2, 4]].
  const double a[2][2] = {{1, 2}, {3, 4}};  // a[k][i]
  const double b[2][3] = {{1, 0, 2}, {0, 1, 3}};
  block.multiply_accumulate<2>(kapi::fragment::Contiguous<double, 2>{&a[0][0], 2},
                               kapi::fragment::Strided<double, 3>{&b[0][0], 3, 1});
  const double expected[2][3] = {{1, 3, 11}, {2, 4, 16}};
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_EQ(block(i, j), expected[i][j]) << i << ", " << j;
}

// ---------------------------------------------------------------------------------------
// LaunchBounds

struct WriteIds {
  template <int N, class Out>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<N>& it, const Out& out) const {
    out(it.get_global_linear_id()) = int(it.get_global_linear_id() * 3 + it.get_local_linear_id());
  }
};
struct WriteIdsBoundedTo64 : WriteIds {
  using launch_bounds = kapi::LaunchBounds<64>;
};
struct WriteIdsBoundedTo64TwoGroups : WriteIds {
  using launch_bounds = kapi::LaunchBounds<64, 2>;
};

static_assert(kapi::detail::launch_bounds_of<WriteIds>::max_work_items == 0);
static_assert(kapi::detail::launch_bounds_of<WriteIdsBoundedTo64>::max_work_items == 64);
static_assert(kapi::detail::launch_bounds_of<WriteIdsBoundedTo64TwoGroups>::min_groups_per_unit == 2);

template <class Space, int N, class Kernel>
void expect_ids_written(const Kernel& kernel, const kapi::NdRange<N>& range) {
  const std::size_t n = range.global.size(), local = range.local.size();
  Kokkos::View<int*, typename Space::memory_space> out("out", n);
  kapi::call_kernel(Space(), kernel, range, out);
  auto h = kapi_test::to_host(out);
  for (std::size_t i = 0; i < n; ++i) {
    // Global linear ids of a 1-d range, and of these 2-d ranges whose local range spans
    // whole rows, run group after group.
    ASSERT_EQ(h(i), int(i * 3 + i % local)) << "work-item " << i << ", group size " << local;
  }
}

template <class Space, int N, class Kernel>
void expect_bounds_rejected(const Kernel& kernel, const kapi::NdRange<N>& range, const std::string& size,
                            const std::string& bound) {
  Kokkos::View<int*, typename Space::memory_space> out("out", range.global.size());
  Kokkos::deep_copy(out, -1);
  try {
    kapi::call_kernel(Space(), kernel, range, out);
    ADD_FAILURE() << "a work-group of " << size << " launched a kernel bounded to " << bound;
  } catch (const kapi::launch_error& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr(size));
    EXPECT_THAT(e.what(), ::testing::HasSubstr(bound));
    EXPECT_THAT(e.what(), ::testing::HasSubstr("LaunchBounds"));
  }
  auto h = kapi_test::to_host(out);
  for (std::size_t i = 0; i < h.extent(0); ++i) ASSERT_EQ(h(i), -1) << "the rejected kernel ran: element " << i;
}

TYPED_TEST(BuildingBlocks, LaunchBoundsAcceptGroupsUpToTheBound) {
  expect_ids_written<TypeParam>(WriteIdsBoundedTo64{}, kapi::NdRange<1>({256}, {64}));
  expect_ids_written<TypeParam>(WriteIdsBoundedTo64{}, kapi::NdRange<1>({96}, {32}));
  expect_ids_written<TypeParam>(WriteIdsBoundedTo64TwoGroups{}, kapi::NdRange<1>({192}, {64}));
  expect_ids_written<TypeParam>(WriteIdsBoundedTo64{}, kapi::NdRange<2>({2, 64}, {1, 64}));
}

TYPED_TEST(BuildingBlocks, LaunchBoundsRejectLargerGroups) {
  expect_bounds_rejected<TypeParam>(WriteIdsBoundedTo64{}, kapi::NdRange<1>({256}, {128}), "128", "64");
  expect_bounds_rejected<TypeParam>(WriteIdsBoundedTo64TwoGroups{}, kapi::NdRange<1>({65}, {65}), "65", "64");
  expect_bounds_rejected<TypeParam>(WriteIdsBoundedTo64{}, kapi::NdRange<2>({16, 16}, {8, 16}), "128", "64");
}

TYPED_TEST(BuildingBlocks, KernelsWithoutBoundsAreUnaffected) {
  expect_ids_written<TypeParam>(WriteIds{}, kapi::NdRange<1>({256}, {128}));
  expect_ids_written<TypeParam>(WriteIds{}, kapi::NdRange<1>({256}, {256}));
}

}  // namespace
