// SPDX-License-Identifier: Apache-2.0
// The matmul app: every variant, float and double, on small and awkward shapes (1, primes,
// sizes that are not multiples of any tile, empty and k = 0), against the double-precision
// host reference with its K-derived tolerance.
#include <matmul/matmul.hpp>
#include <matmul/reference.hpp>

#include <string>
#include <vector>

#include "execution_spaces.hpp"
#include "random_matrix.hpp"

namespace {

using kapi_test::random_matrix;

template <class T, class Space>
void check_variant(const std::string& variant, std::size_t m, std::size_t n, std::size_t k, bool queued = false) {
  // one element type only (test_joint_matrix checks the refusals)
  if (sizeof(T) == 8 ? !matmul::takes_double(variant) : !matmul::takes_float(variant)) return;
  const matmul::ConstMatrix<T, Space> a = random_matrix<T, Space>("A", m, k, 1),
                                      b = random_matrix<T, Space>("B", k, n, 2);
  matmul::Matrix<T, Space> c("C", m, n);
  Kokkos::deep_copy(c, T(-777));  // elements a variant skips keep this
  if (queued) {
    const Space space;
    matmul::multiply_async<T>(variant, space, a, b, c);
    space.fence();  // what the caller of multiply_async does before reading C
  } else {
    matmul::multiply<T>(variant, Space(), a, b, c);
  }
  auto ha = kapi_test::to_host(a);
  auto hb = kapi_test::to_host(b);
  auto hc = kapi_test::to_host(c);
  const matmul::ProductReference reference(ha, hb, matmul::all_rows(m));
  const auto r = reference.check<T>(hc, matmul::input_unit_roundoff(variant));
  EXPECT_EQ(r.checked, m * n);
  EXPECT_EQ(r.wrong, 0u) << variant << (queued ? " (queued)" : "") << " " << sizeof(T) * 8 << "-bit on " << m << "x"
                         << n << "x" << k << ": worst error/tolerance " << r.worst;
}

const std::vector<std::vector<std::size_t>> shapes = {  // m, n, k
    {1, 1, 1},    {1, 7, 3},    {5, 1, 11},    {2, 3, 2},     {17, 13, 29},
    {33, 65, 31}, {64, 64, 64}, {67, 130, 97}, {131, 129, 20}};

template <class Space>
struct MatmulApp : ::testing::Test {};
KAPI_TYPED_TEST_SUITE(MatmulApp);

TYPED_TEST(MatmulApp, EveryVariantFloat) {
  for (const auto& variant : matmul::variants())
    for (const auto& s : shapes) check_variant<float, TypeParam>(variant, s[0], s[1], s[2]);
}

TYPED_TEST(MatmulApp, EveryVariantDouble) {
  for (const auto& variant : matmul::variants())
    for (const auto& s : shapes) check_variant<double, TypeParam>(variant, s[0], s[1], s[2]);
}

// multiply_async: C is written once the space is fenced, for every variant and across
// several blocks and steps of the tensor-core and tuned kernels.
TYPED_TEST(MatmulApp, QueuedProductsAreWrittenByTheFence) {
  for (const auto& variant : matmul::variants()) {
    check_variant<float, TypeParam>(variant, 67, 130, 97, true);
    check_variant<double, TypeParam>(variant, 131, 129, 20, true);
  }
  for (const char* variant : {"tuned-tf32", "tuned-bf16", "tuned"}) {
    check_variant<float, TypeParam>(variant, 300, 520, 1000, true);
    check_variant<float, TypeParam>(variant, 129, 257, 5, true);
  }
}

// Several blocks of the tuned kernel in each dimension, K over several steps; on a device
// both float shapes: 257×200 has fewer 128×128 blocks than any GPU has multiprocessors
// (64×128 blocks), 1537×1411 more than an H100's 132 (128×128 blocks).
TYPED_TEST(MatmulApp, TunedAcrossBlocks) {
  check_variant<float, TypeParam>("tuned", 257, 200, 300);
  check_variant<float, TypeParam>("tuned", 1537, 1411, 70);
  check_variant<double, TypeParam>("tuned", 150, 257, 131);
}

TYPED_TEST(MatmulApp, EmptyAndZeroDepth) {
  for (const auto& variant : matmul::variants()) {
    check_variant<float, TypeParam>(variant, 0, 5, 5);
    check_variant<float, TypeParam>(variant, 5, 0, 5);
    check_variant<double, TypeParam>(variant, 6, 7, 0);  // k = 0: C must be all zeros
  }
}

TYPED_TEST(MatmulApp, ShapeMismatchAndUnknownVariantAreRejected) {
  const matmul::ConstMatrix<float, TypeParam> a = random_matrix<float, TypeParam>("A", 3, 4, 1);
  const matmul::ConstMatrix<float, TypeParam> b = random_matrix<float, TypeParam>("B", 5, 2, 2);
  matmul::Matrix<float, TypeParam> c("C", 3, 2);
  EXPECT_THROW(matmul::multiply<float>("tuned", TypeParam(), a, b, c), std::invalid_argument);
  const matmul::ConstMatrix<float, TypeParam> b4 = random_matrix<float, TypeParam>("B", 4, 2, 2);
  EXPECT_THROW(matmul::multiply<float>("no-such-variant", TypeParam(), a, b4, c), std::invalid_argument);
}

TEST(MatmulVariants, AreListed) {
  const auto v = matmul::variants();
  for (const char* name : {"sliding-window-t2", "sliding-window-t8", "sliding-window-t16", "sliding-window-t32",
                           "phased-t16", "naive", "tuned", "tuned-tf32", "tuned-bf16", "tuned-fp16"})
    EXPECT_NE(std::find(v.begin(), v.end(), name), v.end()) << name;
#if defined(KAPI_APPS_HAVE_KOKKOS_KERNELS)
  EXPECT_NE(std::find(v.begin(), v.end(), "kokkos-kernels"), v.end());
#endif
}

}  // namespace
