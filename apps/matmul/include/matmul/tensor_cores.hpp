// SPDX-License-Identifier: Apache-2.0
#pragma once
// The matrix product on tensor cores: a flat nd-range kernel built on kapi::joint_matrix
// (kapi/joint_matrix.hpp), for fp32 matrices with reduced-precision inputs:
//   tuned-tf32  A and B rounded to tf32 (kapi::round_to_tf32) as the tiles are staged
//   tuned-bf16  A and B rounded to bfloat16 (to nearest even) likewise
//   tuned-fp16  A and B rounded to IEEE half likewise
// products summed in fp32; C is fp32. The inputs stay fp32 in memory: the conversion is
// part of the kernel (and of its time), where the tiles are copied to local memory. And
// for fp64 matrices:
//   tuned-fp64  A and B as they are, fp64 products and sums on the matrix units (DMMA)
//
// A work-group computes a BM×BN block of C with (BM/WM)×(BN/WN) sub-groups, each a WM×WN
// tile held in one joint_matrix accumulator. It walks K in steps of BK, staging a BM×BK
// block of A and a BK×BN block of B in local memory (rows padded so that the fragment
// loads of a warp hit distinct banks), and each sub-group multiplies its WM×KS slice of A
// by its KS×WN slice of B per KS of the step (KS: the mma K of the type). Sizes need not
// divide the blocks: loads outside the matrices read zeros (predicated), edge tiles of C
// are stored with joint_matrix_store_checked.
//
// One source, two shapes:
//   device: 128×128 blocks, 8 warps of 64×32 each, BK = 16, tiles
//           double-buffered (the next tile's global loads, 16-byte vectors, fly while this
//           one is multiplied; one barrier per step), two groups per multiprocessor
//           (fp64: one, its 64×32 accumulators take twice the registers; and by default
//           the asynchronous copies below with fragments of K = 16).
//   device, asynchronous (JointShape's DeviceStages > 0, tf32 and fp64): the tiles are
//           copied to local memory with kapi::async_copy (cp.async), stages - 1 steps
//           ahead, no registers on the way; bench_matmul's tuned-*-async* variants.
//   host:   a sub-group is one work-item, so a group is 4 work-items of 32×32 tiles
//           (64×64 blocks), one buffer. Host speed is not a goal of these variants.
// Groups take their blocks in bands of block-rows (banded_block below).
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <kapi/async_copy.hpp>
#include <kapi/barrier.hpp>
#include <kapi/execution_space.hpp>
#include <kapi/integer_math.hpp>
#include <kapi/item.hpp>
#include <kapi/joint_matrix.hpp>
#include <kapi/launch.hpp>
#include <kapi/launch_bounds.hpp>
#include <kapi/local_accessor.hpp>
#include <kapi/range.hpp>
#include <kapi/sub_group.hpp>
#include <kapi/unroll.hpp>
#include <kapi/vec.hpp>

#include "completion.hpp"

namespace matmul {

/// Which block of C (row and column of blocks, of gm × gn) group g computes: groups are
/// numbered in bands of 8 block-rows, column by column within a band, so that the groups
/// running together share their A and B tiles in the cache (both tensor-core kernels).
struct BlockIndex {
  std::size_t row, col;
};
KOKKOS_INLINE_FUNCTION BlockIndex banded_block(std::size_t g, std::size_t gm, std::size_t gn) {
  constexpr std::size_t band = 8;
  const std::size_t per_band = band * gn, first = g / per_band * band;
  const std::size_t rows_here = gm - first < band ? gm - first : band;
  return {first + g % per_band % rows_here, g % per_band / rows_here};
}

/// Block sizes of the tensor-core kernel: BM×BN of C per group in WM×WN tiles per
/// sub-group, BK of K per step; on a device, min_groups groups resident per multiprocessor
/// (two: at most 128 registers per work-item with 8 sub-groups, 255 with 4; fp64's
/// default is one).
template <class In, bool Host, int DeviceBK = 16, int DeviceMinGroups = (std::is_same<In, double>::value ? 1 : 2),
          int DeviceStages = 0, int DeviceWN = 32, int DeviceFragmentK = 0>
struct JointShape {
  static constexpr bool fp64 = std::is_same<In, double>::value;
  using Value = std::conditional_t<fp64, double, float>;   // the matrices' element type
  static constexpr int KS = int(kapi::matrix::mma_k<In>);  // mma K
  // K of the A and B fragments a sub-group loads and multiplies at once (a multiple of
  // KS: more registers, fewer and longer mma instructions; 0: KS)
  static constexpr int KF = Host || DeviceFragmentK == 0 ? KS : DeviceFragmentK;
  static constexpr int BM = Host ? 64 : 128, BN = Host ? 64 : 128, BK = Host ? 32 : DeviceBK;
  static constexpr int WM = Host ? 32 : 64, WN = Host ? 32 : DeviceWN;
  // stages > 0: tiles copied asynchronously (kapi/async_copy.hpp) into `stages` buffers,
  // stages - 1 steps ahead; 0: the next tile staged in registers, two buffers.
  static constexpr int stages = Host ? 0 : DeviceStages;
  static_assert(stages == 0 || (stages >= 2 && (std::is_same<In, kapi::precision::tf32>::value || fp64)),
                "the asynchronous pipeline copies tiles as they are (tf32: fp32, rounded by the loads; fp64), in "
                "at least two buffers");
  // Local tiles hold the input type, rounded once as they are staged (tf32: precision::tf32,
  // not rounded again by each sub-group's loads); the asynchronous copies land fp32 as it
  // is, rounded by the loads.
  using Storage = std::conditional_t<(stages > 0), Value, In>;
  static constexpr int buffers = Host ? 1 : stages > 0 ? stages : 2;
  static constexpr int min_groups = Host ? 1 : DeviceMinGroups;
  // Row padding of the tiles, in elements. A: 16 bytes (its rows go through ldmatrix:
  // 8 rows 80 (tf32) or 48 (16-bit) bytes apart fall in 8 distinct bank quads); fp64 32
  // bytes (a half-warp's A(g, t), g < 4, t < 4, in 16 distinct 8-byte bank pairs: rows
  // 160 bytes apart). B: 8 (tf32: element loads of rows 8 banks apart; 16-bit: ldmatrix
  // rows 272 bytes apart); fp64 4 (B(t, g): rows 1056 bytes apart, 8 bank pairs).
  static constexpr int a_pad = Host ? 0 : fp64 ? 4 : 16 / int(sizeof(Storage)), b_pad = Host ? 0 : fp64 ? 4 : 8;
};

template <class In, class Shape, bool Host, std::size_t SubGroupSize>
struct JointMatmul {
  using S = typename Shape::Storage;
  using V = typename Shape::Value;
  static constexpr int RL = 16 / int(sizeof(V));  // a run: 16 bytes of a row
  static constexpr int BM = Shape::BM, BN = Shape::BN, BK = Shape::BK, KS = Shape::KS, KF = Shape::KF;
  static constexpr int WM = Shape::WM, WN = Shape::WN;
  static constexpr int warps_m = BM / WM, warps_n = BN / WN, warps = warps_m * warps_n;
  static constexpr int items = warps * int(SubGroupSize);
  static constexpr int a_stride = BK + Shape::a_pad, b_stride = BN + Shape::b_pad;
  static constexpr int a_tile_size = BM * a_stride, b_tile_size = BK * b_stride;
  /// The local memory a group's tiles take (every buffer of both).
  static constexpr std::size_t tile_bytes =
      std::size_t(Shape::buffers) * std::size_t(a_tile_size + b_tile_size) * sizeof(S);
  static_assert(BM % WM == 0 && BN % WN == 0 && BK % KF == 0 && KF % KS == 0, "sub-group tiles must tile the block");
  static_assert(BK % RL == 0 && BN % RL == 0, "tiles are copied in runs of 16 bytes");
  static constexpr int a_runs = BM * BK / RL, b_runs = BK * BN / RL;  // runs per tile
  static constexpr int a_per_item = (a_runs + items - 1) / items, b_per_item = (b_runs + items - 1) / items;
  using launch_bounds = kapi::LaunchBounds<items, Shape::min_groups>;

  using SG = kapi::SubGroup;
  using Acc = kapi::joint_matrix<SG, V, kapi::matrix::use::accumulator, WM, WN>;
  using AFrag = kapi::joint_matrix<SG, In, kapi::matrix::use::a, WM, KF, kapi::matrix::layout::row_major>;
  using BFrag = kapi::joint_matrix<SG, In, kapi::matrix::use::b, KF, WN, kapi::matrix::layout::row_major>;

  static kapi::NdRange<1> range(std::size_t m, std::size_t n) {
    const std::size_t groups = kapi::ceil_div(m, std::size_t(BM)) * kapi::ceil_div(n, std::size_t(BN));
    return kapi::NdRange<1>(kapi::Range<1>(groups * items), kapi::Range<1>(items));
  }

  // A run of RL consecutive elements of a row of a matrix; zeros outside it.
  using Run = kapi::Vec<V, RL>;
  template <class M>
  KOKKOS_INLINE_FUNCTION static Run fetch(const M& x, std::size_t r, std::size_t c, bool vectors) {
    const std::size_t rows = x.extent(0), cols = x.extent(1);
    Run run;
    if (vectors && r < rows && c + RL <= cols) {
      run = Run::load(&x(r, c));
    } else {
      for (int e = 0; e < RL; ++e) run.v[e] = r < rows && c + e < cols ? V(x(r, c + e)) : V(0);
    }
    return run;
  }
  KOKKOS_INLINE_FUNCTION static void put(S* dst, const Run& run) {
    if constexpr (std::is_same<S, V>::value) {
      run.store(dst);
    } else {  // rounded here, once per element and group
      using Bits = decltype(S::bits);
      kapi::Vec<Bits, RL> packed;
      for (int e = 0; e < RL; ++e) packed[e] = S(run.v[e]).bits;
      packed.store(reinterpret_cast<Bits*>(dst));
    }
  }

  struct Stage {
    Run a[a_per_item], b[b_per_item];
  };

  // Where run i of this work-item starts in a block of A (BM×BK) or B (BK×BN) whose rows
  // are ld apart: the step's block in the matrix (steps inside both matrices, 16-byte
  // aligned runs) or its tile in local memory (ld = a_stride, b_stride).
  KOKKOS_INLINE_FUNCTION static std::size_t a_offset(int i, int lid, std::size_t lda) {
    const int run = lid + i * items;
    return std::size_t(run / (BK / RL)) * lda + std::size_t(run % (BK / RL)) * RL;
  }
  KOKKOS_INLINE_FUNCTION static std::size_t b_offset(int i, int lid, std::size_t ldb) {
    const int run = lid + i * items;
    return std::size_t(run / (BN / RL)) * ldb + std::size_t(run % (BN / RL)) * RL;
  }

  // inside: the step's blocks lie inside A and B, rows contiguous and every run 16-byte
  // aligned, so that each run is one 16-byte load without checks (all but edge groups).
  template <class A, class B>
  KOKKOS_INLINE_FUNCTION static void fetch_tiles(Stage& s, const A& a, const B& b, std::size_t row0, std::size_t col0,
                                                 std::size_t k0, int lid, bool vectors, bool inside) {
    if (inside) {
      const V* pa = a.data() + row0 * a.stride(0) + k0;
      const V* pb = b.data() + k0 * b.stride(0) + col0;
      for (int i = 0; i < a_per_item; ++i)
        if (a_runs % items == 0 || lid + i * items < a_runs) s.a[i] = Run::load(pa + a_offset(i, lid, a.stride(0)));
      for (int i = 0; i < b_per_item; ++i)
        if (b_runs % items == 0 || lid + i * items < b_runs) s.b[i] = Run::load(pb + b_offset(i, lid, b.stride(0)));
      return;
    }
    for (int i = 0; i < a_per_item; ++i) {
      const int run = lid + i * items;
      if (a_runs % items == 0 || run < a_runs)
        s.a[i] = fetch(a, row0 + std::size_t(run / (BK / RL)), k0 + std::size_t(run % (BK / RL)) * RL, vectors);
    }
    for (int i = 0; i < b_per_item; ++i) {
      const int run = lid + i * items;
      if (b_runs % items == 0 || run < b_runs)
        s.b[i] = fetch(b, k0 + std::size_t(run / (BN / RL)), col0 + std::size_t(run % (BN / RL)) * RL, vectors);
    }
  }
  KOKKOS_INLINE_FUNCTION static void store_tiles(const Stage& s, S* as, S* bs, int lid) {
    for (int i = 0; i < a_per_item; ++i) {
      const int run = lid + i * items;
      if (a_runs % items == 0 || run < a_runs) put(as + a_offset(i, lid, a_stride), s.a[i]);
    }
    for (int i = 0; i < b_per_item; ++i) {
      const int run = lid + i * items;
      if (b_runs % items == 0 || run < b_runs) put(bs + b_offset(i, lid, b_stride), s.b[i]);
    }
  }

  // The asynchronous pipeline's copies: a run as one 16-byte copy where the run lies
  // inside the matrix (zeros for a row past its end), element by element at its right
  // edge and where rows are not 16-byte aligned.
  template <class M>
  KOKKOS_INLINE_FUNCTION static void copy_run(S* dst, const M& x, std::size_t r, std::size_t c, bool vectors) {
    const std::size_t rows = x.extent(0), cols = x.extent(1);
    if (vectors && (r >= rows || c + RL <= cols)) {
      const bool inside = r < rows;
      kapi::async_copy<16>(dst, inside ? &x(r, c) : x.data(), inside);
    } else {
      for (int e = 0; e < RL; ++e) {
        const bool inside = r < rows && c + e < cols;
        kapi::async_copy<int(sizeof(V))>(dst + e, inside ? &x(r, c + e) : x.data(), inside);
      }
    }
  }
  template <class A, class B>
  KOKKOS_INLINE_FUNCTION static void copy_tiles(S* as, S* bs, const A& a, const B& b, std::size_t row0,
                                                std::size_t col0, std::size_t k0, int lid, bool vectors, bool inside) {
    if (inside) {
      const V* pa = a.data() + row0 * a.stride(0) + k0;
      const V* pb = b.data() + k0 * b.stride(0) + col0;
      for (int i = 0; i < a_per_item; ++i) {
        const int run = lid + i * items;
        if (a_runs % items == 0 || run < a_runs)
          kapi::async_copy<16>(as + a_offset(i, lid, a_stride), pa + a_offset(i, lid, a.stride(0)), true);
      }
      for (int i = 0; i < b_per_item; ++i) {
        const int run = lid + i * items;
        if (b_runs % items == 0 || run < b_runs)
          kapi::async_copy<16>(bs + b_offset(i, lid, b_stride), pb + b_offset(i, lid, b.stride(0)), true);
      }
      return;
    }
    for (int i = 0; i < a_per_item; ++i) {
      const int run = lid + i * items;
      if (a_runs % items == 0 || run < a_runs)
        copy_run(as + a_offset(i, lid, a_stride), a, row0 + std::size_t(run / (BK / RL)),
                 k0 + std::size_t(run % (BK / RL)) * RL, vectors);
    }
    for (int i = 0; i < b_per_item; ++i) {
      const int run = lid + i * items;
      if (b_runs % items == 0 || run < b_runs)
        copy_run(bs + b_offset(i, lid, b_stride), b, k0 + std::size_t(run / (BN / RL)),
                 col0 + std::size_t(run % (BN / RL)) * RL, vectors);
    }
  }

  KOKKOS_INLINE_FUNCTION static void multiply_tiles(const SG& sg, Acc& acc, const S* as, const S* bs, int wm, int wn) {
    KAPI_UNROLL
    for (int kk = 0; kk < BK; kk += KF) {
      AFrag fa;
      BFrag fb;
      kapi::joint_matrix_load(sg, fa, as + wm * WM * a_stride + kk, a_stride);
      kapi::joint_matrix_load(sg, fb, bs + kk * b_stride + wn * WN, b_stride);
      kapi::joint_matrix_mad(sg, acc, fa, fb, acc);
    }
  }

  template <class A, class B, class C>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it, const A& a, const B& b, const C& c,
                                         const kapi::LocalAccessor<S, 1>& a_tiles,
                                         const kapi::LocalAccessor<S, 1>& b_tiles) const {
    const std::size_t m = c.extent(0), n = c.extent(1), k_extent = a.extent(1);
    const BlockIndex block = banded_block(it.get_group().get_group_id(0), kapi::ceil_div(m, std::size_t(BM)),
                                          kapi::ceil_div(n, std::size_t(BN)));
    const std::size_t row0 = block.row * BM, col0 = block.col * BN;

    const kapi::SubGroup sg = it.get_sub_group();
    const int w = int(sg.get_group_id()), wm = w / warps_n, wn = w % warps_n;
    const int lid = int(it.get_local_linear_id());
    // 16-byte loads where every run is aligned: row strides multiples of a run, aligned bases.
    const bool vectors = a.stride(0) % RL == 0 && b.stride(0) % RL == 0 &&
                         reinterpret_cast<std::uintptr_t>(a.data()) % 16 == 0 &&
                         reinterpret_cast<std::uintptr_t>(b.data()) % 16 == 0;
    // A group away from the right and bottom edges reads its steps without checks (the
    // last, partial step of K aside).
    const bool interior = vectors && a.stride(1) == 1 && b.stride(1) == 1 && row0 + BM <= m && col0 + BN <= n;
    const auto inside = [&](std::size_t k0) { return interior && k0 + BK <= k_extent; };
    S* const as = a_tiles.get_pointer();
    S* const bs = b_tiles.get_pointer();

    Acc acc;
    kapi::joint_matrix_fill(sg, acc, V(0));
    if constexpr (Shape::stages > 0) {
      // Step kt multiplies buffer kt % stages while steps kt+1 … kt+stages-1 are in
      // flight. One barrier per step: after it, tile kt has landed for every work-item
      // and every sub-group has finished step kt-1, whose buffer the copies for step
      // kt+stages-1 then overwrite. A batch is committed every step, empty or not, so
      // that the wait counts steps.
      constexpr int stages = Shape::stages;
      const std::size_t steps = kapi::ceil_div(k_extent, std::size_t(BK));
      for (int s = 0; s < stages - 1; ++s) {
        if (std::size_t(s) < steps)
          copy_tiles(as + s * a_tile_size, bs + s * b_tile_size, a, b, row0, col0, std::size_t(s) * BK, lid, vectors,
                     inside(std::size_t(s) * BK));
        kapi::async_copy_commit();
      }
      for (std::size_t kt = 0; kt < steps; ++kt) {
        kapi::async_copy_wait<stages - 2>();
        kapi::group_barrier(it.get_group());
        const std::size_t ahead = kt + stages - 1;
        if (ahead < steps) {
          const int slot = int(ahead % stages);
          copy_tiles(as + slot * a_tile_size, bs + slot * b_tile_size, a, b, row0, col0, ahead * BK, lid, vectors,
                     inside(ahead * BK));
        }
        kapi::async_copy_commit();
        const int slot = int(kt % stages);
        multiply_tiles(sg, acc, as + slot * a_tile_size, bs + slot * b_tile_size, wm, wn);
      }
    } else if constexpr (Shape::buffers == 2) {
      Stage stage;
      fetch_tiles(stage, a, b, row0, col0, 0, lid, vectors, inside(0));
      store_tiles(stage, as, bs, lid);
      kapi::group_barrier(it.get_group());
      int buf = 0;
      for (std::size_t k0 = 0; k0 < k_extent; k0 += BK) {
        const bool more = k0 + BK < k_extent;
        if (more)
          fetch_tiles(stage, a, b, row0, col0, k0 + BK, lid, vectors, inside(k0 + BK));  // flies during the multiply
        multiply_tiles(sg, acc, as + buf * a_tile_size, bs + buf * b_tile_size, wm, wn);
        if (more) store_tiles(stage, as + (buf ^ 1) * a_tile_size, bs + (buf ^ 1) * b_tile_size, lid);
        kapi::group_barrier(it.get_group());
        buf ^= 1;
      }
    } else {
      Stage stage;
      for (std::size_t k0 = 0; k0 < k_extent; k0 += BK) {
        fetch_tiles(stage, a, b, row0, col0, k0, lid, vectors, inside(k0));
        store_tiles(stage, as, bs, lid);
        kapi::group_barrier(it.get_group());
        multiply_tiles(sg, acc, as, bs, wm, wn);
        kapi::group_barrier(it.get_group());
      }
    }
    const std::size_t r = row0 + std::size_t(wm) * WM, col = col0 + std::size_t(wn) * WN;
    const std::size_t ldc = c.stride(0);
    if (r + WM <= m && col + WN <= n)
      kapi::joint_matrix_store(sg, acc, &c(r, col), ldc, kapi::matrix::layout::row_major);
    else if (r < m && col < n)
      kapi::joint_matrix_store_checked(sg, acc, c.data(), ldc, kapi::matrix::layout::row_major, m, n, r, col);
  }
};

/// C = A·B on the tensor cores with In inputs and the given shape (JointShape).
template <class In, class Shape, class ExecSpace, class A, class B, class C>
void multiply_joint_matrix_shaped(const ExecSpace& space, const A& a, const B& b, const C& c,
                                  Completion done = Completion::written) {
  using T = typename C::non_const_value_type;
  if constexpr (!std::is_same<T, typename Shape::Value>::value) {
    throw std::invalid_argument(Shape::fp64 ? "matmul: tuned-fp64 takes double matrices (fp64 products and sums "
                                              "on the matrix units), not " +
                                                  std::to_string(sizeof(T) * 8) + "-bit elements"
                                            : "matmul: the reduced-precision tensor-core variants take float "
                                              "matrices (fp32 in, reduced-precision products, fp32 sums), not " +
                                                  std::to_string(sizeof(T) * 8) + "-bit elements");
  } else {
    using Kernel =
        JointMatmul<In, Shape, kapi::is_host_execution_space_v<ExecSpace>, kapi::max_sub_group_size<ExecSpace>()>;
    if (c.extent(0) == 0 || c.extent(1) == 0) return;
    kapi::LocalAccessor<typename Shape::Storage, 1> a_tiles(Shape::buffers * Kernel::a_tile_size),
        b_tiles(Shape::buffers * Kernel::b_tile_size);
    finish(kapi::call_kernel_async(space, Kernel{}, Kernel::range(c.extent(0), c.extent(1)), a, b, c, a_tiles, b_tiles),
           done);
  }
}

/// The shape multiply_joint_matrix runs: JointShape's defaults; for fp64 on a device the
/// tiles copied asynchronously, 3 stages, and fragments of K = 16 (m16n8k16 on sm_90): the
/// fastest measured shape whose 112 KiB of tiles fit sm_80's and sm_90's local memory
/// (results/cuda-hopper-h100-2026-12-06-fp64); longer steps where the device holds them
/// (LongStepsFp64Shape below).
template <class In, bool Host>
struct DefaultJointShape {
  using type = JointShape<In, Host>;
};
template <bool Host>
struct DefaultJointShape<double, Host> {
  using type = JointShape<double, Host, 16, 1, 3, 32, 16>;
};

/// fp64 on a device whose groups may hold three stages of steps of 32 (207 KiB of tiles:
/// sm_90's 227 KiB, not sm_80's 164): those, 2–3 points of cuBLAS DGEMM faster than
/// DefaultJointShape's steps of 16 on an H100 (results/cuda-hopper-h100-2026-12-07-8).
using LongStepsFp64Shape = JointShape<double, false, 32, 1, 3, 32, 16>;

/// Whether `space`'s device gives one group LongStepsFp64Shape's tiles in its fast local
/// memory (a launch that does not fit there would run from Kokkos' global scratch).
template <class ExecSpace>
bool takes_long_fp64_steps(const ExecSpace& space) {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same<ExecSpace, Kokkos::Cuda>::value) {
    using Kernel = JointMatmul<double, LongStepsFp64Shape, false, kapi::max_sub_group_size<ExecSpace>()>;
    int optin = 0;
    return cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, space.cuda_device()) ==
               cudaSuccess &&
           std::size_t(optin) >= Kernel::tile_bytes;
  }
#endif
  (void)space;
  return false;
}

/// C = A·B on the tensor cores with In (precision::tf32, kapi::bfloat16 or kapi::half)
/// inputs and A, B and C fp32, or In double and A, B and C fp64; the shape for the kind
/// of backend `space` is (fp64: for its device, takes_long_fp64_steps).
template <class In, class ExecSpace, class A, class B, class C>
void multiply_joint_matrix(const ExecSpace& space, const A& a, const B& b, const C& c,
                           Completion done = Completion::written) {
  constexpr bool host = kapi::is_host_execution_space_v<ExecSpace>;
  if constexpr (std::is_same<In, double>::value && !host) {
    if (takes_long_fp64_steps(space)) return multiply_joint_matrix_shaped<In, LongStepsFp64Shape>(space, a, b, c, done);
  }
  multiply_joint_matrix_shaped<In, typename DefaultJointShape<In, host>::type>(space, a, b, c, done);
}

}  // namespace matmul
