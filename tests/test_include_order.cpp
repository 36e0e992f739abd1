// SPDX-License-Identifier: Apache-2.0
// A user's file that includes <cstring> before any kapi or Kokkos header, as many do. The
// device code behind asynchronous copies, reduced-precision conversions and group
// broadcasts copies bytes; with std::memcpy, <cstring> first made it the host memcpy, which
// hipcc refused in device code (the HIP compile check failed on this file). This file is
// compiled alone even where test areas are unity builds (tests/CMakeLists.txt).
#include <cstring>

#include <kapi/async_copy.hpp>
#include <kapi/barrier.hpp>
#include <kapi/group_algorithms.hpp>
#include <kapi/item.hpp>
#include <kapi/launch.hpp>
#include <kapi/local_accessor.hpp>
#include <kapi/range.hpp>
#include <kapi/reduced_precision.hpp>

#include "execution_spaces.hpp"

namespace {

/// out(i) = bfloat16(in(i)) (as float) + work-item 0's in of the group, read through an
/// asynchronous copy into local memory and a broadcast (a double: staged as bytes on devices).
struct CopyConvertBroadcast {
  template <class In, class Out>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it, const In& in, const Out& out,
                                         const kapi::LocalAccessor<float, 1>& tile) const {
    const std::size_t i = it.get_global_id(0), l = it.get_local_id(0);
    kapi::async_copy<4>(&tile[l], &in(i), true);
    kapi::async_copy_commit();
    kapi::async_copy_wait<0>();
    kapi::group_barrier(it.get_group());
    const double first = kapi::group_broadcast(it.get_group(), 6.0 * double(tile[l]));
    out(i) = float(kapi::bfloat16(tile[l])) + float(first);
  }
};

template <class Space>
struct IncludeOrder : ::testing::Test {};
KAPI_TYPED_TEST_SUITE(IncludeOrder);

TYPED_TEST(IncludeOrder, CstringFirstStillCopiesBytesOnEveryBackend) {
  using Space = TypeParam;
  const std::size_t n = 256, group = 64;
  Kokkos::View<float*, typename Space::memory_space> in("in", n), out("out", n);
  auto h = Kokkos::create_mirror_view(in);
  // 1 + i/256: exactly representable in bfloat16 for i a multiple of 2 (8 bits of mantissa)
  for (std::size_t i = 0; i < n; ++i) h(i) = 1.0f + float(i & ~std::size_t(1)) / 256.0f;
  Kokkos::deep_copy(in, h);
  kapi::call_kernel(Space(), CopyConvertBroadcast{}, kapi::NdRange<1>({n}, {group}), in, out,
                    kapi::LocalAccessor<float, 1>(kapi::Range<1>{group}));
  const auto got = kapi_test::to_host(out);
  for (std::size_t i = 0; i < n; ++i) {
    const float leader = h(i - i % group);
    EXPECT_EQ(got(i), h(i) + 6 * leader) << "at " << i;
  }
}

}  // namespace
