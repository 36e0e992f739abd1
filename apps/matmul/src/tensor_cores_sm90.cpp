// SPDX-License-Identifier: Apache-2.0
// The tensor-core matmul on Hopper's warpgroup MMA (matmul/tensor_cores_sm90.hpp says what
// and why). This translation unit alone is compiled for sm_90a as well as Kokkos' sm_90;
// every kernel in it is launched only where runs_on() found the sm_90a code running.
#include <matmul/tensor_cores_sm90.hpp>

#include <matmul/tensor_cores.hpp>  // banded_block: the portable kernel's group order

#include <cstddef>
#include <cstdint>
#include <exception>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

#include <kapi/barrier.hpp>
#include <kapi/errors.hpp>
#include <kapi/integer_math.hpp>
#include <kapi/item.hpp>
#include <kapi/launch.hpp>
#include <kapi/launch_bounds.hpp>
#include <kapi/local_accessor.hpp>
#include <kapi/range.hpp>
#include <kapi/reduced_precision.hpp>
#include <kapi/vec.hpp>

namespace matmul::sm90 {
namespace {

// The block of C a group computes, and the tiles of one K step: 128-byte rows of A's BM
// rows and of B's BN columns (B transposed), each tile one contiguous run in the workspace
// and in shared memory.
constexpr int BM = 128, BN = 256, row_bytes = 128;
constexpr int a_tile_bytes = BM * row_bytes, b_tile_bytes = BN * row_bytes, stage_bytes = a_tile_bytes + b_tile_bytes;
constexpr int stages = 4;                     // steps in flight
constexpr int consumers = 2;                  // warpgroups that multiply, 64 rows of the block each
constexpr int items = 128 * (consumers + 1);  // and one that copies
constexpr int local_bytes = 1024 + stages * stage_bytes + 2 * stages * 8;  // 1024: to align the tiles

template <class In>
KOKKOS_INLINE_FUNCTION constexpr int bk() {  // elements of K per step: one 128-byte row
  return row_bytes / int(sizeof(In));
}

// Byte offset of 16-byte chunk `chunk` of row r in a tile of 128-byte rows, swizzled as
// wgmma's 128-byte-swizzle descriptors read it (the chunk index XOR the row mod 8, over
// a tile aligned to 1024 bytes).
KOKKOS_INLINE_FUNCTION constexpr std::size_t swizzled(std::size_t r, std::size_t chunk) {
  return r * row_bytes + ((chunk ^ (r & 7)) * 16);
}

// ---- packing
// `Elements` elements element(0 … Elements - 1) rounded to In, in order, as one store to
// `out` (aligned to their size).
template <class In, int Elements, class Element>
KOKKOS_INLINE_FUNCTION void write_rounded(std::uint8_t* out, const Element& element) {
  constexpr int per_word = 4 / int(sizeof(In)), words_count = Elements / per_word;
  kapi::Vec<std::uint32_t, words_count> words;
  for (int w = 0; w < words_count; ++w) {
    std::uint32_t word = 0;
    for (int h = 0; h < per_word; ++h)
      word |= std::uint32_t(In(element(std::size_t(w * per_word + h))).bits) << (16 * h);
    words[w] = word;
  }
  words.store(reinterpret_cast<std::uint32_t*>(out));
}

// Whether every row of `m` may be read four floats at a time (Vec<float, 4> loads at
// columns that are multiples of 4).
inline bool rows_in_vectors(const Input& m) {
  return m.stride(1) == 1 && m.stride(0) % 4 == 0 && reinterpret_cast<std::uintptr_t>(m.data()) % 16 == 0;
}

// A (m×k) → blocks of BM rows × steps: tile (bm, kt) at (bm·steps + kt)·a_tile_bytes. One
// work-item per four elements of A, in the packed order: a warp's loads are whole
// 16-byte runs of A's rows (the swizzle permutes the runs within a row's K step), and its
// stores are consecutive.
template <class In>
struct PackA {
  static constexpr std::size_t out_bytes = 4 * sizeof(In);
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::Item<1>& it, const Input& a, std::uint8_t* packed,
                                         std::size_t steps, bool vector_rows) const {
    const std::size_t p = it.get_id(0) * out_bytes, tile = p / a_tile_bytes, at = p % a_tile_bytes;
    const std::size_t r = at / row_bytes, in_row = at % row_bytes;
    const std::size_t chunk = (in_row / 16) ^ (r & 7);  // the chunk the swizzle puts here
    const std::size_t row = tile / steps * BM + r;
    const std::size_t k0 = tile % steps * bk<In>() + chunk * (16 / sizeof(In)) + in_row % 16 / sizeof(In);
    if (vector_rows && row < a.extent(0) && k0 + 4 <= a.extent(1)) {
      const auto x = kapi::Vec<float, 4>::load(&a(row, k0));
      write_rounded<In, 4>(packed + p, [&](std::size_t e) { return x[int(e)]; });
    } else {
      write_rounded<In, 4>(
          packed + p, [&](std::size_t e) { return row < a.extent(0) && k0 + e < a.extent(1) ? a(row, k0 + e) : 0.0f; });
    }
  }
};

// B (k×n) → transposed blocks of BN columns × steps: tile (bn, kt) at (bn·steps + kt)·
// b_tile_bytes, row c of a tile holding column c's K step. A group of `items` work-items
// makes `items` rows of a tile in local memory, work-item c its row c (reads along B's
// rows coalesced; the swizzle spreads a warp's 16-byte stores over every bank), then
// copies them out whole. (Writing each 16-byte chunk straight to global memory, 128 bytes
// apart, took several times as long as A's pack on an H100; a group per whole tile left
// too few groups to keep the memory busy below n = 8192.)
template <class In>
struct PackB {
  static constexpr int items = 64, parts = BN / items;  // groups per tile
  static constexpr int image_bytes = items * row_bytes;
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it, const Input& b, std::uint8_t* packed,
                                         std::size_t steps, const kapi::LocalAccessor<std::uint32_t, 1>& image) const {
    constexpr std::size_t per_chunk = 16 / sizeof(In);
    const std::size_t group = it.get_group().get_group_id(0), tile = group / parts, part = group % parts;
    const std::size_t c = it.get_local_linear_id();
    const std::size_t col = tile / steps * BN + part * items + c, k0 = tile % steps * bk<In>();
    auto* const row = reinterpret_cast<std::uint8_t*>(image.get_pointer());
    for (std::size_t chunk = 0; chunk < 8; ++chunk)  // the image's row c is the tile's row part·items + c
      write_rounded<In, int(per_chunk)>(row + swizzled(c, chunk), [&](std::size_t e) {
        const std::size_t k = k0 + chunk * per_chunk + e;
        return col < b.extent(1) && k < b.extent(0) ? b(k, col) : 0.0f;
      });
    kapi::group_barrier(it.get_group());
    using Chunk = kapi::Vec<std::uint32_t, 4>;
    std::uint8_t* const out = packed + tile * b_tile_bytes + part * image_bytes;
    for (std::size_t j = c; j < std::size_t(image_bytes / 16); j += items)
      Chunk::load(image.get_pointer() + 4 * j).store(reinterpret_cast<std::uint32_t*>(out) + 4 * j);
  }
};

// ---- the product
struct Operands {
  const std::uint8_t* a;  // packed A, B
  const std::uint8_t* b;
  std::size_t steps;   // K steps
  std::size_t gm, gn;  // blocks of C down and across
};

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
// mbarriers in shared memory (addresses in the shared window): a phase completes when
// `count` arrivals and the transfers they announced are in.
__device__ inline void barrier_init(std::uint32_t bar, std::uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count) : "memory");
}
__device__ inline void barrier_inval(std::uint32_t bar) {
  asm volatile("mbarrier.inval.shared::cta.b64 [%0];\n" ::"r"(bar) : "memory");
}
__device__ inline void barrier_arrive(std::uint32_t bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}
// Arrives, announcing `bytes` to come from bulk copies.
__device__ inline void barrier_arrive_expecting(std::uint32_t bar, std::uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes) : "memory");
}
// Waits until the phase of the given parity has completed.
__device__ inline void barrier_wait(std::uint32_t bar, std::uint32_t parity) {
  std::uint32_t done = 0;
  do {
    asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}\n"
                 : "=r"(done)
                 : "r"(bar), "r"(parity)
                 : "memory");
  } while (!done);
}
// A contiguous copy from global to shared memory by the TMA engine, completing on `bar`.
__device__ inline void bulk_copy(std::uint32_t dst, const void* src, std::uint32_t bytes, std::uint32_t bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n" ::"r"(dst),
               "l"(src), "r"(bytes), "r"(bar)
               : "memory");
}

#define MATMUL_WGMMA_D                                                                           \
  "{"                                                                                            \
  "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "                       \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "             \
  "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "             \
  "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "             \
  "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "             \
  "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "             \
  "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, " \
  "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}"
#define MATMUL_WGMMA_D8(i)                                                                                    \
  "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]), "+f"(d[i + 6]), \
      "+f"(d[i + 7])
#define MATMUL_WGMMA_OUTS                                                                                        \
  MATMUL_WGMMA_D8(0), MATMUL_WGMMA_D8(8), MATMUL_WGMMA_D8(16), MATMUL_WGMMA_D8(24), MATMUL_WGMMA_D8(32),         \
      MATMUL_WGMMA_D8(40), MATMUL_WGMMA_D8(48), MATMUL_WGMMA_D8(56), MATMUL_WGMMA_D8(64), MATMUL_WGMMA_D8(72),   \
      MATMUL_WGMMA_D8(80), MATMUL_WGMMA_D8(88), MATMUL_WGMMA_D8(96), MATMUL_WGMMA_D8(104), MATMUL_WGMMA_D8(112), \
      MATMUL_WGMMA_D8(120)

// d += A·B for the warpgroup's 64×256 tile, one K slice of 32 bytes; A and B K-major in
// shared memory (descriptors).
__device__ inline void wgmma(float (&d)[128], std::uint64_t a, std::uint64_t b, kapi::precision::tf32) {
  asm volatile("wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 " MATMUL_WGMMA_D ", %128, %129, 1, 1, 1;\n"
               : MATMUL_WGMMA_OUTS
               : "l"(a), "l"(b));
}
__device__ inline void wgmma(float (&d)[128], std::uint64_t a, std::uint64_t b, kapi::bfloat16) {
  asm volatile("wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 " MATMUL_WGMMA_D ", %128, %129, 1, 1, 1, 0, 0;\n"
               : MATMUL_WGMMA_OUTS
               : "l"(a), "l"(b));
}
__device__ inline void wgmma(float (&d)[128], std::uint64_t a, std::uint64_t b, kapi::half) {
  asm volatile("wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 " MATMUL_WGMMA_D ", %128, %129, 1, 1, 1, 0, 0;\n"
               : MATMUL_WGMMA_OUTS
               : "l"(a), "l"(b));
}
// The accumulators stay in the registers the asynchronous MMAs write: the compiler moves
// no copy of them across this point.
__device__ inline void pin(float (&d)[128]) { asm volatile("" : MATMUL_WGMMA_OUTS : : "memory"); }
#undef MATMUL_WGMMA_OUTS
#undef MATMUL_WGMMA_D8
#undef MATMUL_WGMMA_D

__device__ inline void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ inline void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
template <int Pending>
__device__ inline void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(Pending) : "memory");
}

// A shared-memory matrix descriptor: K-major, 128-byte swizzle, rows 128 bytes apart, groups
// of 8 rows 1024 bytes apart.
__device__ inline std::uint64_t descriptor(std::uint32_t address) {
  return std::uint64_t((address & 0x3ffff) >> 4) | (std::uint64_t(1) << 16) | (std::uint64_t(1024 >> 4) << 32) |
         (std::uint64_t(1) << 62);
}
#endif

template <class In>
struct Wgmma {
  using launch_bounds = kapi::LaunchBounds<items, 1>;

  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it, const Operands& op, const Output& c,
                                         const kapi::LocalAccessor<char, 1>& local) const {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    const BlockIndex block = banded_block(it.get_group().get_group_id(0), op.gm, op.gn);
    const std::size_t bm = block.row, bn = block.col;
    const int lid = int(it.get_local_linear_id()), wg = lid / 128;

    const auto raw = std::uint32_t(__cvta_generic_to_shared(local.get_pointer()));
    const std::uint32_t tiles = (raw + 1023u) & ~1023u;  // the swizzle repeats every 1024 bytes
    const std::uint32_t full = tiles + stages * stage_bytes, empty = full + 8 * stages;  // barriers per stage
    const auto a_tile = [&](int s) { return tiles + std::uint32_t(s * stage_bytes); };
    const auto b_tile = [&](int s) { return tiles + std::uint32_t(s * stage_bytes + a_tile_bytes); };
    if (lid == 0) {
      for (int s = 0; s < stages; ++s) {
        barrier_init(full + 8 * s, 1);               // the copier's arrival, and the bytes
        barrier_init(empty + 8 * s, 4 * consumers);  // each multiplying warp, done reading
      }
      asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    }
    kapi::group_barrier(it.get_group());

    const std::size_t steps = op.steps;
    if (wg == consumers) {  // the copier: one work-item issues every copy
      if (lid == 128 * consumers) {
        const std::uint8_t* a = op.a + bm * steps * a_tile_bytes;
        const std::uint8_t* b = op.b + bn * steps * b_tile_bytes;
        for (std::size_t kt = 0; kt < steps; ++kt) {
          const int s = int(kt % stages);
          if (kt >= std::size_t(stages)) barrier_wait(empty + 8 * s, std::uint32_t(kt / stages - 1) & 1u);
          barrier_arrive_expecting(full + 8 * s, stage_bytes);
          bulk_copy(a_tile(s), a + kt * a_tile_bytes, a_tile_bytes, full + 8 * s);
          bulk_copy(b_tile(s), b + kt * b_tile_bytes, b_tile_bytes, full + 8 * s);
        }
      }
    } else {
      float d[128];
      for (int e = 0; e < 128; ++e) d[e] = 0.0f;
      const int lane = lid % 32;
      for (std::size_t kt = 0; kt < steps; ++kt) {
        const int s = int(kt % stages);
        barrier_wait(full + 8 * s, std::uint32_t(kt / stages) & 1u);
        pin(d);
        wgmma_fence();
        const std::uint32_t a = a_tile(s) + std::uint32_t(wg * 64 * row_bytes), b = b_tile(s);
        for (int kk = 0; kk < 4; ++kk)  // 32 bytes of K each
          wgmma(d, descriptor(a + 32u * kk), descriptor(b + 32u * kk), In());
        wgmma_commit();
        wgmma_wait<1>();  // the step before this one is done: its stage may be refilled
        pin(d);
        if (kt > 0 && lane == 0) barrier_arrive(empty + 8 * int((kt - 1) % stages));
      }
      wgmma_wait<0>();
      pin(d);
      store(d, c, bm * BM + std::size_t(wg * 64), bn * BN, lid % 128);
    }
    kapi::group_barrier(it.get_group());  // every arrival is in: the barriers may go
    if (lid == 0)
      for (int s = 0; s < 2 * stages; ++s) barrier_inval(full + 8 * s);
#else
    (void)it, (void)op, (void)c, (void)local;  // launched only where sm_90a code runs (runs_on)
#endif
  }

  // Accumulator d[4j + q] of work-item t of a warpgroup: row 16·(t / 32) + (t % 32) / 4
  // (+8 for q ≥ 2), column 8j + 2·(t % 4) (+1 for odd q).
  KOKKOS_INLINE_FUNCTION static void store(const float (&d)[128], const Output& c, std::size_t row0, std::size_t col0,
                                           int t) {
    const std::size_t m = c.extent(0), n = c.extent(1), ldc = c.stride(0);
    const std::size_t r_base = row0 + std::size_t(16 * (t / 32) + (t % 32) / 4);
    const std::size_t c_base = col0 + std::size_t(2 * (t % 4));
    const bool pairs = c.stride(1) == 1 && ldc % 2 == 0 && reinterpret_cast<std::uintptr_t>(c.data()) % 8 == 0;
    for (int half = 0; half < 2; ++half) {
      const std::size_t r = r_base + std::size_t(8 * half);
      if (r >= m) continue;
      for (int j = 0; j < 32; ++j) {
        const std::size_t col = c_base + std::size_t(8 * j);
        const float x = d[4 * j + 2 * half], y = d[4 * j + 2 * half + 1];
        if (pairs && col + 2 <= n) {
          *reinterpret_cast<float2*>(c.data() + r * ldc + col) = make_float2(x, y);
        } else {
          if (col < n) c(r, col) = x;
          if (col + 1 < n) c(r, col + 1) = y;
        }
      }
    }
  }
};

/// Writes 1 to its flag where the device runs this translation unit's sm_90a code.
struct Probe {
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::Item<1>&, const Kokkos::View<int, Kokkos::CudaSpace>& flag) const {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    flag() = 1;
#else
    flag() = 0;
#endif
  }
};

// The packed matrices, kept between calls (one call at a time: the lock is held until
// the product is written) on the device they were made for, and released at
// Kokkos::finalize.
struct Workspace {
  std::mutex lock;
  Kokkos::View<std::uint8_t*, Kokkos::CudaSpace> bytes;
  int device = -1;
  bool release_hooked = false;
  // Recorded after a queued call's product on its stream: a call on another stream, or
  // one that replaces the workspace, waits for it first.
  cudaEvent_t product_done = nullptr;
  cudaStream_t queued_on = nullptr;
  bool in_flight = false;
};
Workspace& workspace() {
  static Workspace w;
  return w;
}

}  // namespace

bool runs_on(const Kokkos::Cuda& space) {
  static std::mutex lock;
  static int known_device = -1;
  static bool runs = false;
  const std::lock_guard<std::mutex> hold(lock);
  if (known_device != space.cuda_device()) {
    Kokkos::View<int, Kokkos::CudaSpace> flag("matmul::sm90a probe flag");
    kapi::call_kernel("matmul::sm90a_probe", space, Probe{}, kapi::Range<1>(1), flag);
    int h = 0;
    Kokkos::deep_copy(h, flag);
    runs = h == 1;
    known_device = space.cuda_device();
  }
  return runs;
}

template <class In>
bool multiply(const Kokkos::Cuda& space, const Input& a, const Input& b, const Output& c, Completion done) {
  const std::size_t m = c.extent(0), n = c.extent(1), k = a.extent(1);
  if (m == 0 || n == 0) return true;
  const std::size_t steps = kapi::ceil_div(k, std::size_t(bk<In>()));
  const std::size_t gm = kapi::ceil_div(m, std::size_t(BM)), gn = kapi::ceil_div(n, std::size_t(BN));
  std::size_t a_bytes = 0, b_bytes = 0, groups = 0, total = 0;
  // Sizes whose packed copy or group count no launch can hold: the portable kernel takes
  // them, or says why not.
  if (__builtin_mul_overflow(gm, steps, &a_bytes) ||
      __builtin_mul_overflow(a_bytes, std::size_t(a_tile_bytes), &a_bytes) ||
      __builtin_mul_overflow(gn, steps, &b_bytes) ||
      __builtin_mul_overflow(b_bytes, std::size_t(b_tile_bytes), &b_bytes) ||
      __builtin_add_overflow(a_bytes, b_bytes, &total) || __builtin_mul_overflow(gm, gn, &groups) ||
      groups > std::size_t(1) << 31)
    return false;

  Workspace& w = workspace();
  const std::lock_guard<std::mutex> hold(w.lock);
  const bool replaced = w.bytes.extent(0) < total || w.device != space.cuda_device();
  if (w.in_flight && (replaced || w.queued_on != space.cuda_stream()) &&
      cudaEventSynchronize(w.product_done) != cudaSuccess)
    throw kapi::launch_error("matmul::sm90::multiply: waiting for the previous product on another stream failed");
  w.in_flight = false;
  if (replaced) {
    w.bytes = {};  // the old one goes first: the two need not fit together
    try {
      w.bytes = Kokkos::View<std::uint8_t*, Kokkos::CudaSpace>(
          Kokkos::view_alloc(Kokkos::WithoutInitializing, "matmul::tensor-core workspace"), total);
    } catch (const std::exception&) {
      return false;  // no room for the packed copy: the portable kernel needs none
    }
    w.device = space.cuda_device();
    if (!w.release_hooked) {
      Kokkos::push_finalize_hook([] {  // run once: registered again after a new initialize
        workspace().bytes = {};
        if (workspace().product_done) cudaEventDestroy(workspace().product_done);
        workspace().product_done = nullptr;
        workspace().in_flight = false;
        workspace().release_hooked = false;
      });
      w.release_hooked = true;
    }
  }
  std::uint8_t* const packed_a = w.bytes.data();
  std::uint8_t* const packed_b = packed_a + a_bytes;
  const char* type = std::is_same<In, kapi::precision::tf32>::value ? "tf32"
                     : std::is_same<In, kapi::bfloat16>::value      ? "bf16"
                                                                    : "fp16";
  // The packs run before the product on the same stream; waited for with it (a failure
  // of either is reported there) or, queued, reported at the space's next wait.
  std::vector<kapi::KernelEvent<Kokkos::Cuda>> packs;
  if (steps > 0) {
    packs.push_back(kapi::call_kernel_async(std::string("matmul::pack_a_") + type, space, PackA<In>{},
                                            kapi::Range<1>(a_bytes / PackA<In>::out_bytes), a, packed_a, steps,
                                            rows_in_vectors(a)));
    const std::size_t b_groups = b_bytes / b_tile_bytes * PackB<In>::parts;
    packs.push_back(kapi::call_kernel_async(
        std::string("matmul::pack_b_") + type, space, PackB<In>{},
        kapi::NdRange<1>(kapi::Range<1>(b_groups * PackB<In>::items), kapi::Range<1>(PackB<In>::items)), b, packed_b,
        steps, kapi::LocalAccessor<std::uint32_t, 1>(PackB<In>::image_bytes / 4)));
  }
  const Operands op{packed_a, packed_b, steps, gm, gn};
  const auto product = kapi::call_kernel_async(std::string("matmul::wgmma_") + type, space, Wgmma<In>{},
                                               kapi::NdRange<1>(kapi::Range<1>(groups * items), kapi::Range<1>(items)),
                                               op, c, kapi::LocalAccessor<char, 1>(local_bytes));
  if (done == Completion::queued) {
    if (!w.product_done && cudaEventCreateWithFlags(&w.product_done, cudaEventDisableTiming) != cudaSuccess)
      w.product_done = nullptr;
    if (w.product_done && cudaEventRecord(w.product_done, space.cuda_stream()) == cudaSuccess) {
      w.queued_on = space.cuda_stream();
      w.in_flight = true;
      return true;
    }
  }
  product.wait();
  for (const auto& pack : packs) pack.wait();
  return true;
}

template bool multiply<kapi::precision::tf32>(const Kokkos::Cuda&, const Input&, const Input&, const Output&,
                                              Completion);
template bool multiply<kapi::bfloat16>(const Kokkos::Cuda&, const Input&, const Input&, const Output&, Completion);
template bool multiply<kapi::half>(const Kokkos::Cuda&, const Input&, const Input&, const Output&, Completion);

}  // namespace matmul::sm90
