#pragma once
// The tuned matrix product: a flat nd-range kernel with register blocking. A work-group
// computes a BM×BN block of C; it walks K in steps of BK, staging a BK×BN block of B (and
// a BM×BK block of A) in local memory, and each work-item keeps a TM×TN block of C in a
// PrivateArray, updated as outer products of TM elements of A and TN elements of the B
// tile (TM + TN loads per TM·TN multiply-adds). Global loads run along the contiguous
// dimension of A and B. Sizes need not divide the blocks: loads outside the matrices
// read zeros, stores outside them are skipped.
//
// One source, two shapes (TunedShape), chosen by the kind of backend:
//   device: 128×128 blocks, BK = 16, 8×8 per work-item (256 work-items; fp64 64×64,
//           4×4, BK = 8). Consecutive work-items copy consecutive elements (coalesced)
//           into registers one step ahead of the multiply, so the next tile's loads
//           overlap this tile's arithmetic; a work-item's TN columns are strided by the
//           group's width, so a warp reads consecutive local-memory words, and the A
//           tile's rows are padded by one word, so its two rows a warp reads at once sit
//           in different banks.
//   host:   128×128 blocks, BK = 256, 8×32 per work-item (64 work-items; fp64 128×64 with
//           8×16). One host thread runs the group: a work-item's TN columns are
//           contiguous (two SIMD registers per row of its block, 16 accumulators), the B
//           tile is stored as one contiguous BK×TN panel per work-item column (the
//           multiply streams through it), A is read in place where the block lies inside
//           the matrix (copied, zero-padded, at the edges), and consecutive groups walk
//           down a column of C so the B tiles they share are still in cache.
#include <cstddef>

#include <kapi/kapi.hpp>
#include <kapi_apps/unroll.hpp>

namespace matmul {

/// Block sizes of the tuned kernel: BM×BN of C per work-group, BK of K per step, TM×TN
/// of C per work-item.
template <class T, bool Host>
struct TunedShape {  // float, and the fallback for other types
  static constexpr int BM = 128, BN = 128, BK = Host ? 256 : 16;
  static constexpr int TM = 8, TN = Host ? 32 : 8;
};
template <bool Host>
struct TunedShape<double, Host> {
  static constexpr int BM = Host ? 128 : 64, BN = 64, BK = Host ? 256 : 8;
  static constexpr int TM = Host ? 8 : 4, TN = Host ? 16 : 4;
};

template <class T, class Shape, bool Host>
struct Tuned {
  static constexpr int BM = Shape::BM, BN = Shape::BN, BK = Shape::BK, TM = Shape::TM, TN = Shape::TN;
  static constexpr int rows = BM / TM, cols = BN / TN, items = rows * cols;
  static constexpr int a_per_item = BM * BK / items, b_per_item = BK * BN / items;
  static_assert(BM % TM == 0 && BN % TN == 0, "work-item blocks must tile the group's block");
  static_assert((BM * BK) % items == 0 && (BK * BN) % items == 0, "tiles must split evenly over the work-items");
  static_assert(!Host || (a_per_item % BK == 0 && b_per_item % BN == 0), "host copies are whole rows");
  // Row stride of the A tile. On a device one more than BK: the two A rows a warp reads
  // at once then fall in different local-memory banks.
  static constexpr int a_stride = Host ? BK : BK + 1;

  // Dimensions of the nd-range: device (rows, columns), so that consecutive work-items
  // take consecutive columns; host (columns, rows), so that consecutive groups, which
  // a host thread runs one after another, take blocks down a column of C and find the
  // same B tiles still in cache.
  static constexpr int row_dim = Host ? 1 : 0, col_dim = 1 - row_dim;

  /// The nd-range for an m×n result: one group per BM×BN block.
  static kapi::NdRange<2> range(std::size_t m, std::size_t n) {
    const std::size_t gm = (m + BM - 1) / BM, gn = (n + BN - 1) / BN;
    std::size_t global[2], local[2];
    global[row_dim] = gm * rows, global[col_dim] = gn * cols;
    local[row_dim] = rows, local[col_dim] = cols;
    return kapi::NdRange<2>(kapi::Range<2>(global[0], global[1]), kapi::Range<2>(local[0], local[1]));
  }

  template <class A, class B, class C>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<2>& it, const A& a, const B& b, const C& c,
                                         const kapi::LocalAccessor<T, 1>& a_tile,
                                         const kapi::LocalAccessor<T, 1>& b_tile) const {
    const int ty = static_cast<int>(it.get_local_id(row_dim)), tx = static_cast<int>(it.get_local_id(col_dim));
    const int lid = ty * cols + tx;
    const std::size_t row0 = it.get_group().get_group_id(row_dim) * BM;
    const std::size_t col0 = it.get_group().get_group_id(col_dim) * BN;
    const std::size_t m = c.extent(0), n = c.extent(1), k_extent = a.extent(1);
    T* const as = a_tile.get_pointer();  // [BM][a_stride]
    T* const bs = b_tile.get_pointer();  // device [BK][BN]; host BN/TN panels of [BK][TN]
    kapi::PrivateArray<T, TM, TN> acc(true);

    if constexpr (Host) {
      const bool rows_inside = row0 + BM <= m;
      for (std::size_t k0 = 0; k0 < k_extent; k0 += BK) {
        // Where the block of A lies inside the matrix its rows are read in place (each
        // work-item streams its TM rows; the work-items of a row of the group share them
        // through the cache); only edge blocks are copied, zero-padded, to the A tile.
        const bool a_in_place = rows_inside && k0 + BK <= k_extent;
        if (!a_in_place) copy_rows(a, as, lid * (a_per_item / BK), a_per_item / BK, BK, row0, k0, m, k_extent);
        copy_b_panels(b, bs, lid * (b_per_item / BN), b_per_item / BN, k0, col0, k_extent, n);
        kapi::group_barrier(it.get_group());
        if (a_in_place) {
          multiply_tile_host(&a(row0 + std::size_t(ty) * TM, k0), a.stride(0), bs + tx * BK * TN, acc);
        } else {
          multiply_tile_host(as + ty * TM * BK, BK, bs + tx * BK * TN, acc);
        }
        kapi::group_barrier(it.get_group());
      }
    } else {
      T a_next[a_per_item], b_next[b_per_item];
      if (k_extent > 0) fetch(a, b, lid, row0, col0, 0, m, n, k_extent, a_next, b_next);
      for (std::size_t k0 = 0; k0 < k_extent; k0 += BK) {
        KAPI_APPS_UNROLL
        for (int s = 0; s < a_per_item; ++s) {
          const int e = lid + s * items;
          as[(e / BK) * a_stride + e % BK] = a_next[s];
        }
        KAPI_APPS_UNROLL
        for (int s = 0; s < b_per_item; ++s) bs[lid + s * items] = b_next[s];
        kapi::group_barrier(it.get_group());
        if (k0 + BK < k_extent) fetch(a, b, lid, row0, col0, k0 + BK, m, n, k_extent, a_next, b_next);
        multiply_tile(as + ty * TM * a_stride, bs + tx, acc);
        kapi::group_barrier(it.get_group());
      }
    }

    const std::size_t r0 = row0 + std::size_t(ty) * TM;
    KAPI_APPS_UNROLL
    for (int i = 0; i < TM; ++i) {
      if (r0 + i >= m) break;
      KAPI_APPS_UNROLL
      for (int j = 0; j < TN; ++j) {
        const std::size_t col = col0 + column(tx, j);
        if (col < n) c(r0 + i, col) = acc(i, j);
      }
    }
  }

  // The column of the group's block that work-item column tx holds as its j-th.
  KOKKOS_INLINE_FUNCTION static int column(int tx, int j) { return Host ? tx * TN + j : tx + j * cols; }

  // Host: acc += (TM rows of A, lda apart) · (this work-item's BK×TN panel of the B tile).
  KAPI_APPS_NOINLINE_ON_HOST KOKKOS_FUNCTION static void multiply_tile_host(const T* a_rows, std::size_t lda,
                                                                          const T* b_panel,
                                                                          kapi::PrivateArray<T, TM, TN>& acc) {
    // A working copy the compiler keeps in SIMD registers: a row of the block is one or
    // two vectors, updated by a broadcast A element times a row of the B tile.
    T block[TM][TN];
    for (int i = 0; i < TM; ++i)
      for (int j = 0; j < TN; ++j) block[i][j] = acc(i, j);
    for (int k = 0; k < BK; ++k) {
      const T* b_row = b_panel + k * TN;
      KAPI_APPS_UNROLL
      for (int i = 0; i < TM; ++i) {
        const T a_ik = a_rows[i * lda + k];
        KAPI_APPS_SIMD_LOOP
        for (int j = 0; j < TN; ++j) block[i][j] += a_ik * b_row[j];
      }
    }
    for (int i = 0; i < TM; ++i)
      for (int j = 0; j < TN; ++j) acc(i, j) = block[i][j];
  }

  // Device: acc += (TM rows of the A tile) · (TN strided columns of the B tile), over BK.
  KOKKOS_INLINE_FUNCTION static void multiply_tile(const T* a_rows, const T* b_cols, kapi::PrivateArray<T, TM, TN>& acc) {
    KAPI_APPS_UNROLL
    for (int k = 0; k < BK; ++k) {
      T av[TM], bv[TN];
      KAPI_APPS_UNROLL
      for (int i = 0; i < TM; ++i) av[i] = a_rows[i * a_stride + k];
      KAPI_APPS_UNROLL
      for (int j = 0; j < TN; ++j) bv[j] = b_cols[k * BN + j * cols];
      KAPI_APPS_UNROLL
      for (int i = 0; i < TM; ++i) {
        KAPI_APPS_UNROLL
        for (int j = 0; j < TN; ++j) acc(i, j) += av[i] * bv[j];
      }
    }
  }

  // Host: rows [first, first + count) of a tile `width` wide, from matrix rows starting
  // at row0 and columns at col0; zeros outside the matrix (extent rows × cols).
  template <class M>
  KOKKOS_INLINE_FUNCTION static void copy_rows(const M& mat, T* tile, int first, int count, int width,
                                               std::size_t row0, std::size_t col0, std::size_t rows_extent,
                                               std::size_t cols_extent) {
    for (int r = first; r < first + count; ++r) {
      T* dst = tile + r * width;
      const std::size_t row = row0 + r;
      if (row < rows_extent && col0 + width <= cols_extent) {
        const T* src = &mat(row, col0);
        for (int q = 0; q < width; ++q) dst[q] = src[q];
      } else {
        for (int q = 0; q < width; ++q) dst[q] = (row < rows_extent && col0 + q < cols_extent) ? mat(row, col0 + q) : T(0);
      }
    }
  }

  // Host: rows [first, first + count) of the BK×BN block of B at (k0, col0) into the B
  // tile, stored as BN/TN panels of BK×TN (panel tx holds work-item column tx's columns,
  // so its multiply streams through contiguous memory); zeros outside the matrix.
  template <class M>
  KOKKOS_INLINE_FUNCTION static void copy_b_panels(const M& b, T* tile, int first, int count, std::size_t k0,
                                                   std::size_t col0, std::size_t k_extent, std::size_t n) {
    for (int r = first; r < first + count; ++r) {
      const std::size_t k = k0 + r;
      const bool whole_row = k < k_extent && col0 + BN <= n;
      const T* src = whole_row ? &b(k, col0) : nullptr;
      for (int panel = 0; panel < cols; ++panel) {
        T* dst = tile + (std::size_t(panel) * BK + r) * TN;
        if (whole_row) {
          for (int j = 0; j < TN; ++j) dst[j] = src[panel * TN + j];
        } else {
          for (int j = 0; j < TN; ++j) {
            const std::size_t col = col0 + std::size_t(panel) * TN + j;
            dst[j] = (k < k_extent && col < n) ? b(k, col) : T(0);
          }
        }
      }
    }
  }

  // Device: this work-item's elements of the next A and B tiles, consecutive work-items
  // on consecutive elements of a row.
  template <class A, class B>
  KOKKOS_INLINE_FUNCTION static void fetch(const A& a, const B& b, int lid, std::size_t row0, std::size_t col0,
                                           std::size_t k0, std::size_t m, std::size_t n, std::size_t k_extent,
                                           T (&a_next)[a_per_item], T (&b_next)[b_per_item]) {
    KAPI_APPS_UNROLL
    for (int s = 0; s < a_per_item; ++s) {
      const int e = lid + s * items;
      const std::size_t row = row0 + e / BK, k = k0 + e % BK;
      a_next[s] = (row < m && k < k_extent) ? a(row, k) : T(0);
    }
    KAPI_APPS_UNROLL
    for (int s = 0; s < b_per_item; ++s) {
      const int e = lid + s * items;
      const std::size_t k = k0 + e / BN, col = col0 + e % BN;
      b_next[s] = (k < k_extent && col < n) ? b(k, col) : T(0);
    }
  }
};

/// C = A·B with the tuned kernel, shaped for the kind of backend `space` is.
template <class ExecSpace, class A, class B, class C>
void multiply_tuned(const ExecSpace& space, const A& a, const B& b, const C& c) {
  using T = typename C::non_const_value_type;
  constexpr bool host = kapi::detail::runs_on_host<ExecSpace>;
  using Kernel = Tuned<T, TunedShape<T, host>, host>;
  kapi::LocalAccessor<T, 1> a_tile(Kernel::BM * Kernel::a_stride), b_tile(Kernel::BK * Kernel::BN);
  kapi::call_kernel(space, Kernel{}, Kernel::range(c.extent(0), c.extent(1)), a, b, c, a_tile, b_tile);
}

}  // namespace matmul
