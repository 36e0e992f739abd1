// SPDX-License-Identifier: Apache-2.0
// An outside project written against the installed kapi package (find_package(kapi)):
// the README's sliding-window matmul, a register-blocked product built from the kernel
// building blocks (TileCopy, RegisterBlock, LaunchBounds), a loop nest under a
// kapi::nest policy and a device-wide reduction, each checked against a plain host
// computation. Exits nonzero if any result is wrong.
#include <kapi/reduce.hpp>
#include <kapi/kapi.hpp>
#include <kapi/loop_nest.hpp>

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

using Matrix = Kokkos::View<float**, Kokkos::LayoutRight>;

// ---- The README's example: the seed's sliding-window matmul (n×n, 2×2 groups). ----
struct SlidingWindowMatmul {
  KOKKOS_INLINE_FUNCTION void operator()(kapi::NdItem<2> it, Matrix a, Matrix b, Matrix c,
                                         kapi::LocalAccessor<float, 2> a_tile,
                                         kapi::LocalAccessor<float, 2> b_tile) const {
    const std::size_t i = it.get_global_id(0), j = it.get_global_id(1);
    const std::size_t li = it.get_local_id(0), lj = it.get_local_id(1);
    const std::size_t tile = it.get_local_range(0), n = c.extent(0);
    float acc = 0;
    for (std::size_t k0 = 0; k0 < n; k0 += tile) {
      a_tile(li, lj) = (i < n && k0 + lj < n) ? a(i, k0 + lj) : 0.f;
      b_tile(li, lj) = (k0 + li < n && j < n) ? b(k0 + li, j) : 0.f;
      kapi::group_barrier(it.get_group());
      for (std::size_t k = 0; k < tile; ++k) acc += a_tile(li, k) * b_tile(k, lj);
      kapi::group_barrier(it.get_group());
    }
    if (i < n && j < n) c(i, j) = acc;
  }
};

// ---- A register-blocked product from the building blocks. ----
// A group computes a BM×BN block of C, walking K in steps of BK through local memory;
// each work-item keeps TM×TN elements of C in registers. A is stored transposed so
// that a work-item's TM rows are one run of W (a 16-byte Vec), as are its TN columns of B.
struct BlockedProduct {
  static constexpr int BM = 32, BN = 32, BK = 8, TM = 4, TN = 4;
  static constexpr int rows = BM / TM, cols = BN / TN, items = rows * cols;
  static constexpr int W = kapi::vec_width_16_bytes<float>;
  static constexpr int a_stride = BM + W;  // padded by a vector against bank conflicts
  using launch_bounds = kapi::LaunchBounds<items>;
  using ACopy = kapi::TileCopy<float, BM, BK, items, kapi::tile_layout::Transposed<a_stride>>;
  using BCopy = kapi::TileCopy<float, BK, BN, items, kapi::tile_layout::RowMajor<BN>>;

  static kapi::NdRange<2> range(std::size_t m, std::size_t n) {
    return kapi::NdRange<2>({(m + BM - 1) / BM * rows, (n + BN - 1) / BN * cols},
                            {std::size_t(rows), std::size_t(cols)});
  }

  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<2>& it, const Matrix& a, const Matrix& b, const Matrix& c,
                                         const kapi::LocalAccessor<float, 1>& a_tile,
                                         const kapi::LocalAccessor<float, 1>& b_tile) const {
    const int ty = static_cast<int>(it.get_local_id(0)), tx = static_cast<int>(it.get_local_id(1));
    const int lid = ty * cols + tx;
    const std::size_t row0 = it.get_group().get_group_id(0) * BM, col0 = it.get_group().get_group_id(1) * BN;
    const kapi::fragment::Runs<float, TM, W> a_rows{a_tile.get_pointer() + ty * W, a_stride, BM / (TM / W)};
    const kapi::fragment::Runs<float, TN, W> b_cols{b_tile.get_pointer() + tx * W, BN, BN / (TN / W)};
    kapi::RegisterBlock<float, TM, TN> block;
    for (std::size_t k0 = 0; k0 < a.extent(1); k0 += BK) {
      ACopy().copy(a, row0, k0, a_tile.get_pointer(), lid);
      BCopy().copy(b, k0, col0, b_tile.get_pointer(), lid);
      kapi::group_barrier(it.get_group());
      block.multiply_accumulate<BK>(a_rows, b_cols);
      kapi::group_barrier(it.get_group());
    }
    block.store(
        c, [&](int i) { return row0 + std::size_t(ty) * W + std::size_t(a_rows.position(i)); },
        [&](int j) { return col0 + std::size_t(tx) * W + std::size_t(b_cols.position(j)); });
  }
};

// ---- A loop nest: x(i, j, k) from its indices, under any kapi::nest policy. ----
using Field = Kokkos::View<double***, Kokkos::LayoutRight>;
struct FillFromIndices {
  Field x;
  KOKKOS_INLINE_FUNCTION void operator()(kapi::nest::index_type i, kapi::nest::index_type j,
                                         kapi::nest::index_type k) const {
    x(i, j, k) = 10000.0 * double(i) + 100.0 * double(j) + double(k);
  }
};

Matrix filled(const char* label, std::size_t rows, std::size_t cols, int seed) {
  Matrix m(std::string(label), rows, cols);
  auto h = Kokkos::create_mirror_view(m);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) h(i, j) = float(int((i * 7 + j * 3 + seed) % 11) - 5) / 4.f;
  Kokkos::deep_copy(m, h);
  return m;
}

/// Number of elements of c (on the device) that differ from the host product of a and b
/// by more than the rounding of a K-term float sum.
int wrong_products(const Matrix& a, const Matrix& b, const Matrix& c) {
  auto ha = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a);
  auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b);
  auto hc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c);
  const std::size_t k = a.extent(1);
  int wrong = 0;
  for (std::size_t i = 0; i < c.extent(0); ++i)
    for (std::size_t j = 0; j < c.extent(1); ++j) {
      double exact = 0, magnitude = 0;
      for (std::size_t q = 0; q < k; ++q) {
        exact += double(ha(i, q)) * double(hb(q, j));
        magnitude += std::abs(double(ha(i, q)) * double(hb(q, j)));
      }
      const double bound = 2.0 * double(k + 1) * std::numeric_limits<float>::epsilon() * magnitude;
      wrong += std::abs(double(hc(i, j)) - exact) > bound;
    }
  return wrong;
}

int report(const char* what, int wrong) {
  std::printf("outside project on %s: %s: %s\n", Kokkos::DefaultExecutionSpace::name(), what, wrong ? "FAIL" : "PASS");
  return wrong;
}

int sliding_window_matmul() {
  const std::size_t n = 5;
  const Matrix a = filled("A", n, n, 1), b = filled("B", n, n, 2);
  Matrix c("C", n, n);
  kapi::LocalAccessor<float, 2> a_tile(2, 2), b_tile(2, 2);
  kapi::call_kernel(SlidingWindowMatmul{}, kapi::NdRange<2>({6, 6}, {2, 2}), a, b, c, a_tile, b_tile);
  return report("sliding-window matmul", wrong_products(a, b, c));
}

int blocked_product() {
  const std::size_t m = 70, n = 45, k = 37;  // no multiples of the blocks
  const Matrix a = filled("A", m, k, 3), b = filled("B", k, n, 4);
  Matrix c("C", m, n);
  Kokkos::deep_copy(c, -777.f);  // every element must be written
  kapi::LocalAccessor<float, 1> a_tile(BlockedProduct::BK * BlockedProduct::a_stride);
  kapi::LocalAccessor<float, 1> b_tile(BlockedProduct::BK * BlockedProduct::BN);
  kapi::call_kernel(BlockedProduct{}, BlockedProduct::range(m, n), a, b, c, a_tile, b_tile);
  int wrong = wrong_products(a, b, c);
  // Its LaunchBounds turn away larger work-groups.
  try {
    kapi::call_kernel(BlockedProduct{}, kapi::NdRange<2>({16, 16}, {16, 16}), a, b, c, a_tile, b_tile);
    ++wrong;
  } catch (const kapi::launch_error&) {
  }
  return report("register-blocked product (TileCopy, RegisterBlock, LaunchBounds)", wrong);
}

int loop_nest() {
  const std::size_t ni = 5, nj = 33, nk = 70;
  Field x("x", ni, nj, nk);
  int wrong = 0;
  const auto run = [&](const auto& policy) {  // a policy object or a policy's name
    Kokkos::deep_copy(x, -1.0);
    kapi::loop_nest(Kokkos::DefaultExecutionSpace(), policy, kapi::Range<3>(ni, nj, nk), FillFromIndices{x});
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
    for (std::size_t i = 0; i < ni; ++i)
      for (std::size_t j = 0; j < nj; ++j)
        for (std::size_t k = 0; k < nk; ++k) wrong += h(i, j, k) != 10000.0 * double(i) + 100.0 * double(j) + double(k);
  };
  run(kapi::nest::Tiles{});
  run(kapi::nest::Collapsed{});
  run("hierarchical");
  return report("loop nest (Tiles, Collapsed, \"hierarchical\")", wrong);
}

int device_reduction() {
  using Space = Kokkos::DefaultExecutionSpace;
  const std::size_t n = 100003;
  Kokkos::View<double*> x("x", n);
  auto h = Kokkos::create_mirror_view(x);
  double exact = 0, magnitude = 0;
  for (std::size_t i = 0; i < n; ++i) {
    h(i) = double(int(i % 19) - 9) * 0.25;
    exact += h(i), magnitude += std::abs(h(i));
  }
  Kokkos::deep_copy(x, h);
  kapi::ReduceWorkspace<double, Space> ws(Space(), n);
  const double sum = kapi::reduce(Space(), x, kapi::plus<>(), ws);
  const double eps = std::numeric_limits<double>::epsilon();
  const double bound = double(kapi::reduce_depth<double>(Space(), n)) * eps * magnitude;
  const double low = kapi::reduce(Space(), x, kapi::minimum<>(), ws);
  return report("device-wide reduction (sum, minimum)", std::abs(sum - exact) > bound || low != -2.25);
}

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  int failures = 0;
  failures += sliding_window_matmul() != 0;
  failures += blocked_product() != 0;
  failures += loop_nest() != 0;
  failures += device_reduction() != 0;
  return failures ? 1 : 0;
}
