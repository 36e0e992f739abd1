// SPDX-License-Identifier: Apache-2.0
// Launch shapes chosen by measuring (kapi/launch_shapes.hpp): the setting's names and its
// error, and on every space a 3-d range kernel launched over and over at extents that
// reach each shape's edges (ragged tiles, more planes than the grid holds runs of, more
// rows than its y extent), each launch visiting every work-item exactly once: on CUDA
// those launches run every candidate shape while it is tuned, and then its choice is
// recorded with the candidates' times. Other spaces record nothing.
#include <kapi/atomic_ref.hpp>
#include <kapi/detail/launch_shape_setting.hpp>
#include <kapi/item.hpp>
#include <kapi/launch.hpp>
#include <kapi/launch_shapes.hpp>
#include <kapi/range.hpp>
#include <kapi/space_traits.hpp>

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "execution_spaces.hpp"

namespace {

TEST(LaunchShapes, SettingNamesAShapeOrSaysWhatItTakes) {
  EXPECT_EQ(kapi::detail::parse_launch_shape_setting("tuned").shape, -1);
  for (int s = 0; s < kapi::detail::cuda_range_shape_count; ++s) {
    const auto setting = kapi::detail::parse_launch_shape_setting(kapi::detail::cuda_range_shape_names[s]);
    EXPECT_EQ(setting.shape, s);
    EXPECT_TRUE(setting.error.empty()) << setting.error;
  }
  const auto bad = kapi::detail::parse_launch_shape_setting("planes-5");
  EXPECT_NE(bad.error.find("KAPI_CUDA_RANGE_SHAPE='planes-5'"), std::string::npos) << bad.error;
  for (const char* name : {"'tuned'", "'strided'", "'strided-few'", "'planes-4'", "'planes-4-unrolled'"})
    EXPECT_NE(bad.error.find(name), std::string::npos) << bad.error;
}

struct CountVisits {
  template <class View>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::Item<3>& it, const View& visits) const {
    const std::size_t n1 = it.get_range(1), n2 = it.get_range(2);
    kapi::AtomicRef(visits, (it.get_id(0) * n1 + it.get_id(1)) * n2 + it.get_id(2)).fetch_add(1);
  }
};

template <class Space>
class TunedRange : public ::testing::Test {};
KAPI_TYPED_TEST_SUITE(TunedRange);

TYPED_TEST(TunedRange, EveryLaunchVisitsEachWorkItemOnce) {
  using Memory = typename TypeParam::memory_space;
  const std::size_t extents[][3] = {{37, 45, 70}, {300001, 1, 3}, {2, 600001, 1}};
  constexpr int launches = 10;  // past the tuning's 2 timed launches per candidate
  for (const auto& e : extents) {
    const std::size_t points = e[0] * e[1] * e[2];
    Kokkos::View<int*, Memory> visits("visits", points);
    for (int launch = 1; launch <= launches; ++launch) {
      kapi::call_kernel(TypeParam(), CountVisits{}, kapi::Range<3>(e[0], e[1], e[2]), visits);
      const auto h = kapi_test::to_host(visits);
      std::size_t wrong = 0, first = points;
      for (std::size_t p = 0; p < points; ++p)
        if (h(p) != launch) ++wrong, first = std::min(first, p);
      ASSERT_EQ(wrong, 0u) << e[0] << "x" << e[1] << "x" << e[2] << ", launch " << launch << ": first at point "
                           << first << " visited " << h(first) << " times in all";
    }
    const auto choices = kapi::launch_shape_choices();
    const auto choice = std::find_if(choices.begin(), choices.end(), [&](const kapi::LaunchShapeChoice& c) {
      return c.extent == std::vector<long long>{(long long)e[0], (long long)e[1], (long long)e[2]};
    });
    if (!kapi::space_traits<TypeParam>::is_cuda || kapi::launch_shape_setting() != "tuned") {
      EXPECT_EQ(choice, choices.end()) << "a choice recorded where no shape was tuned";
      continue;
    }
    ASSERT_NE(choice, choices.end()) << "no shape chosen after " << launches << " launches";
    EXPECT_FALSE(choice->kernel.empty());
    ASSERT_EQ(choice->times.size(), std::size_t(kapi::detail::cuda_range_shape_count));
    for (double t : choice->times) EXPECT_GT(t, 0.0);
    const auto fastest = std::min_element(choice->times.begin(), choice->times.end()) - choice->times.begin();
    EXPECT_EQ(choice->shape, choice->shapes[fastest]);
  }
}

}  // namespace
