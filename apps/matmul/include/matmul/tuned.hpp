// SPDX-License-Identifier: Apache-2.0
#pragma once
// The tuned matrix product: a flat nd-range kernel with register blocking, built from
// the framework's tile copies (kapi/tile_copy.hpp) and register blocks
// (kapi/register_block.hpp). A work-group computes a BM×BN block of C; it walks K in
// steps of BK, staging a BM×BK block of A and a BK×BN block of B in local memory, and
// each work-item keeps a TM×TN block of C in registers, updated as outer products of TM
// elements of A and TN elements of B (TM + TN loads per TM·TN multiply-adds). Sizes need
// not divide the blocks: loads outside the matrices read zeros, stores outside them are
// skipped.
//
// One source, two shapes (TunedShape), chosen by the kind of backend:
//   device: 128×128 blocks, BK = 16, 8×8 per work-item (256 work-items; fp64 64×64, BK =
//           8, 4×4), compiled for two resident groups per multiprocessor
//           (kapi::LaunchBounds); a warp's work-items are 4×8 of the group's. Float
//           products with fewer such blocks than multiprocessors take 64×128 blocks with
//           4×8 per work-item (TunedFewBlocksShape). Tiles are
//           double-buffered: the next tile's global loads (16-byte vectors, consecutive
//           work-items on consecutive addresses) are in flight while this tile is
//           multiplied, one barrier per step. A is stored transposed and each work-item's
//           rows and columns of C are runs of 4 (fp64: 2), so it reads its fragments with
//           16-byte local-memory loads, the next step's while this one's multiply-adds run.
//           The fastest shape tried on an H100 (the sweep is in results/), ahead of 64×128
//           everywhere. Other shapes tried, no better overall:
//           128×128 with BK = 8, or one group per multiprocessor, or BK = 32; 128×256 with
//           8×16 (faster at n = 8192 only); 64×128 with BK = 32 or three groups.
//   host:   128×128 blocks, BK = 256, 8 rows × two SIMD registers per work-item: 8×32
//           with AVX-512 (64 work-items), 8×8 with SSE2 or NEON (256); with AVX2's 16
//           registers 96×128 blocks of 6×16 (128), whose 12 accumulators leave registers
//           for the B vectors and the A broadcast; fp64 the same rows in 64 columns. The
//           multiply runs over SIMD vectors (detail/simd_multiply.hpp). One host thread runs
//           the group: a work-item's TN columns are contiguous, the B
//           tile is stored as one contiguous BK×TN panel per work-item column (the
//           multiply streams through it), A is read in place where the block lies inside
//           the matrix (copied, zero-padded, at the edges), and consecutive groups walk
//           down a column of C so the B tiles they share are still in cache.
#include <algorithm>
#include <cstddef>
#include <type_traits>

#include <kapi/barrier.hpp>
#include <kapi/execution_space.hpp>
#include <kapi/integer_math.hpp>
#include <kapi/item.hpp>
#include <kapi/launch.hpp>
#include <kapi/launch_bounds.hpp>
#include <kapi/local_accessor.hpp>
#include <kapi/range.hpp>
#include <kapi/register_block.hpp>
#include <kapi/simd_width.hpp>
#include <kapi/space_traits.hpp>
#include <kapi/tile_copy.hpp>
#include <kapi/vec.hpp>

#include "completion.hpp"

namespace matmul {

/// Block sizes of the tuned kernel: BM×BN of C per work-group, BK of K per step, TM×TN
/// of C per work-item; on a device, min_groups groups resident per multiprocessor, and
/// warp_rows > 0 arranges a warp's 32 work-items as warp_rows × (32 / warp_rows) of the
/// group's rows × columns of work-items (fewer distinct local-memory words per fragment
/// load than a warp along one or two rows).
/// Host: TN is two SIMD registers of the machine compiled for (simd_width.hpp), TM rows
/// of them: 8 (16 accumulators) where the register file has 32 (AVX-512, aarch64), 6 (12)
/// where it has 16 (SSE2, AVX, AVX2), which leaves registers for B's two vectors and A's
/// broadcast (with 8 rows, 16 accumulators in 16 registers spilled).
template <class T>
inline constexpr int host_tuned_columns = int(2 * kapi::host_simd_lanes<T>);
inline constexpr int host_tuned_rows = kapi::host_simd_registers >= 32 ? 8 : 6;

template <class T, bool Host>
struct TunedShape {  // float, and the fallback for other types
  static constexpr int BM = Host ? 16 * host_tuned_rows : 128, BN = 128, BK = Host ? 256 : 16;
  static constexpr int TM = Host ? host_tuned_rows : 8, TN = Host ? host_tuned_columns<T> : 8;
  static constexpr int min_groups = Host ? 1 : 2;
  static constexpr int warp_rows = Host ? 0 : 4;  // 0: a warp takes whole rows of work-items
};
template <bool Host>
struct TunedShape<double, Host> {
  static constexpr int BM = Host ? 16 * host_tuned_rows : 64, BN = 64, BK = Host ? 256 : 8;
  static constexpr int TM = Host ? host_tuned_rows : 4, TN = Host ? host_tuned_columns<double> : 4;
  static constexpr int min_groups = Host ? 1 : 2;
  static constexpr int warp_rows = 0;
};

/// Accumulate: C += A·B (the distributed SUMMA adds each panel's product in place),
/// else C = A·B.
template <class T, class Shape, bool Host, bool Accumulate = false>
struct Tuned {
  static constexpr int BM = Shape::BM, BN = Shape::BN, BK = Shape::BK, TM = Shape::TM, TN = Shape::TN;
  static constexpr int rows = BM / TM, cols = BN / TN, items = rows * cols;
  static_assert(BM % TM == 0 && BN % TN == 0, "work-item blocks must tile the group's block");
  // Device: the registers budgeted for min_groups groups per multiprocessor (two: at
  // most 128 per work-item).
  using launch_bounds = kapi::LaunchBounds<items, Shape::min_groups>;

  // Device: a work-item's TM rows (TN columns) are runs of W, runs BM / (TM / W) apart,
  // so the rows of a warp's work-items interleave and fragments are aligned Vec loads.
  static constexpr int W = Host ? 1 : kapi::vec_width_16_bytes<T>;
  static_assert(Host || (TM % W == 0 && TN % W == 0), "device blocks are whole runs of vectors");
  // Device A tile: transposed, [BK][a_stride], padded by a vector so that the transposing
  // stores of a warp fall in different banks. Host A tile: [BM][BK].
  static constexpr int a_stride = Host ? BK : BM + W;
  static constexpr int a_tile_size = Host ? BM * BK : BK * a_stride, b_tile_size = BK * BN;
  static constexpr int buffers = Host ? 1 : 2;  // device tiles are double-buffered

  using ALayout = std::conditional_t<Host, kapi::tile_layout::RowMajor<BK>, kapi::tile_layout::Transposed<a_stride>>;
  using BLayout = std::conditional_t<Host, kapi::tile_layout::Panels<BK, TN>, kapi::tile_layout::RowMajor<BN>>;
  using ACopy = kapi::TileCopy<T, BM, BK, items, ALayout>;
  using BCopy = kapi::TileCopy<T, BK, BN, items, BLayout>;
  using Block = kapi::RegisterBlock<T, TM, TN>;

  // Dimensions of the nd-range: device (rows, columns), so that consecutive work-items
  // take consecutive columns; host (columns, rows), so that consecutive groups, which
  // a host thread runs one after another, take blocks down a column of C and find the
  // same B tiles still in cache.
  static constexpr int row_dim = Host ? 1 : 0, col_dim = 1 - row_dim;

  /// The nd-range for an m×n result: one group per BM×BN block.
  static kapi::NdRange<2> range(std::size_t m, std::size_t n) {
    const std::size_t gm = kapi::ceil_div(m, std::size_t(BM)), gn = kapi::ceil_div(n, std::size_t(BN));
    std::size_t global[2], local[2];
    global[row_dim] = gm * rows, global[col_dim] = gn * cols;
    local[row_dim] = rows, local[col_dim] = cols;
    return kapi::NdRange<2>(kapi::Range<2>(global[0], global[1]), kapi::Range<2>(local[0], local[1]));
  }

  template <class A, class B, class C>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<2>& it, const A& a, const B& b, const C& c,
                                         const kapi::LocalAccessor<T, 1>& a_tiles,
                                         const kapi::LocalAccessor<T, 1>& b_tiles) const {
    const int lid = static_cast<int>(it.get_local_id(row_dim)) * cols + static_cast<int>(it.get_local_id(col_dim));
    int ty = lid / cols, tx = lid % cols;  // this work-item's row and column of the group's blocks
    if constexpr (!Host && Shape::warp_rows > 0) {
      constexpr int lanes_x = 32 / Shape::warp_rows, warps_x = cols / lanes_x;
      static_assert(items % 32 == 0 && cols % lanes_x == 0, "warp tiles must tile the group");
      const int warp = lid / 32, lane = lid % 32;
      ty = (warp / warps_x) * Shape::warp_rows + lane / lanes_x;
      tx = (warp % warps_x) * lanes_x + lane % lanes_x;
    }
    const std::size_t row0 = it.get_group().get_group_id(row_dim) * BM;
    const std::size_t col0 = it.get_group().get_group_id(col_dim) * BN;
    Block block;
    if constexpr (Host) {
      run_host(it, a, b, a_tiles.get_pointer(), b_tiles.get_pointer(), row0, col0, ty, tx, lid, block);
      write(
          block, c, [&](int i) { return row0 + std::size_t(ty) * TM + i; },
          [&](int j) { return col0 + std::size_t(tx) * TN + j; });
    } else {
      run_device(it, a, b, a_tiles.get_pointer(), b_tiles.get_pointer(), row0, col0, ty, tx, lid, block);
      const auto a_rows = a_fragment(nullptr, ty);
      const auto b_cols = b_fragment(nullptr, tx);
      write(
          block, c, [&](int i) { return row0 + std::size_t(ty) * W + a_rows.position(i); },
          [&](int j) { return col0 + std::size_t(tx) * W + b_cols.position(j); });
    }
  }

  template <class C, class RowOf, class ColOf>
  KOKKOS_INLINE_FUNCTION static void write(const Block& block, const C& c, const RowOf& row, const ColOf& col) {
    if constexpr (Accumulate)
      block.add_to(c, row, col);
    else
      block.store(c, row, col);
  }

  // Device fragments: work-item row ty's TM rows of an A tile, column tx's TN columns of a B tile.
  KOKKOS_INLINE_FUNCTION static kapi::fragment::Runs<T, TM, W> a_fragment(const T* a_tile, int ty) {
    return {a_tile + ty * W, a_stride, BM / (TM / W)};
  }
  KOKKOS_INLINE_FUNCTION static kapi::fragment::Runs<T, TN, W> b_fragment(const T* b_tile, int tx) {
    return {b_tile + tx * W, BN, BN / (TN / W)};
  }

  template <class A, class B>
  KOKKOS_INLINE_FUNCTION static void run_device(const kapi::NdItem<2>& it, const A& a, const B& b, T* as, T* bs,
                                                std::size_t row0, std::size_t col0, int ty, int tx, int lid,
                                                Block& block) {
    const std::size_t k_extent = a.extent(1);
    ACopy a_copy;
    BCopy b_copy;
    a_copy.copy(a, row0, 0, as, lid);
    b_copy.copy(b, 0, col0, bs, lid);
    kapi::group_barrier(it.get_group());
    int buf = 0;
    for (std::size_t k0 = 0; k0 < k_extent; k0 += BK) {
      const bool more = k0 + BK < k_extent;
      if (more) {  // the next tiles' loads fly while this tile is multiplied
        a_copy.fetch(a, row0, k0 + BK, lid);
        b_copy.fetch(b, k0 + BK, col0, lid);
      }
      block.template multiply_accumulate<BK>(a_fragment(as + buf * a_tile_size, ty),
                                             b_fragment(bs + buf * b_tile_size, tx));
      if (more) {
        a_copy.store(as + (buf ^ 1) * a_tile_size, lid);
        b_copy.store(bs + (buf ^ 1) * b_tile_size, lid);
      }
      kapi::group_barrier(it.get_group());
      buf ^= 1;
    }
  }

  template <class A, class B>
  KOKKOS_INLINE_FUNCTION static void run_host(const kapi::NdItem<2>& it, const A& a, const B& b, T* as, T* bs,
                                              std::size_t row0, std::size_t col0, int ty, int tx, int lid,
                                              Block& block) {
    const std::size_t m = a.extent(0), k_extent = a.extent(1);
    const bool rows_inside = row0 + BM <= m;
    for (std::size_t k0 = 0; k0 < k_extent; k0 += BK) {
      // Where the block of A lies inside the matrix its rows are read in place (each
      // work-item streams its TM rows; the work-items of a row of the group share them
      // through the cache); only edge blocks are copied, zero-padded, to the A tile.
      const bool a_in_place = rows_inside && k0 + BK <= k_extent;
      if (!a_in_place) ACopy::copy_rows(a, row0, k0, as, lid);
      BCopy::copy_rows(b, k0, col0, bs, lid);
      kapi::group_barrier(it.get_group());
      const kapi::fragment::Contiguous<T, TN> b_panel{bs + tx * BK * TN, TN};
      if (a_in_place) {
        multiply_host(
            kapi::fragment::Strided<T, TM>{&a(row0 + std::size_t(ty) * TM, k0), 1, std::ptrdiff_t(a.stride(0))},
            b_panel, block);
      } else {
        multiply_host(kapi::fragment::Strided<T, TM>{as + ty * TM * BK, 1, BK}, b_panel, block);
      }
      kapi::group_barrier(it.get_group());
    }
  }

  // Host: the multiply as a function of its own, where GCC keeps the block in SIMD
  // registers (inlined into the work-item's large body, it spills).
  template <class FragmentA>
  KAPI_NOINLINE_ON_HOST KOKKOS_FUNCTION static void multiply_host(const FragmentA& a,
                                                                  const kapi::fragment::Contiguous<T, TN>& b,
                                                                  Block& block) {
    block.template multiply_accumulate<BK>(a, b);
  }
};

/// C = A·B with the tuned kernel of the given shape.
template <class Shape, class ExecSpace, class A, class B, class C>
void multiply_tuned_shaped(const ExecSpace& space, const A& a, const B& b, const C& c,
                           Completion done = Completion::written) {
  using T = typename C::non_const_value_type;
  using Kernel = Tuned<T, Shape, kapi::is_host_execution_space_v<ExecSpace>>;
  kapi::LocalAccessor<T, 1> a_tiles(Kernel::buffers * Kernel::a_tile_size),
      b_tiles(Kernel::buffers * Kernel::b_tile_size);
  finish(kapi::call_kernel_async(space, Kernel{}, Kernel::range(c.extent(0), c.extent(1)), a, b, c, a_tiles, b_tiles),
         done);
}

/// Device, float: 64×128 blocks (two per 128×128 block of TunedShape, 4×8 per work-item),
/// for products whose 128×128 blocks would leave multiprocessors idle.
struct TunedFewBlocksShape {
  static constexpr int BM = 64, BN = 128, BK = 16, TM = 4, TN = 8, min_groups = 2, warp_rows = 4;
};

/// The device's multiprocessors (CUDA: the attribute; other devices: Kokkos' concurrency
/// over 2048 resident threads per multiprocessor).
template <class ExecSpace>
std::size_t multiprocessors(const ExecSpace& space) {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (kapi::space_traits<ExecSpace>::is_cuda) {
    int count = 0;
    if (cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, space.cuda_device()) == cudaSuccess && count > 0)
      return static_cast<std::size_t>(count);
  }
#endif
  return std::max<std::size_t>(1, static_cast<std::size_t>(space.concurrency()) / 2048);
}

/// C = A·B with the tuned kernel, shaped for the kind of backend `space` is; on a device,
/// float products with fewer 128×128 blocks than multiprocessors take 64×128 blocks (on an
/// H100, too few 128×128 blocks leave multiprocessors idle; results/ has the sweep).
template <class ExecSpace, class A, class B, class C>
void multiply_tuned(const ExecSpace& space, const A& a, const B& b, const C& c, Completion done = Completion::written) {
  using T = typename C::non_const_value_type;
  constexpr bool host = kapi::is_host_execution_space_v<ExecSpace>;
  if constexpr (!host && std::is_same_v<T, float>) {
    using Big = TunedShape<T, false>;
    std::size_t blocks = 0;  // past 64 bits: many blocks
    const bool many = __builtin_mul_overflow(kapi::ceil_div(c.extent(0), std::size_t(Big::BM)),
                                             kapi::ceil_div(c.extent(1), std::size_t(Big::BN)), &blocks);
    if (!many && blocks < multiprocessors(space))
      return multiply_tuned_shaped<TunedFewBlocksShape>(space, a, b, c, done);
  }
  multiply_tuned_shaped<TunedShape<T, host>>(space, a, b, c, done);
}

}  // namespace matmul
