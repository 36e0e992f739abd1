// SPDX-License-Identifier: Apache-2.0
#pragma once
// ExpectedLayout<Layout>: where each kapi::tile_layout puts element (r, c) of a tile and how
// much memory it spans, written out here from the layouts' descriptions (not from their
// code); for the TileCopy and RegisterBlock tests.
#include <kapi/tile_copy.hpp>

#include <cstddef>

namespace kapi_test {

template <class Layout>
struct ExpectedLayout;
template <int Stride>
struct ExpectedLayout<kapi::tile_layout::RowMajor<Stride>> {
  static std::size_t at(int r, int c) { return std::size_t(r) * Stride + c; }
  static std::size_t size(int rows, int) { return std::size_t(rows) * Stride; }
};
template <int Stride>
struct ExpectedLayout<kapi::tile_layout::Transposed<Stride>> {
  static std::size_t at(int r, int c) { return std::size_t(c) * Stride + r; }
  static std::size_t size(int, int cols) { return std::size_t(cols) * Stride; }
};
template <int Rows, int PanelCols>
struct ExpectedLayout<kapi::tile_layout::Panels<Rows, PanelCols>> {
  static std::size_t at(int r, int c) {
    const int panel = c / PanelCols;
    return std::size_t(panel) * Rows * PanelCols + std::size_t(r) * PanelCols + (c - panel * PanelCols);
  }
  static std::size_t size(int, int cols) { return std::size_t((cols + PanelCols - 1) / PanelCols) * Rows * PanelCols; }
};

}  // namespace kapi_test
