// SPDX-License-Identifier: Apache-2.0
// Device-wide reductions (kapi/device_reduce.hpp) and their work-item chunks
// (kapi/chunk_reduce.hpp): sum, minimum and maximum over int32, int64, float and double,
// both algorithms, n = 0, 1, around the group size, non-multiples and 2^20 + 3, a view
// whose data is not 16-byte aligned, an operator without a known identity, the async
// form, workspace reuse, and rejected options. References are host loops: exact for
// integers and for minimum/maximum, a compensated double sum with the bound
// reduce_depth * eps * sum|x| for floating-point sums.
#include <kapi/device_limits.hpp>
#include <kapi/errors.hpp>
#include <kapi/functional.hpp>
#include <kapi/item.hpp>
#include <kapi/launch.hpp>
#include <kapi/range.hpp>
#include <kapi/reduce.hpp>

#include <gmock/gmock.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "execution_spaces.hpp"

namespace {

template <class T, class Space>
using Vec = Kokkos::View<T*, typename Space::memory_space>;

// Integers in [-3, 3], floating point in [0, 1); the largest value at the first index and
// the smallest at the last, so minimum and maximum depend on the chunks' edges.
template <class T>
T value_at(std::size_t i, std::size_t n) {
  if (n > 1 && i == 0) return T(9);
  if (n > 2 && i == n - 1) return T(-9);
  if constexpr (std::is_integral_v<T>) {
    return T(int((i * 2654435761u) % 7) - 3);
  } else {
    return T(double((i * 2654435761u) % 1000003) / 1000003.0);
  }
}

enum class ReduceOp { plus, minimum, maximum };

template <ReduceOp K>
struct ReduceKapiOp;
template <>
struct ReduceKapiOp<ReduceOp::plus> {
  template <class T>
  using type = kapi::plus<T>;
};
template <>
struct ReduceKapiOp<ReduceOp::minimum> {
  template <class T>
  using type = kapi::minimum<T>;
};
template <>
struct ReduceKapiOp<ReduceOp::maximum> {
  template <class T>
  using type = kapi::maximum<T>;
};

const char* reduce_op_name(ReduceOp k) {
  return k == ReduceOp::plus ? "plus" : k == ReduceOp::minimum ? "minimum" : "maximum";
}

struct Reference {
  double value = 0, abs_sum = 0;
  bool exact = true;  // compare for equality (integers, minimum, maximum)
};

template <class T>
Reference reference(ReduceOp op, const std::vector<T>& x) {
  Reference r;
  if (op != ReduceOp::plus) {
    double m =
        op == ReduceOp::minimum ? double(std::numeric_limits<T>::max()) : double(std::numeric_limits<T>::lowest());
    if (std::is_floating_point_v<T>) m = op == ReduceOp::minimum ? HUGE_VAL : -HUGE_VAL;  // the identities
    for (T v : x) m = op == ReduceOp::minimum ? std::min(m, double(v)) : std::max(m, double(v));
    r.value = m;
  } else if constexpr (std::is_integral_v<T>) {
    std::int64_t s = 0;
    for (T v : x) s += v;
    r.value = double(s);
  } else {
    double s = 0, c = 0;  // Neumaier
    for (T v : x) {
      const double d = double(v), t = s + d;
      c += std::fabs(s) >= std::fabs(d) ? (s - t) + d : (d - t) + s;
      s = t;
      r.abs_sum += std::fabs(d);
    }
    r.value = s + c;
    r.exact = false;
  }
  return r;
}

template <class T>
std::vector<T> host_values(std::size_t n) {
  std::vector<T> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = value_at<T>(i, n);
  return x;
}

template <class T, class Space>
Vec<T, Space> device_copy(const std::vector<T>& x, std::size_t offset = 0) {
  Vec<T, Space> v("x", x.size() + offset);
  auto h = Kokkos::create_mirror_view(v);
  for (std::size_t i = 0; i < x.size(); ++i) h(i + offset) = x[i];
  Kokkos::deep_copy(v, h);
  return v;
}

template <class T>
void expect_result(T got, const Reference& ref, std::size_t depth, const std::string& what) {
  if (ref.exact) {
    EXPECT_EQ(double(got), ref.value) << what;
  } else {
    const double bound = double(depth) * double(std::numeric_limits<T>::epsilon()) * ref.abs_sum;
    EXPECT_LE(std::fabs(double(got) - ref.value), bound) << what << ": got " << got << ", exact " << ref.value;
  }
}

template <class T, class Space, ReduceOp K>
void check_reduce(const Vec<T, Space>& data, std::size_t offset, const std::vector<T>& x,
                  kapi::ReduceWorkspace<T, Space>& ws) {
  using Op = typename ReduceKapiOp<K>::template type<T>;
  const std::size_t n = x.size();
  const auto view = Kokkos::subview(data, std::make_pair(offset, offset + n));
  const Reference ref = reference(K, x);
  for (auto algorithm : {kapi::ReduceAlgorithm::recursive, kapi::ReduceAlgorithm::single_pass}) {
    kapi::ReduceOptions options;
    options.algorithm = algorithm;
    const T got = kapi::reduce(Space(), view, Op(), ws, options);
    const std::string what = std::string(reduce_op_name(K)) + " " + std::to_string(sizeof(T) * 8) + "-bit " +
                             (std::is_integral_v<T> ? "int" : "float") + " n = " + std::to_string(n) + " offset " +
                             std::to_string(offset) +
                             (algorithm == kapi::ReduceAlgorithm::recursive ? " recursive" : " single_pass");
    expect_result(got, ref, kapi::reduce_depth<T>(Space(), n, options), what);
  }
}

template <class T, class Space>
void check_sizes(const std::vector<std::size_t>& sizes, std::size_t offset) {
  kapi::ReduceWorkspace<T, Space> ws(Space(), 1);  // grows as the sizes need
  for (std::size_t n : sizes) {
    const auto x = host_values<T>(n);
    const auto data = device_copy<T, Space>(x, offset);
    if (offset && n) {  // the point of the offset: data not on a 16-byte boundary
      ASSERT_NE(reinterpret_cast<std::uintptr_t>(data.data() + offset) % 16, 0u);
    }
    check_reduce<T, Space, ReduceOp::plus>(data, offset, x, ws);
    check_reduce<T, Space, ReduceOp::minimum>(data, offset, x, ws);
    check_reduce<T, Space, ReduceOp::maximum>(data, offset, x, ws);
  }
}

template <class T, class Space>
std::vector<std::size_t> interesting_sizes() {
  const std::size_t g = kapi::ReduceTuning<T, Space>::group_size;
  return {0, 1, 2, 3, g - 1, g, g + 1, 1000, 4099, 65537, (std::size_t(1) << 20) + 3};
}

template <class Space>
struct Reduction : ::testing::Test {};
KAPI_TYPED_TEST_SUITE(Reduction);

TYPED_TEST(Reduction, Int32) { check_sizes<std::int32_t, TypeParam>(interesting_sizes<std::int32_t, TypeParam>(), 0); }
TYPED_TEST(Reduction, Int64) { check_sizes<std::int64_t, TypeParam>(interesting_sizes<std::int64_t, TypeParam>(), 0); }
TYPED_TEST(Reduction, Float) { check_sizes<float, TypeParam>(interesting_sizes<float, TypeParam>(), 0); }
TYPED_TEST(Reduction, Double) { check_sizes<double, TypeParam>(interesting_sizes<double, TypeParam>(), 0); }

// A subview that starts one element in: its data pointer is 4 or 8 bytes past a 16-byte
// boundary, so the vector path must take head scalars first.
TYPED_TEST(Reduction, MisalignedSubview) {
  const std::vector<std::size_t> sizes = {1, 2, 3, 5, 257, 4099, 65537};
  check_sizes<std::int32_t, TypeParam>(sizes, 1);
  check_sizes<std::int32_t, TypeParam>(sizes, 3);
  check_sizes<std::int64_t, TypeParam>(sizes, 1);
  check_sizes<float, TypeParam>(sizes, 1);
  check_sizes<double, TypeParam>(sizes, 1);
}

// Any group size and chunk length, including ones that are not powers of two.
TYPED_TEST(Reduction, ChosenShapes) {
  const std::size_t n = 70001;
  const auto x = host_values<std::int64_t>(n);
  const auto data = device_copy<std::int64_t, TypeParam>(x);
  const double exact = reference(ReduceOp::plus, x).value;
  kapi::ReduceWorkspace<std::int64_t, TypeParam> ws(TypeParam(), n);
  for (auto algorithm : {kapi::ReduceAlgorithm::recursive, kapi::ReduceAlgorithm::single_pass})
    for (std::size_t group : {1, 3, 64, 100, 256})
      for (std::size_t per_item : {1, 7, 64, 1000}) {
        if (n / (group * per_item) > 20000) continue;  // one work-item per element: keep it small
        kapi::ReduceOptions options;
        options.algorithm = algorithm;
        options.group_size = group;
        options.per_item = per_item;
        EXPECT_EQ(double(kapi::reduce(TypeParam(), data, kapi::plus<>(), ws, options)), exact)
            << "group " << group << ", per item " << per_item;
      }
}

template <class F>
void expect_launch_error(const F& f, const std::vector<std::string>& parts) {
  try {
    f();
    ADD_FAILURE() << "no kapi::launch_error";
  } catch (const kapi::launch_error& e) {
    for (const auto& p : parts) EXPECT_THAT(e.what(), ::testing::HasSubstr(p));
  }
}

// An operator without a known identity: the caller passes one.
struct LargestMagnitude {
  template <class T>
  KOKKOS_INLINE_FUNCTION T operator()(const T& a, const T& b) const {
    return (a < 0 ? -a : a) < (b < 0 ? -b : b) ? b : a;
  }
};

TYPED_TEST(Reduction, OperatorWithoutIdentity) {
  const std::size_t n = 12345;
  auto x = host_values<double>(n);
  x[777] = -42.5;
  const auto data = device_copy<double, TypeParam>(x);
  kapi::ReduceWorkspace<double, TypeParam> ws(TypeParam(), n);
  EXPECT_EQ(kapi::reduce(TypeParam(), data, 0.0, LargestMagnitude(), ws), -42.5);
  // The single-pass kernel combines groups with reduce_over_group, which needs a known identity.
  expect_launch_error(
      [&] { kapi::reduce(TypeParam(), data, 0.0, LargestMagnitude(), ws, {kapi::ReduceAlgorithm::single_pass}); },
      {"single_pass needs an operator with a known identity"});
  // An empty view gives the identity passed.
  EXPECT_EQ(kapi::reduce(TypeParam(), Kokkos::subview(data, std::make_pair(0, 0)), -1.0, LargestMagnitude(), ws), -1.0);
}

TYPED_TEST(Reduction, AsyncAndWorkspaceReuse) {
  const std::size_t n = (std::size_t(1) << 18) + 5;
  const auto x = host_values<std::int32_t>(n);
  const auto data = device_copy<std::int32_t, TypeParam>(x);
  const double exact = reference(ReduceOp::plus, x).value;
  kapi::ReduceWorkspace<std::int32_t, TypeParam> ws(TypeParam(), n);
  const std::int32_t* partials = ws.impl_partials(0, 0);
  const std::int32_t* partials1 = ws.impl_partials(1, 0);
  for (int round = 0; round < 3; ++round) {
    auto event = kapi::reduce_async(TypeParam(), data, kapi::plus<>(), ws);
    EXPECT_EQ(double(event.get()), exact) << "round " << round;
    EXPECT_EQ(double(kapi::reduce(TypeParam(), data, kapi::plus<>(), ws, {kapi::ReduceAlgorithm::single_pass})), exact)
        << "round " << round;  // the single-pass counter was reset by the call before
  }
  // A workspace reserved for n allocates nothing in calls on n elements.
  EXPECT_EQ(ws.impl_partials(0, 0), partials);
  EXPECT_EQ(ws.impl_partials(1, 0), partials1);
}

// The summation trees stay shallow: large arrays get more groups, not longer chains.
TYPED_TEST(Reduction, DepthStaysSmall) {
  for (std::size_t n : {std::size_t(1), std::size_t(1) << 20, std::size_t(1) << 28, std::size_t(1) << 32}) {
    EXPECT_LE(kapi::reduce_depth<float>(TypeParam(), n), 200u) << n;
    EXPECT_LE(kapi::reduce_depth<float>(TypeParam(), n, {kapi::ReduceAlgorithm::single_pass}), 400u) << n;
  }
}

TYPED_TEST(Reduction, BadOptionsAreRejected) {
  const auto data = device_copy<float, TypeParam>(host_values<float>(100));
  kapi::ReduceWorkspace<float, TypeParam> ws(TypeParam(), 100);
  kapi::ReduceOptions zero_group;
  zero_group.group_size = 0;
  expect_launch_error([&] { kapi::reduce(TypeParam(), data, kapi::plus<>(), ws, zero_group); }, {"work-group size 0"});
  kapi::ReduceOptions huge_group;
  huge_group.group_size = kapi::max_work_group_size<TypeParam>() + 1;
  expect_launch_error([&] { kapi::reduce(TypeParam(), data, kapi::plus<>(), ws, huge_group); },
                      {std::to_string(huge_group.group_size) + " work-items",
                       "(" + std::to_string(kapi::max_work_group_size<TypeParam>()) + ")"});
  kapi::ReduceOptions zero_chunk;
  zero_chunk.per_item = 0;
  expect_launch_error([&] { kapi::reduce(TypeParam(), data, kapi::plus<>(), ws, zero_chunk); }, {"per_item 0"});
  const Kokkos::View<float*, Kokkos::LayoutStride, typename TypeParam::memory_space> strided(
      data.data(), Kokkos::LayoutStride(50, 2));
  expect_launch_error([&] { kapi::reduce(TypeParam(), strided, kapi::plus<>(), ws); }, {"contiguous", "stride 2"});
}

// ------------------------------------------------------ the work-item chunks directly
// Every backend runs both layouts here (a device-wide reduction uses only its own).

template <class T, class Chunk>
struct StridedChunkKernel {
  typename Chunk::Split split;
  std::size_t n;
  unsigned size, steps;
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::Item<1>& it, const T* x, T* out) const {
    const std::size_t i = it.get_id(0), group = i / size, lid = i % size;
    const std::size_t first_vector = group * size * steps * Chunk::lanes / Chunk::width;
    out[i] = Chunk::reduce(x, n, split, first_vector, unsigned(lid), size, steps, i == 0, T(0), kapi::plus<T>());
  }
};

template <class T, class Chunk>
struct ContiguousChunkKernel {
  std::size_t n, per_item;
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::Item<1>& it, const T* x, T* out) const {
    out[it.get_id(0)] = Chunk::reduce(x, it.get_id(0) * per_item, per_item, n, T(0), kapi::plus<T>());
  }
};

template <class T, class Space>
void check_strided_chunk(std::size_t n, std::size_t offset, unsigned size, unsigned steps) {
  using Chunk = kapi::StridedChunk<T, 4>;
  const auto x = host_values<T>(n);
  const auto data = device_copy<T, Space>(x, offset);
  const T* base = data.data() + offset;
  const auto split = Chunk::split(base, n);
  const std::size_t per_group = std::size_t(size) * steps * Chunk::lanes;
  const std::size_t items = std::max<std::size_t>(1, (n + per_group - 1) / per_group) * size;
  Vec<T, Space> out("out", items);
  kapi::call_kernel(Space(), StridedChunkKernel<T, Chunk>{split, n, size, steps}, kapi::Range<1>(items), base,
                    out.data());
  const auto h = kapi_test::to_host(out);
  double total = 0;
  for (std::size_t i = 0; i < items; ++i) total += double(h(i));
  EXPECT_EQ(total, reference(ReduceOp::plus, x).value)
      << "n = " << n << ", offset " << offset << ", size " << size << ", steps " << steps;
}

TYPED_TEST(Reduction, StridedChunkOnEveryBackend) {
  for (std::size_t n : {1, 5, 17, 1001})
    for (std::size_t offset : {0, 1, 3})
      for (unsigned size : {1u, 3u, 32u})
        for (unsigned steps : {1u, 5u}) {
          check_strided_chunk<std::int32_t, TypeParam>(n, offset, size, steps);
          check_strided_chunk<std::int64_t, TypeParam>(n, offset, size, steps);
        }
}

TYPED_TEST(Reduction, ContiguousChunkOnEveryBackend) {
  using Chunk = kapi::ContiguousChunk<std::int64_t, 4, 2>;  // blocks of 8: cascades after a few
  for (std::size_t n : {1, 7, 8, 9, 100, 4099})
    for (std::size_t per_item : {1, 8, 37, 1000}) {
      const auto x = host_values<std::int64_t>(n);
      const auto data = device_copy<std::int64_t, TypeParam>(x);
      const std::size_t items = (n + per_item - 1) / per_item;
      Vec<std::int64_t, TypeParam> out("out", items);
      kapi::call_kernel(TypeParam(), ContiguousChunkKernel<std::int64_t, Chunk>{n, per_item}, kapi::Range<1>(items),
                        data.data(), out.data());
      const auto h = kapi_test::to_host(out);
      double total = 0;
      for (std::size_t i = 0; i < items; ++i) total += double(h(i));
      EXPECT_EQ(total, reference(ReduceOp::plus, x).value) << "n = " << n << ", per item " << per_item;
    }
}

}  // namespace
