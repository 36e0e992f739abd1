// SPDX-License-Identifier: Apache-2.0
// AtomicRef without repeating the type: class template argument deduction from a View
// element, from numba-dpex's (array, index...) form on a View or a LocalAccessor (the
// latter giving AddressSpace::local), next to the explicit forms, in kernels on every
// execution space against host-counted histograms.
#include <kapi/atomic_ref.hpp>
#include <kapi/barrier.hpp>
#include <kapi/item.hpp>
#include <kapi/launch.hpp>
#include <kapi/local_accessor.hpp>
#include <kapi/memory_model.hpp>
#include <kapi/range.hpp>

#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "execution_spaces.hpp"

namespace {

using kapi::AddressSpace;
using kapi::AtomicRef;
using kapi::MemoryOrder;
using kapi::MemoryScope;

template <class T>
using View1 = Kokkos::View<T*>;
template <class T>
using View2 = Kokkos::View<T**>;

// The deduced types.
static_assert(std::is_same_v<decltype(AtomicRef(std::declval<int&>())), AtomicRef<int>>);
static_assert(std::is_same_v<decltype(AtomicRef(std::declval<double&>())), AtomicRef<double>>);
static_assert(std::is_same_v<decltype(AtomicRef(std::declval<const View1<int>&>()(0))), AtomicRef<int>>);
static_assert(std::is_same_v<decltype(AtomicRef(std::declval<const View1<float>&>(), 0)), AtomicRef<float>>);
static_assert(std::is_same_v<decltype(AtomicRef(std::declval<const View1<std::uint64_t>&>(), std::size_t(3))),
                             AtomicRef<std::uint64_t>>);
static_assert(std::is_same_v<decltype(AtomicRef(std::declval<const View2<double>&>(), 1, 2)), AtomicRef<double>>);
static_assert(std::is_same_v<decltype(AtomicRef(std::declval<const kapi::LocalAccessor<int, 1>&>(), 0)),
                             AtomicRef<int, MemoryOrder::relaxed, MemoryScope::device, AddressSpace::local>>);
static_assert(std::is_same_v<decltype(AtomicRef(std::declval<const kapi::LocalAccessor<float, 2>&>(), 0, 1)),
                             AtomicRef<float, MemoryOrder::relaxed, MemoryScope::device, AddressSpace::local>>);
// The explicit forms are unchanged.
static_assert(std::is_constructible_v<AtomicRef<int>, int&>);
static_assert(std::is_constructible_v<AtomicRef<int>, const View1<int>&, int>);
static_assert(
    std::is_constructible_v<AtomicRef<float, MemoryOrder::acq_rel, MemoryScope::work_group, AddressSpace::local>,
                            const kapi::LocalAccessor<float, 1>&, int>);

// Work-item i adds to bin i % bins through each spelling: global (View) and local
// (LocalAccessor) memory, in a work-group with barriers.
template <class Bins, class Sums>
struct Histogram {
  Bins bins;
  Sums sums;
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it, const kapi::LocalAccessor<int, 1>& local,
                                         const kapi::LocalAccessor<double, 1>& local_sum) const {
    const std::size_t i = it.get_global_id(0), nbins = bins.extent(0), bin = i % nbins;
    if (it.get_local_id(0) == 0) {
      local[0] = 0;
      local_sum[0] = 0;
    }
    kapi::group_barrier(it.get_group());
    kapi::AtomicRef(bins, bin).fetch_add(1);  // numba-dpex's AtomicRef(array, index)
    kapi::AtomicRef counted(bins(bin));       // from the element
    counted += 2;
    kapi::AtomicRef(sums, bin, 1) += double(i);  // two indices
    AtomicRef<int>(bins, bin).fetch_add(4);      // the explicit form still works
    kapi::AtomicRef in_group(local, 0);          // local memory
    static_assert(decltype(in_group)::address_space == AddressSpace::local, "deduced from a LocalAccessor");
    in_group.fetch_add(1);
    kapi::AtomicRef(local_sum, 0).fetch_add(1.5);
    kapi::group_barrier(it.get_group());
    if (it.get_local_id(0) == 0) {
      kapi::AtomicRef(sums, 0, 0) += double(local[0]);
      kapi::AtomicRef(sums, 1, 0) += local_sum[0];
    }
  }
};

template <class Space>
class AtomicDeduction : public ::testing::Test {};
KAPI_TYPED_TEST_SUITE(AtomicDeduction);

TYPED_TEST(AtomicDeduction, DeducedFormsCountLikeTheExplicitOnes) {
  using Memory = typename TypeParam::memory_space;
  using Bins = Kokkos::View<int*, Memory>;
  using Sums = Kokkos::View<double**, Kokkos::LayoutRight, Memory>;
  const std::size_t nbins = 13, group = 64, n = 64 * 20;
  Bins bins("bins", nbins);
  Sums sums("sums", nbins, 2);
  kapi::call_kernel(TypeParam(), Histogram<Bins, Sums>{bins, sums}, kapi::NdRange<1>({n}, {group}),
                    kapi::LocalAccessor<int, 1>(1), kapi::LocalAccessor<double, 1>(1));
  const auto hb = kapi_test::to_host(bins);
  const auto hs = kapi_test::to_host(sums);
  std::vector<int> count(nbins, 0);
  std::vector<double> index_sum(nbins, 0);
  for (std::size_t i = 0; i < n; ++i) {
    ++count[i % nbins];
    index_sum[i % nbins] += double(i);
  }
  for (std::size_t b = 0; b < nbins; ++b) {
    EXPECT_EQ(hb(b), 7 * count[b]) << "bin " << b;  // 1 + 2 + 4 per work-item
    EXPECT_EQ(hs(b, 1), index_sum[b]) << "bin " << b;
  }
  EXPECT_EQ(hs(0, 0), double(n));        // every work-item counted once in its group's local memory
  EXPECT_EQ(hs(1, 0), 1.5 * double(n));  // and 1.5 in the local double
}

}  // namespace
