// SPDX-License-Identifier: Apache-2.0
// SYCL-shaped kernels (issue 36): local accessors captured by the kernel lambda instead of
// passed as arguments, alone, several, 2-d, shared with an argument, in a functor's member,
// in phased kernels and next to reduction variables; captures that cannot work (in a Range
// kernel, a captured kapi::reduction) as launch errors; kernels named by a type, as SYCL's
// parallel_for<class Name>. Each result against a plain host loop.
#include <kapi/barrier.hpp>
#include <kapi/functional.hpp>
#include <kapi/hierarchical.hpp>
#include <kapi/item.hpp>
#include <kapi/launch.hpp>
#include <kapi/local_accessor.hpp>
#include <kapi/phased.hpp>
#include <kapi/range.hpp>
#include <kapi/reduction.hpp>
#include <kapi/work_group.hpp>

#include <gmock/gmock.h>

#include <string>
#include <vector>

#include "execution_spaces.hpp"
#include "launch_errors.hpp"

// A name at namespace scope keeps its namespaces.
namespace sycl_names {
struct ScaledCopy;
}  // namespace sycl_names

namespace {

using ::testing::HasSubstr;

template <class T, class Space>
using Vec = Kokkos::View<T*, typename Space::memory_space>;

using kapi_test::launch_error_of;

template <class Space>
struct SyclCaptures : ::testing::Test {};
KAPI_TYPED_TEST_SUITE(SyclCaptures);

// The issue's kernel: before captures were bound, its first access faulted.
template <class Space>
void check_issue_kernel() {
  const std::size_t n = 64, local = 16;
  Vec<int, Space> out("out", n);
  kapi::LocalAccessor<int, 1> scratch(16);
  kapi::call_kernel(
      Space(),
      KOKKOS_LAMBDA(kapi::NdItem<1> it) {
        const std::size_t l = it.get_local_id(0);
        scratch[l] = int(it.get_global_id(0));
        kapi::group_barrier(it.get_group());
        out(it.get_global_id(0)) = scratch[(l + 1) % 16];
      },
      kapi::NdRange<1>(n, local));
  auto h = kapi_test::to_host(out);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(h(i), int(i / local * local + (i % local + 1) % local)) << i;
}
TYPED_TEST(SyclCaptures, CapturedLocalAccessorIsTheGroupsMemory) { check_issue_kernel<TypeParam>(); }

// A local-memory tree reduction as SYCL benchmark suites write it: each group's sum.
template <class Space>
void check_tree_reduction(std::size_t local, std::size_t groups) {
  const std::size_t n = local * groups;
  const auto in = kapi_test::make_view<float, Space>("in", n, [](std::size_t i) { return float(i % 7) + 0.5f; });
  Vec<float, Space> sums("sums", groups);
  kapi::LocalAccessor<float, 1> partial(local);
  kapi::call_kernel(
      Space(),
      KOKKOS_LAMBDA(kapi::NdItem<1> it) {
        const std::size_t l = it.get_local_id(0);
        partial[l] = in(it.get_global_id(0));
        for (std::size_t stride = it.get_local_range(0) / 2; stride > 0; stride /= 2) {
          kapi::group_barrier(it.get_group());
          if (l < stride) partial[l] += partial[l + stride];
        }
        if (l == 0) sums(it.get_group().get_group_id(0)) = partial[0];
      },
      kapi::NdRange<1>(n, local));
  auto h = kapi_test::to_host(sums);
  for (std::size_t g = 0; g < groups; ++g) {
    // The same tree on the host.
    std::vector<float> p(local);
    for (std::size_t l = 0; l < local; ++l) p[l] = float((g * local + l) % 7) + 0.5f;
    for (std::size_t stride = local / 2; stride > 0; stride /= 2)
      for (std::size_t l = 0; l < stride; ++l) p[l] += p[l + stride];
    ASSERT_EQ(h(g), p[0]) << "group " << g << " of " << groups << ", " << local << " work-items";
  }
}
TYPED_TEST(SyclCaptures, TreeReduction) {
  check_tree_reduction<TypeParam>(64, 37);
  check_tree_reduction<TypeParam>(256, 5);
}

// Three captured accessors in one kernel (one 2-d, indexed by (i, j) and by an Id): each
// gets its own memory. The group transposes an 8x8 tile through the
// 2-d one, and the two 1-d ones carry row sums and a per-group constant.
template <class Space>
void check_several_captures() {
  const std::size_t rows = 32, cols = 24, t = 8;
  const auto in = kapi_test::make_view<int, Space>("in", rows * cols, [](std::size_t i) { return int(i * 3 % 101); });
  Vec<int, Space> out("out", rows * cols);
  kapi::LocalAccessor<int, 2> tile(t, t);
  kapi::LocalAccessor<int, 1> row_sum(t), base(1);
  kapi::call_kernel(
      Space(),
      KOKKOS_LAMBDA(kapi::NdItem<2> it) {
        const std::size_t i = it.get_local_id(0), j = it.get_local_id(1);
        const std::size_t gi = it.get_global_id(0), gj = it.get_global_id(1);
        tile(i, j) = in(gi * cols + gj);
        if (i == 0 && j == 0) base[0] = int(it.get_group().get_group_linear_id()) * 1000;
        kapi::group_barrier(it.get_group());
        if (j == 0) {
          int s = 0;
          for (std::size_t k = 0; k < t; ++k) s += tile[kapi::Id<2>(i, k)];
          row_sum[i] = s;
        }
        kapi::group_barrier(it.get_group());
        out(gi * cols + gj) = tile(j, i) + row_sum[j] + base[0];
      },
      kapi::NdRange<2>({rows, cols}, {t, t}));
  auto h = kapi_test::to_host(out);
  const std::size_t group_cols = cols / t;
  for (std::size_t gi = 0; gi < rows; ++gi)
    for (std::size_t gj = 0; gj < cols; ++gj) {
      const std::size_t bi = gi / t, bj = gj / t, i = gi % t, j = gj % t;
      const auto at = [&](std::size_t r, std::size_t c) { return int((((bi * t + r) * cols) + bj * t + c) * 3 % 101); };
      int s = 0;
      for (std::size_t k = 0; k < t; ++k) s += at(j, k);
      ASSERT_EQ(h(gi * cols + gj), at(j, i) + s + int(bi * group_cols + bj) * 1000) << gi << ", " << gj;
    }
}
TYPED_TEST(SyclCaptures, SeveralCapturedAccessors) { check_several_captures<TypeParam>(); }

// Two captured copies of one accessor: one memory, as copies of a SYCL accessor share it.
template <class Space>
void check_captured_copies_share_memory() {
  const std::size_t n = 256, local = 32;
  Vec<unsigned, Space> out("out", n);
  kapi::LocalAccessor<unsigned, 1> slots(local);
  const auto alias = slots;
  kapi::call_kernel(
      Space(),
      KOKKOS_LAMBDA(kapi::NdItem<1> it) {
        const std::size_t l = it.get_local_id(0);
        alias[l] = unsigned(it.get_global_id(0)) * 2u;
        kapi::group_barrier(it.get_group());
        out(it.get_global_id(0)) = slots[local - 1 - l];
      },
      kapi::NdRange<1>(n, local));
  auto h = kapi_test::to_host(out);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(h(i), unsigned(i / local * local + local - 1 - i % local) * 2u) << i;
}
TYPED_TEST(SyclCaptures, CapturedCopiesShareMemory) { check_captured_copies_share_memory<TypeParam>(); }

// A kernel takes its accessors one way: arguments and captures mixed are a launch error
// (the same on every backend; devices compile the binding of captures only for kernels
// without accessor arguments).
template <class Space>
void check_mixed_forms_rejected() {
  const std::size_t n = 64, local = 16;
  Vec<unsigned, Space> out("out", n);
  kapi::LocalAccessor<unsigned, 1> captured(local);
  EXPECT_THAT(launch_error_of([&] {
                kapi::call_kernel(
                    Space(),
                    KOKKOS_LAMBDA(kapi::NdItem<1> it, const kapi::LocalAccessor<unsigned, 1>& passed) {
                      const std::size_t l = it.get_local_id(0);
                      passed[l] = captured[l] = unsigned(l);
                      out(it.get_global_id(0)) = passed[l];
                    },
                    kapi::NdRange<1>(n, local), kapi::LocalAccessor<unsigned, 1>(local));
              }),
              HasSubstr("takes LocalAccessor arguments and also captures a LocalAccessor"));
}
TYPED_TEST(SyclCaptures, ArgumentsAndCapturesMixedAreALaunchError) { check_mixed_forms_rejected<TypeParam>(); }

// SYCL's functor form: the accessor is a member of the kernel object.
template <class Out>
struct ReverseInLocalMemory {
  Out out;
  kapi::LocalAccessor<double, 1> buffer;
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it) const {
    const std::size_t l = it.get_local_id(0), size = it.get_local_range(0);
    buffer[l] = double(it.get_global_id(0)) + 0.25;
    kapi::group_barrier(it.get_group());
    out(it.get_global_id(0)) = buffer[size - 1 - l];
  }
};

template <class Space>
void check_functor_member() {
  const std::size_t n = 384, local = 128;
  Vec<double, Space> out("out", n);
  kapi::call_kernel(Space(), ReverseInLocalMemory<decltype(out)>{out, kapi::LocalAccessor<double, 1>(local)},
                    kapi::NdRange<1>(n, local));
  auto h = kapi_test::to_host(out);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(h(i), double(i / local * local + local - 1 - i % local) + 0.25) << i;
}
TYPED_TEST(SyclCaptures, FunctorMemberAccessor) { check_functor_member<TypeParam>(); }

// A phased kernel (kapi's hierarchical form) capturing its local memory.
template <class Space>
void check_phased_capture() {
  const std::size_t n = 512, local = 64;
  Vec<int, Space> out("out", n);
  kapi::LocalAccessor<int, 1> tile(local);
  kapi::call_kernel(
      Space(),
      KOKKOS_LAMBDA(const kapi::WorkGroup<1>& wg) {
        kapi::for_each_work_item(
            wg, [&](const kapi::NdItem<1>& it) { tile[it.get_local_id(0)] = int(it.get_global_id(0)) * 5; });
        kapi::for_each_work_item(
            wg, [&](const kapi::NdItem<1>& it) { out(it.get_global_id(0)) = tile[(it.get_local_id(0) + 3) % 64]; });
      },
      kapi::NdRange<1>(n, local));
  auto h = kapi_test::to_host(out);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(h(i), int(i / local * local + (i % local + 3) % local) * 5) << i;
}
TYPED_TEST(SyclCaptures, PhasedKernelCapture) { check_phased_capture<TypeParam>(); }

// A captured accessor next to a reduction variable (the Kokkos reduce launch on devices).
template <class Space>
void check_capture_with_reduction() {
  const std::size_t n = 1024, local = 64;
  Kokkos::View<long, typename Space::memory_space> total("total");
  kapi::LocalAccessor<long, 1> values(local);
  kapi::call_kernel(
      Space(),
      KOKKOS_LAMBDA(kapi::NdItem<1> it, kapi::Reducer<long, kapi::plus<>> & sum) {
        const std::size_t l = it.get_local_id(0);
        values[l] = long(it.get_global_id(0));
        kapi::group_barrier(it.get_group());
        sum += values[(l + 1) % 64] * 2;
      },
      kapi::NdRange<1>(n, local), kapi::reduction(total, kapi::plus<>()));
  auto h = kapi_test::to_host(total);
  long expected = 0;
  for (std::size_t i = 0; i < n; ++i) expected += long(i) * 2;
  EXPECT_EQ(h(), expected);
}
TYPED_TEST(SyclCaptures, CaptureNextToReduction) { check_capture_with_reduction<TypeParam>(); }

// Captures that cannot work are launch errors, not faults.
template <class Space>
void check_capture_errors() {
  const std::size_t n = 64;
  Vec<int, Space> out("out", n);
  kapi::LocalAccessor<int, 1> scratch(16);
  const std::string in_range = launch_error_of([&] {
    kapi::call_kernel(
        Space(), KOKKOS_LAMBDA(kapi::Item<1> it) { out(it.get_id(0)) = scratch.get_pointer() ? 1 : 0; },
        kapi::Range<1>(n));
  });
  EXPECT_THAT(in_range, HasSubstr("captures a LocalAccessor, but it is launched with a Range"));

  Kokkos::View<int, typename Space::memory_space> sum("sum");
  const auto red = kapi::reduction(sum, kapi::plus<>());
  const std::string captured_reduction = launch_error_of([&] {
    kapi::call_kernel(
        Space(), KOKKOS_LAMBDA(kapi::NdItem<1> it) { out(it.get_global_id(0)) = red.impl_target() ? 1 : 0; },
        kapi::NdRange<1>(n, 16));
  });
  EXPECT_THAT(captured_reduction, HasSubstr("captures a kapi::reduction: pass it to call_kernel as an argument"));

  const std::size_t huge = ~std::size_t(0) / 2;
  kapi::LocalAccessor<int, 1> too_big(huge);
  const std::string overflow = launch_error_of([&] {
    kapi::call_kernel(
        Space(), KOKKOS_LAMBDA(kapi::NdItem<1> it) { too_big[it.get_local_id(0)] = 1; }, kapi::NdRange<1>(n, 16));
  });
  EXPECT_THAT(overflow, HasSubstr("captured by the kernel needs more bytes than a size can count"));
}
TYPED_TEST(SyclCaptures, UnsupportedCapturesAreLaunchErrors) { check_capture_errors<TypeParam>(); }

// ---------------------------------------------------------------- kernels named by a type

template <class Space>
void check_named_kernels() {
  const std::size_t n = 200;
  Vec<int, Space> out("out", n);
  // Declared first: nvcc's front end stops with an internal error on `class Name` declared
  // inside the call in a file with extended lambdas (InlineClassName below has that spelling).
  class FillSquares;
  kapi::call_kernel<FillSquares>(
      Space(), KOKKOS_LAMBDA(kapi::Item<1> it) { out(it.get_id(0)) = int(it.get_id(0) * it.get_id(0)); },
      kapi::Range<1>(n));
  kapi::LocalAccessor<int, 1> scratch(8);
  kapi::call_kernel_async<sycl_names::ScaledCopy>(
      Space(),
      KOKKOS_LAMBDA(kapi::NdItem<1> it) {
        scratch[it.get_local_id(0)] = out(it.get_global_id(0));
        kapi::group_barrier(it.get_group());
        out(it.get_global_id(0)) = scratch[it.get_local_id(0)] + 1;
      },
      kapi::NdRange<1>(n, 8))
      .wait();
  auto h = kapi_test::to_host(out);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(h(i), int(i * i) + 1) << i;
}
TYPED_TEST(SyclCaptures, KernelsNamedByType) { check_named_kernels<TypeParam>(); }

TEST(SyclKernelNames, ReadableNames) {
  class LocalName;
  EXPECT_EQ(kapi::detail::kernel_name_label<LocalName>(), "LocalName");
  EXPECT_EQ(kapi::detail::kernel_name_label<sycl_names::ScaledCopy>(), "sycl_names::ScaledCopy");
  EXPECT_EQ(kapi::detail::kernel_name_label<std::vector<int>>(), kapi::detail::type_name<std::vector<int>>());
}

// The default execution space, named by a type.
void check_default_space_named() {
  Kokkos::View<int*, Kokkos::DefaultExecutionSpace::memory_space> out("out", 32);
  class DefaultSpaceFill;
  kapi::call_kernel<DefaultSpaceFill>(
      KOKKOS_LAMBDA(kapi::Item<1> it) { out(it.get_id(0)) = 7; }, kapi::Range<1>(32));
  auto h = kapi_test::to_host(out);
  for (int i = 0; i < 32; ++i) ASSERT_EQ(h(i), 7);
}
TEST(SyclKernelNames, DefaultSpace) { check_default_space_named(); }

// SYCL's own spelling, the name declared in the call (see FillSquares above for nvcc).
#if !defined(__NVCC__)
struct FillSevens {
  Kokkos::View<int*, Kokkos::HostSpace> out;
  void operator()(kapi::Item<1> it) const { out(it.get_id(0)) = 7; }
};

TEST(SyclKernelNames, InlineClassName) {
  Kokkos::View<int*, Kokkos::HostSpace> out("out", 16);
  kapi::call_kernel<class Sevens>(Kokkos::DefaultHostExecutionSpace(), FillSevens{out}, kapi::Range<1>(16));
  for (int i = 0; i < 16; ++i) ASSERT_EQ(out(i), 7);
}
#endif

}  // namespace
