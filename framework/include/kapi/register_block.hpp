// SPDX-License-Identifier: Apache-2.0
#pragma once
// RegisterBlock: a TM×TN block of a product C = A·B that one work-item keeps in registers
// and updates with outer products, reading TM elements of A and TN elements of B per step
// of k for TM·TN multiply-adds (the register blocking of every fast GEMM).
//
//   kapi::RegisterBlock<float, 8, 8> c_block;                          // zeros
//   c_block.multiply_accumulate<BK>(a_fragment, b_fragment);          // over a tile's k
//   c_block.store(c, [&](int i) { return row0 + ...; }, [&](int j) { return col0 + ...; });
//
// A fragment says where a work-item's elements of one k-slice lie (usually in a tile in
// local memory): element i of slice k of
//   fragment::Strided<T, N>        p[k·k_step + i·stride]       (any stride)
//   fragment::Contiguous<T, N>     p[k·k_step + i]              (host: SIMD over i)
//   fragment::Runs<T, N, W>        p[k·k_step + (i / W)·run_stride + i % W], read as
//                                  N / W aligned Vec loads (GPU: few local-memory loads)
// Strided and Contiguous elements are read in place (direct); Runs into registers first.
// A fragment's position(i) gives the row or column of C that element i belongs to, relative to p.
#include <cstddef>
#include <type_traits>

#include <kapi/detail/simd_multiply.hpp>
#include <kapi/unroll.hpp>
#include <kapi/vec.hpp>

namespace kapi {

namespace fragment {

template <class T, int N>
struct Strided {
  static constexpr int size = N;
  const T* p;
  std::ptrdiff_t k_step, stride;
  static constexpr bool direct = true;
  KAPI_FUNCTION const T& at(int k, int i) const { return p[k * k_step + i * stride]; }
  KAPI_FUNCTION void load(int k, T (&out)[N]) const {
    KAPI_UNROLL
    for (int i = 0; i < N; ++i) out[i] = at(k, i);
  }
  KAPI_FUNCTION std::ptrdiff_t position(int i) const { return i; }
};

template <class T, int N>
struct Contiguous {
  static constexpr int size = N;
  const T* p;
  std::ptrdiff_t k_step;
  static constexpr bool direct = true;
  KAPI_FUNCTION const T& at(int k, int i) const { return p[k * k_step + i]; }
  KAPI_FUNCTION void load(int k, T (&out)[N]) const {
    KAPI_SIMD_LOOP
    for (int i = 0; i < N; ++i) out[i] = at(k, i);
  }
  KAPI_FUNCTION std::ptrdiff_t position(int i) const { return i; }
};

template <class T, int N, int W>
struct Runs {
  static_assert(N % W == 0, "kapi::fragment::Runs: whole runs");
  static constexpr int size = N;
  static constexpr bool direct = false;  // read only as whole Vecs
  const T* p;                            // aligned to W elements, as are k_step and run_stride
  std::ptrdiff_t k_step, run_stride;
  KAPI_FUNCTION void load(int k, T (&out)[N]) const {
    KAPI_UNROLL
    for (int r = 0; r < N / W; ++r) {
      const Vec<T, W> v = Vec<T, W>::load(p + k * k_step + r * run_stride);
      KAPI_UNROLL
      for (int w = 0; w < W; ++w) out[r * W + w] = v[w];
    }
  }
  KAPI_FUNCTION std::ptrdiff_t position(int i) const { return (i / W) * run_stride + i % W; }
};

}  // namespace fragment

template <class T, int TM, int TN>
class RegisterBlock {
 public:
  static constexpr int rows = TM, cols = TN;

  KAPI_FUNCTION RegisterBlock() {
    KAPI_UNROLL
    for (int i = 0; i < TM; ++i) {
      KAPI_UNROLL
      for (int j = 0; j < TN; ++j) acc_[i][j] = T(0);
    }
  }

  /// acc(i, j) += sum over k < K of a(k, i) · b(k, j).
  template <int K, class FragmentA, class FragmentB>
  KAPI_FUNCTION void multiply_accumulate(const FragmentA& a, const FragmentB& b) {
    static_assert(FragmentA::size == TM && FragmentB::size == TN,
                  "kapi::RegisterBlock: fragment sizes must be TM and TN");
    if constexpr (std::is_same_v<FragmentB, fragment::Contiguous<T, TN>> && FragmentA::direct &&
                  detail::host_simd_multiply_fits<T, TN>) {
      detail::host_simd_multiply_accumulate<K>(acc_, a, b);  // host SIMD vectors (detail/simd_multiply.hpp)
      return;
    }
    // A local working copy: GCC keeps a local array in SIMD registers across the k loop,
    // but not a member array (it would load and store it around every multiply-add).
    T acc[TM][TN];
    copy(acc_, acc);
    if constexpr (FragmentA::direct && FragmentB::direct) {
      // Host: an A element broadcast times a row of B, read in place (the SIMD loop);
      // the loop over a deep tile stays rolled, its body is already TM·TN / SIMD width
      // multiply-adds.
      for (int k = 0; k < K; ++k) {
        KAPI_UNROLL
        for (int i = 0; i < TM; ++i) {
          const T a_ki = a.at(k, i);
          KAPI_SIMD_LOOP
          for (int j = 0; j < TN; ++j) acc[i][j] += a_ki * b.at(k, j);
        }
      }
    } else {
      // Device: the fragments in registers first (few wide local-memory loads), those of
      // step k + 1 loaded before step k's multiply-adds so that their latency is hidden.
      T av[2][TM], bv[2][TN];
      a.load(0, av[0]);
      b.load(0, bv[0]);
      KAPI_UNROLL
      for (int k = 0; k < K; ++k) {
        if (k + 1 < K) {
          a.load(k + 1, av[(k + 1) % 2]);
          b.load(k + 1, bv[(k + 1) % 2]);
        }
        KAPI_UNROLL
        for (int i = 0; i < TM; ++i) {
          KAPI_UNROLL
          for (int j = 0; j < TN; ++j) acc[i][j] += av[k % 2][i] * bv[k % 2][j];
        }
      }
    }
    copy(acc, acc_);
  }

  /// c(row(i), col(j)) = acc(i, j) where that lies inside c (row, col: int -> index).
  template <class View, class RowOf, class ColOf>
  KAPI_FUNCTION void store(const View& c, const RowOf& row, const ColOf& col) const {
    for_each_inside(c, row, col, [](auto& to, const T& v) { to = v; });
  }
  /// c(row(i), col(j)) += acc(i, j) where that lies inside c: C += A·B in one pass.
  template <class View, class RowOf, class ColOf>
  KAPI_FUNCTION void add_to(const View& c, const RowOf& row, const ColOf& col) const {
    for_each_inside(c, row, col, [](auto& to, const T& v) { to += v; });
  }

  KAPI_FUNCTION T& operator()(int i, int j) { return acc_[i][j]; }
  KAPI_FUNCTION const T& operator()(int i, int j) const { return acc_[i][j]; }

 private:
  template <class View, class RowOf, class ColOf, class Write>
  KAPI_FUNCTION void for_each_inside(const View& c, const RowOf& row, const ColOf& col, const Write& write) const {
    const std::size_t m = c.extent(0), n = c.extent(1);
    KAPI_UNROLL
    for (int i = 0; i < TM; ++i) {
      const std::size_t r = row(i);
      if (r >= m) continue;
      KAPI_UNROLL
      for (int j = 0; j < TN; ++j) {
        const std::size_t cc = col(j);
        if (cc < n) write(c(r, cc), acc_[i][j]);
      }
    }
  }

  KAPI_FUNCTION static void copy(const T (&from)[TM][TN], T (&to)[TM][TN]) {
    KAPI_UNROLL
    for (int i = 0; i < TM; ++i) {
      KAPI_SIMD_LOOP
      for (int j = 0; j < TN; ++j) to[i][j] = from[i][j];
    }
  }
  T acc_[TM][TN];
};

}  // namespace kapi
