// SPDX-License-Identifier: Apache-2.0
#pragma once
// joint_matrix: a matrix tile held jointly by the work-items of a sub-group, multiplied on
// the tensor cores where the backend has them; the semantics of SYCL's joint_matrix
// extension (sycl::ext::oneapi::experimental::matrix), names in kapi::matrix:
//
//   using namespace kapi::matrix;
//   joint_matrix<SG, precision::tf32, use::a, 16, 8, layout::row_major> a;
//   joint_matrix<SG, precision::tf32, use::b, 8, 16, layout::row_major> b;
//   joint_matrix<SG, float, use::accumulator, 16, 16> c;
//   joint_matrix_fill(sg, c, 0.0f);
//   joint_matrix_load(sg, a, a_ptr, lda);           // global (a View's data()) or local memory
//   joint_matrix_load(sg, b, b_ptr, ldb);
//   joint_matrix_mad(sg, c, a, b, c);               // c = a·b + c
//   joint_matrix_store(sg, c, c_ptr, ldc, layout::row_major);
//
// Every work-item of the sub-group calls each function with the same arguments (sg is
// the caller's sub-group, as in SYCL). Pointers and strides count elements.
//
// Element types (A and B; the accumulator is float, or double for double inputs):
//   precision::tf32  loaded from float, each element rounded by kapi::round_to_tf32
//                    (to nearest, ties away: cvt.rna.tf32.f32) as it is loaded, or from
//                    precision::tf32 (rounded when it was stored: a tile staged in local
//                    memory once and loaded by several sub-groups is rounded once per
//                    element, not once per load); shapes M×K×N with K a multiple of 8
//                    (SYCL's CUDA backend: m16n16k8)
//   kapi::bfloat16, kapi::half
//                    loaded from the same type; K a multiple of 16 (m16n16k16, m32n8k16,
//                    m8n32k16)
//   double           loaded from double, used as it is, with a double accumulator (fp64
//                    products on the matrix units: DMMA); K a multiple of 4 (m8n8k4)
//   M (rows of A and of the accumulator) is 8 or a multiple of 16 (double: a multiple of
//   8), N a multiple of 8; other shapes and types fail to compile with a message saying
//   which.
// Products of two such inputs are exact in float; they are summed in float (the order and
// the rounding of the sums may differ between backends: tensor cores sum groups of
// products with one rounding), so results agree within K·2^-23·Σ|a||b| per element
// (double: products rounded once and summed in double, K·2^-52·Σ|a||b|).
//
// Backends:
//   CUDA sm_80+ (device pass): a sub-group is a warp; the tile is spread over its 32 lanes
//     in the register fragments of PTX mma.sync m16n8k8 (tf32) and m16n8k16 (bf16, fp16);
//     a tile larger than one mma shape holds several fragments (an 8-row tile is padded
//     to 16 rows with zeros). double: fragments of m8n8k4, issued on sm_90 as m16n8k16
//     (m16n8k8, m16n8k4 where K is shorter) over pairs of 8-row fragments. Loads from
//     local memory use ldmatrix where the layout allows (row-major A; row-major 16-bit
//     B), other loads read elements.
//   Host backends and other devices: a sub-group is one work-item, which holds the whole
//     tile as floats (doubles for double tiles; inputs rounded exactly as above) and
//     multiplies with plain loops.
//     On a device without the mma path every work-item of the sub-group computes the
//     whole tile (redundant, still correct).
// The checked forms joint_matrix_load_checked / joint_matrix_store_checked (those of
// SYCL's sycl_ext_intel_matrix) take the tile at (row, col) of a height×width matrix:
// elements outside read as zero and are not stored (edges of matrices that are not
// multiples of the tile).
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <kapi/config.hpp>
#include <kapi/detail/device_instructions.hpp>
#include <kapi/reduced_precision.hpp>

#if KAPI_CUDA_ARCH >= 800
#define KAPI_JOINT_MATRIX_MMA 1
#else
#define KAPI_JOINT_MATRIX_MMA 0
#endif

namespace kapi {
namespace matrix {

enum class use { a, b, accumulator };
enum class layout { row_major, col_major, dynamic };
namespace precision = kapi::precision;

namespace detail {

template <class T>
struct element;  // what an A or B element type is stored as, loaded from, and its mma K
template <>
struct element<precision::tf32> {
  using load_type = float;  // or precision::tf32: already rounded
  static constexpr std::size_t k = 8;
  KAPI_FUNCTION static float value(float x) { return round_to_tf32(x); }
  KAPI_FUNCTION static float value(precision::tf32 x) { return float(x); }
};
template <>
struct element<bfloat16> {
  using load_type = bfloat16;
  static constexpr std::size_t k = 16;
  KAPI_FUNCTION static float value(bfloat16 x) { return float(x); }
};
template <>
struct element<half> {
  using load_type = half;
  static constexpr std::size_t k = 16;
  KAPI_FUNCTION static float value(half x) { return float(x); }
};
template <>
struct element<double> {
  using load_type = double;
  static constexpr std::size_t k = 4;
  KAPI_FUNCTION static double value(double x) { return x; }
};

/// What a tile of element type T computes in: double for double tiles, float otherwise.
template <class T>
using value_t = std::conditional_t<std::is_same<T, double>::value, double, float>;

template <class T>
struct is_input : std::false_type {};
template <>
struct is_input<precision::tf32> : std::true_type {};
template <>
struct is_input<bfloat16> : std::true_type {};
template <>
struct is_input<half> : std::true_type {};
template <>
struct is_input<double> : std::true_type {};

template <class T, use Use, std::size_t Rows, std::size_t Cols>
struct check_shape {
  static constexpr bool input = Use != use::accumulator;
  static constexpr bool fp64 = std::is_same<T, double>::value;
  static_assert(!input || is_input<T>::value,
                "kapi::joint_matrix: A and B elements must be precision::tf32, kapi::bfloat16, kapi::half or double");
  static_assert(input || std::is_same<T, float>::value || fp64,
                "kapi::joint_matrix: the accumulator element type must be float, or double for double inputs");
  static constexpr std::size_t k = input ? element<std::conditional_t<input, T, precision::tf32>>::k : 8;
  static constexpr bool rows_ok = fp64 ? Rows % 8 == 0 && Rows > 0 : Rows == 8 || Rows % 16 == 0;
  static_assert(Use != use::a || (rows_ok && Cols % k == 0 && Cols > 0),
                "kapi::joint_matrix: use::a must be M×K with M 8 or a multiple of 16 (double: of 8) and K a multiple "
                "of 8 (tf32), 16 (bf16, fp16) or 4 (double)");
  static_assert(Use != use::b || (Rows % k == 0 && Cols % 8 == 0 && Rows > 0 && Cols > 0),
                "kapi::joint_matrix: use::b must be K×N with K a multiple of 8 (tf32), 16 (bf16, fp16) or 4 "
                "(double) and N a multiple of 8");
  static_assert(Use != use::accumulator || (rows_ok && Cols % 8 == 0 && Cols > 0),
                "kapi::joint_matrix: use::accumulator must be M×N with M 8 or a multiple of 16 (double: of 8) and N "
                "a multiple of 8");
  static constexpr bool ok = true;
};

KAPI_FUNCTION constexpr std::size_t offset(layout l, std::size_t r, std::size_t c, std::size_t stride) {
  return l == layout::col_major ? c * stride + r : r * stride + c;
}

#if KAPI_JOINT_MATRIX_MMA
// ---- CUDA: per-lane fragments of mma.sync ------------------------------------------
namespace cuda_ops = ::kapi::detail::cuda_ops;  // the instructions (cuda/detail/mma.hpp)
template <class T, use Use, std::size_t Rows, std::size_t Cols>
struct fragments;
template <class T, std::size_t Rows, std::size_t Cols>
struct fragments<T, use::a, Rows, Cols> {
  static constexpr std::size_t FM = (Rows + 15) / 16, FK = Cols / element<T>::k;
  std::uint32_t r[FM][FK][4];
};
template <class T, std::size_t Rows, std::size_t Cols>
struct fragments<T, use::b, Rows, Cols> {
  static constexpr std::size_t FK = Rows / element<T>::k, FN = Cols / 8;
  std::uint32_t r[FK][FN][2];
};
template <class T, std::size_t Rows, std::size_t Cols>
struct fragments<T, use::accumulator, Rows, Cols> {
  static constexpr std::size_t FM = (Rows + 15) / 16, FN = Cols / 8;
  float r[FM][FN][4];
};
// double: one element per lane of each 8×4 A and 4×8 B fragment, two of each 8×8
// accumulator fragment (m8n8k4).
template <std::size_t Rows, std::size_t Cols>
struct fragments<double, use::a, Rows, Cols> {
  double r[Rows / 8][Cols / 4];
};
template <std::size_t Rows, std::size_t Cols>
struct fragments<double, use::b, Rows, Cols> {
  double r[Rows / 4][Cols / 8];
};
template <std::size_t Rows, std::size_t Cols>
struct fragments<double, use::accumulator, Rows, Cols> {
  double r[Rows / 8][Cols / 8][2];
};
template <class T, use Use, std::size_t Rows, std::size_t Cols>
using storage = fragments<T, Use, Rows, Cols>;

__device__ inline unsigned lane_id() { return cuda_ops::lane_id(); }
__device__ inline std::uint32_t tf32_bits(precision::tf32 x) { return x.bits; }  // rounded when stored
// A float rounded by kapi::round_to_tf32, as the bits an mma operand register takes.
// In device code that is one cvt.rna.tf32.f32; the conversion is written once, in
// reduced_precision.hpp, so that joint_matrix loads and precision::tf32 staging round
// alike.
__device__ inline std::uint32_t tf32_bits(float x) { return cuda_ops::float_as_uint(round_to_tf32(x)); }
template <class T>
__device__ inline std::uint32_t pack(T lo, T hi) {
  return std::uint32_t(lo.bits) | (std::uint32_t(hi.bits) << 16);
}
template <class T>
__device__ inline std::uint32_t input_bits(float v);
template <>
__device__ inline std::uint32_t input_bits<precision::tf32>(float v) {
  return tf32_bits(v);
}
template <>
__device__ inline std::uint32_t input_bits<bfloat16>(float v) {
  const bfloat16 x(v);
  return pack(x, x);
}
template <>
__device__ inline std::uint32_t input_bits<half>(float v) {
  const half x(v);
  return pack(x, x);
}

// The mma.sync of each input type (cuda/detail/mma.hpp).
__device__ inline void mma(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2], precision::tf32) {
  cuda_ops::mma_tf32(d, a, b);
}
__device__ inline void mma(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2], bfloat16) {
  cuda_ops::mma_bf16(d, a, b);
}
__device__ inline void mma(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2], half) {
  cuda_ops::mma_f16(d, a, b);
}
// fp64 (FM×FN 8×8 accumulator fragments, FK steps of 4): on sm_90 pairs of 8-row
// fragments go through m16n8k16 (k8, k4 where fewer steps remain), whose fragments are
// those of m8n8k4 side by side; on sm_80 each is an m8n8k4. d may be c.
template <std::size_t FM, std::size_t FK, std::size_t FN>
__device__ inline void mad_fp64(double (&d)[FM][FN][2], const double (&a)[FM][FK], const double (&b)[FK][FN],
                                const double (&c)[FM][FN][2]) {
  std::size_t fm = 0;
#if KAPI_CUDA_ARCH >= 900
  for (; fm + 1 < FM; fm += 2)
    for (std::size_t fn = 0; fn < FN; ++fn) {
      double acc[4] = {c[fm][fn][0], c[fm][fn][1], c[fm + 1][fn][0], c[fm + 1][fn][1]};
      std::size_t fk = 0;
      for (; fk + 4 <= FK; fk += 4) {
        const double x[8] = {a[fm][fk],     a[fm + 1][fk],     a[fm][fk + 1], a[fm + 1][fk + 1],
                             a[fm][fk + 2], a[fm + 1][fk + 2], a[fm][fk + 3], a[fm + 1][fk + 3]};
        const double y[4] = {b[fk][fn], b[fk + 1][fn], b[fk + 2][fn], b[fk + 3][fn]};
        cuda_ops::mma_f64_m16n8k16(acc, x, y);
      }
      for (; fk + 2 <= FK; fk += 2) {
        const double x[4] = {a[fm][fk], a[fm + 1][fk], a[fm][fk + 1], a[fm + 1][fk + 1]};
        const double y[2] = {b[fk][fn], b[fk + 1][fn]};
        cuda_ops::mma_f64_m16n8k8(acc, x, y);
      }
      for (; fk < FK; ++fk) {
        const double x[2] = {a[fm][fk], a[fm + 1][fk]};
        cuda_ops::mma_f64_m16n8k4(acc, x, b[fk][fn]);
      }
      d[fm][fn][0] = acc[0], d[fm][fn][1] = acc[1], d[fm + 1][fn][0] = acc[2], d[fm + 1][fn][1] = acc[3];
    }
#endif
  for (; fm < FM; ++fm)
    for (std::size_t fn = 0; fn < FN; ++fn) {
      double acc[2] = {c[fm][fn][0], c[fm][fn][1]};
      for (std::size_t fk = 0; fk < FK; ++fk) cuda_ops::mma_f64_m8n8k4(acc, a[fm][fk], b[fk][fn]);
      d[fm][fn][0] = acc[0], d[fm][fn][1] = acc[1];
    }
}
template <class V>
__device__ inline void fill_all(V& x, V v) {
  x = v;
}
template <class E, std::size_t N, class V>
__device__ inline void fill_all(E (&x)[N], V v) {
  for (auto& e : x) fill_all(e, v);
}
using cuda_ops::ldmatrix_x4;
using cuda_ops::ldmatrix_x4_trans;
// Whether rows of 16 bytes at p, p + stride, ... may go through ldmatrix (local memory,
// 16-byte aligned rows). The same for every lane (base and stride are the sub-group's).
template <class L>
__device__ inline bool ldmatrix_ok(const L* p, std::size_t stride) {
  return cuda_ops::is_shared(p) && ((reinterpret_cast<std::uintptr_t>(p) | (stride * sizeof(L))) % 16 == 0);
}

#else
// ---- host backends (and devices without the mma path): the whole tile ------------
template <class T, use Use, std::size_t Rows, std::size_t Cols>
struct storage {
  value_t<T> v[Rows * Cols];  // element (r, c) at r·Cols + c
};
#endif

template <class T, use Use>
struct load_type_of {
  using type = typename element<T>::load_type;
};
template <class T>
struct load_type_of<T, use::accumulator> {
  using type = value_t<T>;
};

}  // namespace detail

/// The K of one tensor-core step for A and B elements of type T (8 for precision::tf32,
/// 16 for kapi::bfloat16 and kapi::half, 4 for double): an A tile's columns and a B
/// tile's rows are a multiple of it.
template <class T>
inline constexpr std::size_t mma_k = detail::element<T>::k;

/// A Rows×Cols tile of a matrix used as Use (A, B or the accumulator) of a product,
/// held by the sub-group of type Group. Layout: how A and B tiles lie in memory
/// (row_major or col_major); the accumulator's is given to load and store (dynamic).
template <class Group, class T, use Use, std::size_t Rows, std::size_t Cols,
          layout Layout = (Use == use::accumulator ? layout::dynamic : layout::row_major)>
struct joint_matrix {
  static_assert(detail::check_shape<T, Use, Rows, Cols>::ok, "");
  static_assert((Use == use::accumulator) == (Layout == layout::dynamic),
                "kapi::joint_matrix: A and B tiles take layout::row_major or layout::col_major, the accumulator "
                "layout::dynamic (its layout is given to load and store)");
  using element_type = T;
  using load_type = typename detail::load_type_of<T, Use>::type;  // what load reads from memory
  static constexpr use matrix_use = Use;
  static constexpr std::size_t rows = Rows, cols = Cols;
  static constexpr layout matrix_layout = Layout;
  detail::storage<T, Use, Rows, Cols> data;
};

namespace detail {

/// Loads the tile at (row0, col0) of a matrix at base (element (r, c) at offset(l, r, c,
/// stride)); with Checked, elements outside height×width read as zero.
template <bool Checked, class Group, class T, use Use, std::size_t Rows, std::size_t Cols, layout Layout, class L>
KAPI_FUNCTION void load(joint_matrix<Group, T, Use, Rows, Cols, Layout>& m, const L* base, std::size_t stride, layout l,
                        std::size_t height, std::size_t width, std::size_t row0, std::size_t col0) {
  const auto at = [&](std::size_t r, std::size_t c) -> L {
    if (Checked && !(row0 + r < height && col0 + c < width)) return L(0.0f);
    return base[offset(l, row0 + r, col0 + c, stride)];
  };
#if KAPI_JOINT_MATRIX_MMA
  const std::size_t lane = lane_id(), g = lane / 4, t = lane % 4;
  if constexpr (std::is_same<T, double>::value) {  // m8n8k4 fragments
    if constexpr (Use == use::a) {
      for (std::size_t fm = 0; fm < Rows / 8; ++fm)
        for (std::size_t fk = 0; fk < Cols / 4; ++fk) m.data.r[fm][fk] = at(8 * fm + g, 4 * fk + t);
    } else if constexpr (Use == use::b) {
      for (std::size_t fk = 0; fk < Rows / 4; ++fk)
        for (std::size_t fn = 0; fn < Cols / 8; ++fn) m.data.r[fk][fn] = at(4 * fk + t, 8 * fn + g);
    } else {
      for (std::size_t fm = 0; fm < Rows / 8; ++fm)
        for (std::size_t fn = 0; fn < Cols / 8; ++fn)
          for (std::size_t j = 0; j < 2; ++j) m.data.r[fm][fn][j] = at(8 * fm + g, 8 * fn + 2 * t + j);
    }
  } else if constexpr (Use == use::accumulator) {
    constexpr std::size_t FM = (Rows + 15) / 16, FN = Cols / 8;
    for (std::size_t fm = 0; fm < FM; ++fm)
      for (std::size_t fn = 0; fn < FN; ++fn)
        for (std::size_t j = 0; j < 4; ++j) {
          const std::size_t r = 16 * fm + g + 8 * (j / 2), c = 8 * fn + 2 * t + j % 2;
          m.data.r[fm][fn][j] = r < Rows ? at(r, c) : 0.0f;
        }
  } else if constexpr (std::is_same<T, precision::tf32>::value) {
    if constexpr (Use == use::a) {
      constexpr std::size_t FM = (Rows + 15) / 16, FK = Cols / 8;
      if (!Checked && Rows % 16 == 0 && l == layout::row_major && ldmatrix_ok(base, stride)) {
        // four 8×4-word matrices: rows 0-7 / 8-15 × words 0-3 / 4-7 are a0..a3
        const L* p = base + (row0 + lane % 16) * stride + col0 + 4 * (lane / 16);
        for (std::size_t fm = 0; fm < FM; ++fm)
          for (std::size_t fk = 0; fk < FK; ++fk) {
            ldmatrix_x4(m.data.r[fm][fk], p + 16 * fm * stride + 8 * fk);
            if constexpr (std::is_same<L, float>::value)
              for (std::size_t j = 0; j < 4; ++j)
                m.data.r[fm][fk][j] = tf32_bits(cuda_ops::uint_as_float(m.data.r[fm][fk][j]));
          }
        return;
      }
      for (std::size_t fm = 0; fm < FM; ++fm)
        for (std::size_t fk = 0; fk < FK; ++fk)
          for (std::size_t j = 0; j < 4; ++j) {
            const std::size_t r = 16 * fm + g + 8 * (j % 2), c = 8 * fk + t + 4 * (j / 2);
            m.data.r[fm][fk][j] = r < Rows ? tf32_bits(at(r, c)) : 0u;
          }
    } else {
      constexpr std::size_t FK = Rows / 8, FN = Cols / 8;
      for (std::size_t fk = 0; fk < FK; ++fk)
        for (std::size_t fn = 0; fn < FN; ++fn)
          for (std::size_t j = 0; j < 2; ++j) m.data.r[fk][fn][j] = tf32_bits(at(8 * fk + t + 4 * j, 8 * fn + g));
    }
  } else {  // bf16, fp16: two elements per register, the lower index in the low half
    if constexpr (Use == use::a) {
      constexpr std::size_t FM = (Rows + 15) / 16, FK = Cols / 16;
      if (!Checked && Rows % 16 == 0 && l == layout::row_major && ldmatrix_ok(base, stride)) {
        // rows 0-7 / 8-15 × columns 0-7 / 8-15 are a0..a3
        const L* p = base + (row0 + lane % 16) * stride + col0 + 8 * (lane / 16);
        for (std::size_t fm = 0; fm < FM; ++fm)
          for (std::size_t fk = 0; fk < FK; ++fk) ldmatrix_x4(m.data.r[fm][fk], p + 16 * fm * stride + 16 * fk);
        return;
      }
      for (std::size_t fm = 0; fm < FM; ++fm)
        for (std::size_t fk = 0; fk < FK; ++fk)
          for (std::size_t j = 0; j < 4; ++j) {
            const std::size_t r = 16 * fm + g + 8 * (j % 2), c = 16 * fk + 2 * t + 8 * (j / 2);
            m.data.r[fm][fk][j] = r < Rows ? pack(at(r, c), at(r, c + 1)) : 0u;
          }
    } else {
      constexpr std::size_t FK = Rows / 16, FN = Cols / 8;
      if (!Checked && FN % 2 == 0 && l == layout::row_major && ldmatrix_ok(base, stride)) {
        // transposed: k 0-7 / 8-15 × n 0-7 are b0, b1 of one fragment, n 8-15 of the next
        const L* p = base + (row0 + lane % 16) * stride + col0 + 8 * (lane / 16);
        for (std::size_t fk = 0; fk < FK; ++fk)
          for (std::size_t fn = 0; fn < FN; fn += 2) {
            std::uint32_t r[4];
            ldmatrix_x4_trans(r, p + 16 * fk * stride + 8 * fn);
            m.data.r[fk][fn][0] = r[0], m.data.r[fk][fn][1] = r[1];
            m.data.r[fk][fn + 1][0] = r[2], m.data.r[fk][fn + 1][1] = r[3];
          }
        return;
      }
      for (std::size_t fk = 0; fk < FK; ++fk)
        for (std::size_t fn = 0; fn < FN; ++fn)
          for (std::size_t j = 0; j < 2; ++j) {
            const std::size_t k = 16 * fk + 2 * t + 8 * j, n = 8 * fn + g;
            m.data.r[fk][fn][j] = pack(at(k, n), at(k + 1, n));
          }
    }
  }
#else
  for (std::size_t r = 0; r < Rows; ++r)
    for (std::size_t c = 0; c < Cols; ++c) {
      if constexpr (Use == use::accumulator)
        m.data.v[r * Cols + c] = at(r, c);
      else
        m.data.v[r * Cols + c] = element<T>::value(at(r, c));
    }
#endif
}

template <bool Checked, class Group, class V, std::size_t Rows, std::size_t Cols>
KAPI_FUNCTION void store(const joint_matrix<Group, V, use::accumulator, Rows, Cols, layout::dynamic>& m, V* base,
                         std::size_t stride, layout l, std::size_t height, std::size_t width, std::size_t row0,
                         std::size_t col0) {
  const auto put = [&](std::size_t r, std::size_t c, V v) {
    if (Checked && !(row0 + r < height && col0 + c < width)) return;
    base[offset(l, row0 + r, col0 + c, stride)] = v;
  };
#if KAPI_JOINT_MATRIX_MMA
  // two neighbours of a row: one store of both where aligned
  const auto put_pair = [&](std::size_t r, std::size_t c, V v0, V v1) {
    V* p = base + offset(l, row0 + r, col0 + c, stride);
    if (!Checked && l == layout::row_major && reinterpret_cast<std::uintptr_t>(p) % (2 * sizeof(V)) == 0) {
      cuda_ops::store_pair(p, v0, v1);
    } else {
      put(r, c, v0);
      put(r, c + 1, v1);
    }
  };
  const std::size_t lane = lane_id(), g = lane / 4, t = lane % 4;
  if constexpr (std::is_same<V, double>::value) {
    for (std::size_t fm = 0; fm < Rows / 8; ++fm)
      for (std::size_t fn = 0; fn < Cols / 8; ++fn)
        put_pair(8 * fm + g, 8 * fn + 2 * t, m.data.r[fm][fn][0], m.data.r[fm][fn][1]);
  } else {
    constexpr std::size_t FM = (Rows + 15) / 16, FN = Cols / 8;
    for (std::size_t fm = 0; fm < FM; ++fm)
      for (std::size_t fn = 0; fn < FN; ++fn)
        for (std::size_t h = 0; h < 2; ++h) {
          const std::size_t r = 16 * fm + g + 8 * h;
          if (r < Rows) put_pair(r, 8 * fn + 2 * t, m.data.r[fm][fn][2 * h], m.data.r[fm][fn][2 * h + 1]);
        }
  }
#else
  for (std::size_t r = 0; r < Rows; ++r)
    for (std::size_t c = 0; c < Cols; ++c) put(r, c, m.data.v[r * Cols + c]);
#endif
}

}  // namespace detail

/// Every element of m set to v (A and B tiles: v rounded to the element type).
template <class Group, class T, use Use, std::size_t Rows, std::size_t Cols, layout Layout>
KAPI_FUNCTION void joint_matrix_fill(const Group&, joint_matrix<Group, T, Use, Rows, Cols, Layout>& m,
                                     detail::value_t<T> v) {
#if KAPI_JOINT_MATRIX_MMA
  if constexpr (Use == use::accumulator || std::is_same<T, double>::value) {
    detail::fill_all(m.data.r, v);  // every fragment register holds an element
  } else {
    const std::uint32_t bits = detail::input_bits<T>(v);
    for (std::size_t i = 0; i < sizeof(m.data.r) / sizeof(m.data.r[0]); ++i)
      for (std::size_t j = 0; j < sizeof(m.data.r[0]) / sizeof(m.data.r[0][0]); ++j)
        for (std::size_t e = 0; e < sizeof(m.data.r[0][0]) / sizeof(std::uint32_t); ++e) {
          // an 8-row A tile keeps its padding rows (8-15: odd registers) zero
          const bool padding = Use == use::a && Rows < 16 && e % 2 == 1;
          m.data.r[i][j][e] = padding ? 0u : bits;
        }
  }
#else
  auto x = v;
  if constexpr (Use != use::accumulator) x = detail::element<T>::value(typename detail::element<T>::load_type(v));
  for (auto& e : m.data.v) e = x;
#endif
}

/// Loads an A or B tile from memory (global or local): element (r, c) of the tile at
/// src[r·stride + c] (row_major) or src[c·stride + r] (col_major).
template <class Group, class T, use Use, std::size_t Rows, std::size_t Cols, layout Layout>
KAPI_FUNCTION void joint_matrix_load(const Group&, joint_matrix<Group, T, Use, Rows, Cols, Layout>& m,
                                     const typename joint_matrix<Group, T, Use, Rows, Cols, Layout>::load_type* src,
                                     std::size_t stride) {
  static_assert(Use != use::accumulator, "kapi::joint_matrix_load: an accumulator load takes its layout");
  detail::load<false>(m, src, stride, Layout, 0, 0, 0, 0);
}

/// Loads a tf32 A or B tile from memory that holds precision::tf32 values (rounded when
/// they were stored): the elements are used as they are.
template <class Group, use Use, std::size_t Rows, std::size_t Cols, layout Layout>
KAPI_FUNCTION void joint_matrix_load(const Group&, joint_matrix<Group, precision::tf32, Use, Rows, Cols, Layout>& m,
                                     const precision::tf32* src, std::size_t stride) {
  static_assert(Use != use::accumulator, "kapi::joint_matrix_load: an accumulator load takes its layout");
  detail::load<false>(m, src, stride, Layout, 0, 0, 0, 0);
}

/// Loads an accumulator tile (float, or double) with the given layout.
template <class Group, class V, std::size_t Rows, std::size_t Cols>
KAPI_FUNCTION void joint_matrix_load(const Group&, joint_matrix<Group, V, use::accumulator, Rows, Cols>& m,
                                     const V* src, std::size_t stride, layout l) {
  detail::load<false>(m, src, stride, l, 0, 0, 0, 0);
}

/// Stores an accumulator tile: element (r, c) to dst[r·stride + c] (row_major) or
/// dst[c·stride + r] (col_major).
template <class Group, class V, std::size_t Rows, std::size_t Cols>
KAPI_FUNCTION void joint_matrix_store(const Group&, const joint_matrix<Group, V, use::accumulator, Rows, Cols>& m,
                                      V* dst, std::size_t stride, layout l) {
  detail::store<false>(m, dst, stride, l, 0, 0, 0, 0);
}

/// The tile at (row, col) of the height×width matrix at base; elements outside it read
/// as zero.
template <class Group, class T, use Use, std::size_t Rows, std::size_t Cols, layout Layout>
KAPI_FUNCTION void joint_matrix_load_checked(
    const Group&, joint_matrix<Group, T, Use, Rows, Cols, Layout>& m,
    const typename joint_matrix<Group, T, Use, Rows, Cols, Layout>::load_type* base, std::size_t stride,
    std::size_t height, std::size_t width, std::size_t row, std::size_t col) {
  static_assert(Use != use::accumulator, "kapi::joint_matrix_load_checked: an accumulator load takes its layout");
  detail::load<true>(m, base, stride, Layout, height, width, row, col);
}
template <class Group, use Use, std::size_t Rows, std::size_t Cols, layout Layout>
KAPI_FUNCTION void joint_matrix_load_checked(const Group&,
                                             joint_matrix<Group, precision::tf32, Use, Rows, Cols, Layout>& m,
                                             const precision::tf32* base, std::size_t stride, std::size_t height,
                                             std::size_t width, std::size_t row, std::size_t col) {
  static_assert(Use != use::accumulator, "kapi::joint_matrix_load_checked: an accumulator load takes its layout");
  detail::load<true>(m, base, stride, Layout, height, width, row, col);
}
template <class Group, class V, std::size_t Rows, std::size_t Cols>
KAPI_FUNCTION void joint_matrix_load_checked(const Group&, joint_matrix<Group, V, use::accumulator, Rows, Cols>& m,
                                             const V* base, std::size_t stride, layout l, std::size_t height,
                                             std::size_t width, std::size_t row, std::size_t col) {
  detail::load<true>(m, base, stride, l, height, width, row, col);
}

/// Stores the accumulator tile at (row, col) of the height×width matrix at base; elements
/// outside it are not written.
template <class Group, class V, std::size_t Rows, std::size_t Cols>
KAPI_FUNCTION void joint_matrix_store_checked(const Group&,
                                              const joint_matrix<Group, V, use::accumulator, Rows, Cols>& m, V* base,
                                              std::size_t stride, layout l, std::size_t height, std::size_t width,
                                              std::size_t row, std::size_t col) {
  detail::store<true>(m, base, stride, l, height, width, row, col);
}

/// d = a·b + c (d may be c); the accumulators are float, double for double inputs.
template <class Group, class T, std::size_t M, std::size_t K, std::size_t N, layout LA, layout LB>
KAPI_FUNCTION void joint_matrix_mad(const Group&, joint_matrix<Group, detail::value_t<T>, use::accumulator, M, N>& d,
                                    const joint_matrix<Group, T, use::a, M, K, LA>& a,
                                    const joint_matrix<Group, T, use::b, K, N, LB>& b,
                                    const joint_matrix<Group, detail::value_t<T>, use::accumulator, M, N>& c) {
  using V = detail::value_t<T>;
#if KAPI_JOINT_MATRIX_MMA
  if constexpr (std::is_same<T, double>::value) {
    detail::mad_fp64(d.data.r, a.data.r, b.data.r, c.data.r);
  } else {
    constexpr std::size_t FM = (M + 15) / 16, FN = N / 8, FK = K / detail::element<T>::k;
    for (std::size_t fm = 0; fm < FM; ++fm)
      for (std::size_t fn = 0; fn < FN; ++fn) {
        float acc[4] = {c.data.r[fm][fn][0], c.data.r[fm][fn][1], c.data.r[fm][fn][2], c.data.r[fm][fn][3]};
        for (std::size_t fk = 0; fk < FK; ++fk) detail::mma(acc, a.data.r[fm][fk], b.data.r[fk][fn], T{});
        for (std::size_t j = 0; j < 4; ++j) d.data.r[fm][fn][j] = acc[j];
      }
  }
#else
  // Row by row: a row of the result accumulates in place (d may be c), K products each.
  for (std::size_t i = 0; i < M; ++i) {
    V row[N];
    for (std::size_t j = 0; j < N; ++j) row[j] = c.data.v[i * N + j];
    for (std::size_t k = 0; k < K; ++k) {
      const V x = a.data.v[i * K + k];
      for (std::size_t j = 0; j < N; ++j) row[j] += x * b.data.v[k * N + j];
    }
    for (std::size_t j = 0; j < N; ++j) d.data.v[i * N + j] = row[j];
  }
#endif
}

}  // namespace matrix

using matrix::joint_matrix;
using matrix::joint_matrix_fill;
using matrix::joint_matrix_load;
using matrix::joint_matrix_load_checked;
using matrix::joint_matrix_mad;
using matrix::joint_matrix_store;
using matrix::joint_matrix_store_checked;

}  // namespace kapi
