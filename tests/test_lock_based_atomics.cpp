// SPDX-License-Identifier: Apache-2.0
// Kokkos atomics that take a lock (16-byte Kokkos::complex<double>) inside kapi range
// kernels. On CUDA the lock arrays' device address is copied into each translation unit's
// device image before a launch; kapi's own range launch must do it as Kokkos' launches do.
// This file is a translation unit of its own, and runs no Kokkos kernel before the kapi
// launch (Views without initialisation, filled by copies), so nothing else copies it here.
#include <kapi/item.hpp>
#include <kapi/launch.hpp>
#include <kapi/range.hpp>

#include "execution_spaces.hpp"

namespace {

using Complex = Kokkos::complex<double>;

struct AddToOneCell {
  template <class Sums>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::Item<1>& it, const Sums& sums) const {
    const double i = double(it.get_id(0) % 7);
    Kokkos::atomic_add(&sums(0), Complex(i, -2.0 * i));
  }
};

template <class Space>
struct LockBasedAtomics : ::testing::Test {};
KAPI_TYPED_TEST_SUITE(LockBasedAtomics);

TYPED_TEST(LockBasedAtomics, ComplexSumsFromARangeKernel) {
  using Space = TypeParam;
  const std::size_t n = 10007;
  Kokkos::View<Complex*, typename Space::memory_space> sums(Kokkos::view_alloc("sums", Kokkos::WithoutInitializing), 1);
  auto h = Kokkos::create_mirror_view(sums);
  h(0) = Complex(0.5, 0.25);
  Kokkos::deep_copy(sums, h);

  kapi::call_kernel(Space(), AddToOneCell{}, kapi::Range<1>(n), sums);

  // Exact: every partial sum is an integer (plus the start's halves and quarters) far below 2^53.
  double expected = 0;
  for (std::size_t i = 0; i < n; ++i) expected += double(i % 7);
  const auto got = kapi_test::to_host(sums);
  EXPECT_EQ(got(0).real(), 0.5 + expected);
  EXPECT_EQ(got(0).imag(), 0.25 - 2.0 * expected);
}

}  // namespace
