// SPDX-License-Identifier: Apache-2.0
// kapi/register_block.hpp: a small GEMM, C = A·B, by an nd-range kernel with every
// fragment kind (Strided, Contiguous, Runs, mixed), against a double-precision product
// computed here on the host; and a RegisterBlock's outer products on the host.
#include <gtest/gtest.h>

#include <kapi/barrier.hpp>
#include <kapi/item.hpp>
#include <kapi/launch.hpp>
#include <kapi/launch_bounds.hpp>
#include <kapi/local_accessor.hpp>
#include <kapi/range.hpp>
#include <kapi/register_block.hpp>
#include <kapi/tile_copy.hpp>
#include <kapi/vec.hpp>

#include <cmath>
#include <cstddef>
#include <limits>

#include "execution_spaces.hpp"
#include "expected_tile_layout.hpp"
#include "random_matrix.hpp"

namespace {

namespace tile_layout = kapi::tile_layout;
using kapi_test::ExpectedLayout;

template <class Space>
struct RegisterBlockKernels : ::testing::Test {};
KAPI_TYPED_TEST_SUITE(RegisterBlockKernels);

// RegisterBlock: C = A·B, a BM×BN block of C per group, TM×TN per work-item, K in steps of
// BK through local memory. The fragment kinds differ in how the A and B tiles are laid out
// and read; FragmentA/B name the tile layouts and build each work-item's fragments.

constexpr int BM = 16, BN = 16, BK = 4, TM = 4, TN = 8;

// Host style: A row-major [BM][BK] read down a column (Strided), B row-major [BK][BN]
// read along a row (Contiguous); both read in place.
template <class T>
struct StridedA {
  using Layout = tile_layout::RowMajor<BK>;
  KOKKOS_INLINE_FUNCTION static kapi::fragment::Strided<T, TM> make(const T* tile, int ty) {
    return {tile + ty * TM * BK, 1, BK};
  }
  KOKKOS_INLINE_FUNCTION static std::size_t first(int ty) { return std::size_t(ty) * TM; }
};
template <class T>
struct ContiguousB {
  using Layout = tile_layout::RowMajor<BN>;
  KOKKOS_INLINE_FUNCTION static kapi::fragment::Contiguous<T, TN> make(const T* tile, int tx) {
    return {tile + tx * TN, BN};
  }
  KOKKOS_INLINE_FUNCTION static std::size_t first(int tx) { return std::size_t(tx) * TN; }
};
// Both transposed and padded: A [BK][BM + 1] along k, B [BN][BK + 1] with a stride of BK + 1.
template <class T>
struct TransposedStridedA {
  using Layout = tile_layout::Transposed<BM + 1>;
  KOKKOS_INLINE_FUNCTION static kapi::fragment::Strided<T, TM> make(const T* tile, int ty) {
    return {tile + ty * TM, BM + 1, 1};
  }
  KOKKOS_INLINE_FUNCTION static std::size_t first(int ty) { return std::size_t(ty) * TM; }
};
template <class T>
struct TransposedStridedB {
  using Layout = tile_layout::Transposed<BK + 1>;
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
  using Layout = tile_layout::Transposed<BM + W>;
  KOKKOS_INLINE_FUNCTION static kapi::fragment::Runs<T, TM, W> make(const T* tile, int ty) {
    return {tile + ty * W, BM + W, BM / (TM / W)};
  }
  KOKKOS_INLINE_FUNCTION static std::size_t first(int ty) { return std::size_t(ty) * W; }
};
template <class T>
struct RunsB {
  static constexpr int W = kapi::vec_width_16_bytes<T>;
  using Layout = tile_layout::RowMajor<BN>;
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
    block.store(
        c, [&](int i) { return row0 + FragmentA::first(ty) + std::size_t(a_fragment.position(i)); },
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

TYPED_TEST(RegisterBlockKernels, ProductFloat) { check_every_fragment_kind<TypeParam, float>(); }
TYPED_TEST(RegisterBlockKernels, ProductDouble) { check_every_fragment_kind<TypeParam, double>(); }

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

// Block index -> view index, callable where RegisterBlock is (a host lambda is not, under nvcc).
struct Shifted {
  std::size_t by;
  KAPI_FUNCTION std::size_t operator()(int i) const { return by + std::size_t(i); }
};

TEST(RegisterBlock, AddToAddsInsideTheViewOnly) {
  kapi::RegisterBlock<double, 2, 3> block;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) block(i, j) = 10.0 * i + j + 1;
  // A 2 x 3 view whose block starts at (1, 1): row 2 and column 3 of the block fall outside.
  Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace> c("c", 2, 3);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) c(i, j) = 100.0 * (i + 1) + j;
  block.add_to(c, Shifted{1}, Shifted{1});
  const double expected[2][3] = {{100, 101, 102}, {200, 201 + 1, 202 + 2}};
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_EQ(c(i, j), expected[i][j]) << i << ", " << j;
  block.store(c, Shifted{0}, Shifted{0});
  EXPECT_EQ(c(0, 0), 1.0);
  EXPECT_EQ(c(1, 2), 13.0);
}

}  // namespace
