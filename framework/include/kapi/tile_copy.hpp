// SPDX-License-Identifier: Apache-2.0
#pragma once
// TileCopy: a work-group copies a Rows×Cols block of a 2-d View into local memory, every
// work-item its share, zeros where the block hangs over the View's edges.
//
//   kapi::TileCopy<float, 128, 8, 256, kapi::tile_layout::Transposed<132>> a_copy;
//   a_copy.fetch(a, row0, k0, item);   // global memory -> this work-item's registers
//   ...                                 // (compute on the previous tile meanwhile)
//   a_copy.store(a_tile, item);        // registers -> local memory
//   kapi::group_barrier(group);
//
// fetch and store are split so that a kernel can load the next tile while it computes on
// this one (software pipelining); copy() does both; copy_rows() copies whole rows without
// staging (for host backends). Work-item `item` (0 <= item < Items)
// takes vectors item, item + Items, item + 2·Items, ... in row-major order: consecutive
// work-items read consecutive addresses of a row (coalesced on a GPU). A vector is
// W = 16 bytes of a row (kapi::Vec) when the shape allows and the View's rows are
// contiguous and aligned; it is read with one load where it lies inside the View, element
// by element (bounds-checked) at the edges, and element by element throughout otherwise.
#include <cstddef>

#include <kapi/unroll.hpp>
#include <kapi/vec.hpp>

namespace kapi {

/// Where element (r, c) of a tile goes in local memory.
namespace tile_layout {
/// Row r at r·Stride (Stride >= the tile's columns; one more pads away bank conflicts).
template <int Stride>
struct RowMajor {
  template <int Rows, int Cols>
  static constexpr bool fits = Stride >= Cols;
  static constexpr bool rows_contiguous = true;
  static constexpr int alignment = Stride;  // elements between starts of rows
  static constexpr int run = Stride;        // a row's elements are contiguous in runs of this
  KAPI_FUNCTION static constexpr int offset(int r, int c) { return r * Stride + c; }
};
/// Column c at c·Stride: the tile transposed (a row of the View becomes a column), so
/// that a work-item reads a run of rows of one column with one vector load.
template <int Stride>
struct Transposed {
  template <int Rows, int Cols>
  static constexpr bool fits = Stride >= Rows;
  static constexpr bool rows_contiguous = false;
  static constexpr int alignment = 1;
  static constexpr int run = 1;
  KAPI_FUNCTION static constexpr int offset(int r, int c) { return c * Stride + r; }
};
/// Panels of PanelCols columns, one after another, each Rows×PanelCols row-major: a
/// consumer that walks down a narrow band of columns streams through contiguous memory.
template <int Rows, int PanelCols>
struct Panels {
  template <int TileRows, int Cols>
  static constexpr bool fits = TileRows == Rows;
  static constexpr bool rows_contiguous = true;
  static constexpr int alignment = PanelCols;
  static constexpr int run = PanelCols;
  KAPI_FUNCTION static constexpr int offset(int r, int c) {
    return (c / PanelCols) * (Rows * PanelCols) + r * PanelCols + c % PanelCols;
  }
};
}  // namespace tile_layout

namespace detail {
// The widest vector (<= 16 bytes) that splits a row, the work, and the layout's rows evenly.
template <class T, int Rows, int Cols, int Items, class Layout>
constexpr int tile_copy_width() {
  int w = vec_width_16_bytes<T>;
  while (w > 1 &&
         (Cols % w != 0 || (Rows * Cols / w) % Items != 0 || (Layout::rows_contiguous && Layout::alignment % w != 0)))
    w /= 2;
  return w;
}
}  // namespace detail

template <class T, int Rows, int Cols, int Items, class Layout = tile_layout::RowMajor<Cols>>
class TileCopy {
 public:
  static constexpr int width = detail::tile_copy_width<T, Rows, Cols, Items, Layout>();
  static constexpr int vectors_per_row = Cols / width;
  static constexpr int per_item = Rows * Cols / (width * Items);
  static_assert(Rows > 0 && Cols > 0 && Items > 0, "kapi::TileCopy: positive shape and work-item count");
  static_assert((Rows * Cols) % Items == 0, "kapi::TileCopy: the tile must split evenly over the work-items");
  static_assert(Layout::template fits<Rows, Cols>,
                "kapi::TileCopy: the layout does not fit the tile (RowMajor stride < columns, Transposed "
                "stride < rows, or Panels of another height): its rows would overlap in local memory");

  /// Reads this work-item's share of the block of `src` whose first element is
  /// (row0, col0) into registers; elements outside `src` read as zero.
  template <class View>
  KAPI_FUNCTION void fetch(const View& src, std::size_t row0, std::size_t col0, int item) {
    const std::size_t rows = src.extent(0), cols = src.extent(1);
    const bool vectors = width > 1 && src.stride(1) == 1 && src.stride(0) % width == 0 && col0 % width == 0 &&
                         Vec<T, width>::aligned(src.data());
    KAPI_UNROLL
    for (int s = 0; s < per_item; ++s) {
      const int e = item + s * Items;
      const std::size_t row = row0 + e / vectors_per_row, col = col0 + (e % vectors_per_row) * width;
      if (vectors && row < rows && col + width <= cols) {
        staged_[s] = Vec<T, width>::load(&src(row, col));
      } else {
        KAPI_UNROLL
        for (int w = 0; w < width; ++w) staged_[s][w] = (row < rows && col + w < cols) ? src(row, col + w) : T(0);
      }
    }
  }

  /// Writes the share fetched last into `tile` (local memory laid out by Layout, whose
  /// start is aligned to 16 bytes, as every LocalAccessor's is).
  KAPI_FUNCTION void store(T* tile, int item) const {
    KAPI_UNROLL
    for (int s = 0; s < per_item; ++s) {
      const int e = item + s * Items, r = e / vectors_per_row, c = (e % vectors_per_row) * width;
      if constexpr (Layout::rows_contiguous) {
        staged_[s].store(tile + Layout::offset(r, c));
      } else {
        KAPI_UNROLL
        for (int w = 0; w < width; ++w) tile[Layout::offset(r, c + w)] = staged_[s][w];
      }
    }
  }

  /// fetch, then store.
  template <class View>
  KAPI_FUNCTION void copy(const View& src, std::size_t row0, std::size_t col0, T* tile, int item) {
    fetch(src, row0, col0, item);
    store(tile, item);
  }

  /// The same tile, copied without staging: work-item `item` copies whole rows item,
  /// item + Items, ... in loops along the row that a host compiler vectorises. For host
  /// backends, where one thread runs the whole group and staging only costs moves.
  template <class View>
  KAPI_FUNCTION static void copy_rows(const View& src, std::size_t row0, std::size_t col0, T* tile, int item) {
    constexpr int run = Layout::run < Cols ? Layout::run : Cols;
    const std::size_t rows = src.extent(0), cols = src.extent(1);
    const bool whole_rows_inside = col0 + Cols <= cols && src.stride(1) == 1;
    for (int r = item; r < Rows; r += Items) {
      const std::size_t row = row0 + r;
      if (row < rows && whole_rows_inside) {
        const T* from = &src(row, col0);
        for (int c0 = 0; c0 < Cols; c0 += run) {
          T* to = tile + Layout::offset(r, c0);
          const int length = c0 + run <= Cols ? run : Cols - c0;  // a last, partial panel
          for (int q = 0; q < length; ++q) to[q] = from[c0 + q];
        }
      } else {
        for (int c = 0; c < Cols; ++c)
          tile[Layout::offset(r, c)] = (row < rows && col0 + c < cols) ? src(row, col0 + c) : T(0);
      }
    }
  }

 private:
  Vec<T, width> staged_[per_item];
};

}  // namespace kapi
