// SPDX-License-Identifier: Apache-2.0
// The seed programs as tests, each against an independent host reference.
#include <matmul/sliding_window.hpp>

#include <kapi/barrier.hpp>
#include <kapi/item.hpp>
#include <kapi/launch.hpp>
#include <kapi/local_accessor.hpp>
#include <kapi/private_array.hpp>
#include <kapi/range.hpp>

#include "execution_spaces.hpp"

namespace {

template <class T, class Space>
using Matrix = Kokkos::View<T**, Kokkos::LayoutRight, typename Space::memory_space>;

template <class T, class Space>
Matrix<T, Space> matrix(const char* label, std::size_t rows, std::size_t cols, int seed) {
  Matrix<T, Space> m(std::string(label), rows, cols);
  auto h = Kokkos::create_mirror_view(m);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) h(i, j) = T(int((i * 7 + j * 3 + seed) % 11) - 5);
  Kokkos::deep_copy(m, h);
  return m;
}

// Small integers in, so every product and partial sum is exact in float.
template <class T, class Space>
void check_sliding_window_matmul(std::size_t m, std::size_t k, std::size_t n, std::size_t tile) {
  auto a = matrix<T, Space>("A", m, k, 1);
  auto b = matrix<T, Space>("B", k, n, 2);
  Matrix<T, Space> c("C", m, n);
  kapi::LocalAccessor<T, 2> a_tile(tile, tile), b_tile(tile, tile);
  kapi::call_kernel(Space(), matmul::SlidingWindow{}, matmul::sliding_window_range(m, n, tile), a, b, c, a_tile,
                    b_tile);
  auto ha = kapi_test::to_host(a), hb = kapi_test::to_host(b), hc = kapi_test::to_host(c);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      double ref = 0;
      for (std::size_t p = 0; p < k; ++p) ref += double(ha(i, p)) * double(hb(p, j));
      ASSERT_EQ(double(hc(i, j)), ref) << "C(" << i << "," << j << ") for " << m << "x" << k << "x" << n
                                       << " with tile " << tile;
    }
}

template <class Space>
struct SeedPrograms : ::testing::Test {};
KAPI_TYPED_TEST_SUITE(SeedPrograms);

// The seed: 5×5 inputs, NdRange({6,6},{2,2}), 2×2 local accessors.
TYPED_TEST(SeedPrograms, SlidingWindowMatmul5x5) {
  check_sliding_window_matmul<float, TypeParam>(5, 5, 5, 2);
  EXPECT_EQ(matmul::sliding_window_range(5, 5, 2).global.extent[0], 6u);
}

TYPED_TEST(SeedPrograms, SlidingWindowMatmul16x16Groups) {
  check_sliding_window_matmul<float, TypeParam>(100, 77, 131, 16);
  check_sliding_window_matmul<double, TypeParam>(33, 250, 17, 16);
}

TYPED_TEST(SeedPrograms, SlidingWindowMatmul32x32Groups) {
  check_sliding_window_matmul<float, TypeParam>(70, 45, 97, 32);
}

template <class Space>
void check_private_memory(std::size_t n) {
  Kokkos::View<float*, typename Space::memory_space> a("A", n);
  kapi::call_kernel(
      Space(),
      KOKKOS_LAMBDA(kapi::NdItem<1> it, decltype(a) out) {
        kapi::PrivateArray<float, 1> memory;
        const std::size_t i = it.get_global_id(0);
        memory[0] = float(i);
        kapi::group_barrier(it.get_group());
        out(i) = memory[0] * 2;
      },
      kapi::NdRange<1>({n}, {n}), a);
  auto h = kapi_test::to_host(a);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(h(i), float(2 * i)) << "A[" << i << "]";
}

TYPED_TEST(SeedPrograms, PrivateMemory) {
  check_private_memory<TypeParam>(10);
  check_private_memory<TypeParam>(100);
}

// Kernels live outside TYPED_TEST bodies: CUDA lambdas may not sit in private members.
template <class Space>
void check_private_array_zero_fill() {
  Kokkos::View<int*, typename Space::memory_space> out("out", 64);
  kapi::call_kernel(
      Space(),
      KOKKOS_LAMBDA(kapi::Item<1> it, decltype(out) o) {
        kapi::PrivateArray<int, 3, 4> p(true);
        int zeros = 0;
        for (int r = 0; r < 3; ++r)
          for (int c = 0; c < 4; ++c) zeros += p(r, c) == 0;
        p(2, 3) = int(it.get_id(0));
        o(it.get_id(0)) = zeros * 1000 + p[11];
      },
      kapi::Range<1>(64), out);
  auto h = kapi_test::to_host(out);
  for (int i = 0; i < 64; ++i) ASSERT_EQ(h(i), 12 * 1000 + i);
}

TYPED_TEST(SeedPrograms, PrivateArrayZeroFillAndRank2) { check_private_array_zero_fill<TypeParam>(); }

template <class Space>
void check_vector_sum(std::size_t n) {
  auto a = kapi_test::make_view<double, Space>("a", n, [](std::size_t i) { return 0.5 * double(i); });
  auto b = kapi_test::make_view<double, Space>("b", n, [](std::size_t i) { return 3.0 - double(i % 17); });
  Kokkos::View<double*, typename Space::memory_space> c("c", n);
  kapi::call_kernel(
      Space(),
      KOKKOS_LAMBDA(kapi::Item<1> it, decltype(a) x, decltype(b) y, decltype(c) z) {
        const std::size_t i = it.get_id(0);
        z(i) = x(i) + y(i);
      },
      kapi::Range<1>(n), a, b, c);
  auto h = kapi_test::to_host(c);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(h(i), 0.5 * double(i) + (3.0 - double(i % 17))) << i;
}

TYPED_TEST(SeedPrograms, VectorSum) {
  check_vector_sum<TypeParam>(1);
  check_vector_sum<TypeParam>(1021);
  check_vector_sum<TypeParam>(1 << 20);
}

}  // namespace
