// SPDX-License-Identifier: Apache-2.0
// The guide's box blur (docs/guide.md) on every execution space of the build: every form
// against the host reference over awkward sizes, radii and work-group sizes, the loop
// nest under every built-in policy and the example's own, and the rejected launches.
#include <guide/blur_flat.hpp>
#include <guide/blur_phased.hpp>
#include <guide/blur_reference.hpp>
#include <guide/blur_rows.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "execution_spaces.hpp"

namespace {

enum class Form { range, nd_range, phased };

const char* form_name(Form f) { return f == Form::range ? "range" : f == Form::nd_range ? "nd-range" : "phased"; }

template <class Space>
struct GuideBlur : ::testing::Test {
  using Signal = Kokkos::View<float*, typename Space::memory_space>;

  static std::vector<float> blur(Form form, const std::vector<float>& input, int radius, std::size_t local) {
    const auto in = kapi_test::make_view<float, Space>("in", input.size(), [&](std::size_t i) { return input[i]; });
    Signal out("out", input.size());
    Kokkos::deep_copy(out, -1.0f);  // an element a form skips keeps this
    if (form == Form::range) guide::blur_range(Space(), in, out, radius);
    if (form == Form::nd_range) guide::blur_nd_range(Space(), in, out, radius, local);
    if (form == Form::phased) guide::blur_phased(Space(), in, out, radius, local);
    const auto host = kapi_test::to_host(out);
    return std::vector<float>(host.data(), host.data() + host.size());
  }
};
KAPI_TYPED_TEST_SUITE(GuideBlur);

TYPED_TEST(GuideBlur, EveryFormMatchesTheReference) {
  // Sizes around and below the group sizes; radii of zero, small, and wider than a group.
  for (std::size_t n : {1, 2, 7, 64, 65, 1000})
    for (int radius : {0, 1, 3, 70})
      for (std::size_t local : {1, 8, 64}) {
        const std::vector<float> input = guide::sample_signal(n);
        const std::vector<float> want = guide::box_blur_reference(input, radius);
        for (Form form : {Form::range, Form::nd_range, Form::phased}) {
          if (form == Form::range && local != 1) continue;  // no work-groups: once is enough
          EXPECT_EQ(TestFixture::blur(form, input, radius, local), want)
              << form_name(form) << " n=" << n << " radius=" << radius << " local=" << local;
        }
      }
}

TYPED_TEST(GuideBlur, RangeKernelWithAReductionVariable) {
  // The blur and, from the same launch, its largest change: max |out(i) - in(i)| on the host.
  for (std::size_t n : {0, 1, 7, 1000, 100003})
    for (int radius : {0, 2, 70}) {
      const std::vector<float> input = guide::sample_signal(n);
      const std::vector<float> want = guide::box_blur_reference(input, radius);
      float want_change = 0;
      for (std::size_t i = 0; i < n; ++i) want_change = std::max(want_change, std::fabs(want[i] - input[i]));
      const auto in = kapi_test::make_view<float, TypeParam>("in", n, [&](std::size_t i) { return input[i]; });
      typename TestFixture::Signal out("out", n);
      const float change = guide::blur_range_max_change(TypeParam(), in, out, radius);
      const auto host = kapi_test::to_host(out);
      EXPECT_EQ(std::vector<float>(host.data(), host.data() + n), want) << "n=" << n << " radius=" << radius;
      EXPECT_EQ(change, want_change) << "n=" << n << " radius=" << radius;
      if (radius > 0 && n > 1) {
        EXPECT_GT(change, 0.0f) << "n=" << n << " radius=" << radius;
      }
    }
}

TYPED_TEST(GuideBlur, EmptySignalIsANoOp) {
  for (Form form : {Form::range, Form::nd_range, Form::phased})
    EXPECT_TRUE(TestFixture::blur(form, {}, 2, 32).empty()) << form_name(form);
}

TYPED_TEST(GuideBlur, RowsUnderEveryPolicyMatchTheReference) {
  using Volume = guide::Volume<typename TypeParam::memory_space>;
  const std::size_t ni = 3, nj = 5, nk = 70;
  const int radius = 4;
  Volume in("in", ni, nj, nk), out("out", ni, nj, nk);
  auto host_in = Kokkos::create_mirror_view(in);
  std::vector<std::vector<float>> want;  // per row
  for (std::size_t i = 0; i < ni; ++i)
    for (std::size_t j = 0; j < nj; ++j) {
      std::vector<float> row(nk);
      for (std::size_t k = 0; k < nk; ++k) row[k] = host_in(i, j, k) = guide::sample_value((i * nj + j) * 29 + k);
      want.push_back(guide::box_blur_reference(row, radius));
    }
  Kokkos::deep_copy(in, host_in);
  auto check = [&](const std::string& policy) {
    const auto got = kapi_test::to_host(out);
    for (std::size_t i = 0; i < ni; ++i)
      for (std::size_t j = 0; j < nj; ++j)
        for (std::size_t k = 0; k < nk; ++k)
          ASSERT_EQ(got(i, j, k), want[i * nj + j][k]) << policy << " at (" << i << ", " << j << ", " << k << ")";
  };
  for (const std::string& policy : kapi::nest::policy_names()) {
    Kokkos::deep_copy(out, -1.0f);
    guide::blur_rows(TypeParam(), policy, in, out, radius);
    check(policy);
  }
  static_assert(kapi::nest::is_policy_v<guide::TeamPerRow, TypeParam, guide::BlurAlongRows<Volume, Volume>>);
  Kokkos::deep_copy(out, -1.0f);
  guide::blur_rows(TypeParam(), guide::TeamPerRow{}, in, out, radius);
  check("team-per-row");
}

TYPED_TEST(GuideBlur, UnpaddedNdRangeIsRejectedWithTheValues) {
  typename TestFixture::Signal in("in", 10), out("out", 10);
  kapi::LocalAccessor<float, 1> tile(4 + 2);
  try {
    kapi::call_kernel(TypeParam(), guide::BoxBlurNdRange{}, kapi::NdRange<1>({10}, {4}), in, out, tile, 1);
    FAIL() << "a global range of 10 in groups of 4 was accepted";
  } catch (const kapi::launch_error& e) {
    EXPECT_NE(std::string(e.what()).find("global range {10} is not divisible by local range {4}"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("10 % 4 = 2"), std::string::npos) << e.what();
  }
}

TYPED_TEST(GuideBlur, BadArgumentsAreRejectedWithTheValues) {
  typename TestFixture::Signal in("in", 10), out("out", 10), shorter("shorter", 9);
  auto message = [](auto&& launch) {
    try {
      launch();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  EXPECT_EQ(message([&] { guide::blur_range(TypeParam(), in, out, -1); }), "box blur: radius -1 is negative");
  EXPECT_EQ(message([&] { guide::blur_phased(TypeParam(), in, shorter, 1, 4); }),
            "box blur: output of 9 elements for an input of 10");
  EXPECT_NE(message([&] { guide::blur_nd_range(TypeParam(), in, out, 1, 0); }).find("local"), std::string::npos);
  using Volume = guide::Volume<typename TypeParam::memory_space>;
  Volume a("a", 2, 2, 2), b("b", 2, 2, 2);
  EXPECT_EQ(message([&] { guide::blur_rows(TypeParam(), guide::TeamPerRow{}, a, b, -2); }),
            "box blur: radius -2 is negative");
}

}  // namespace
