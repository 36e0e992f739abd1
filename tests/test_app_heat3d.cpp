// SPDX-License-Identifier: Apache-2.0
// The heat3d app: every variant's steps against the host reference on awkward grids
// (extents that are not multiples of the work-group shape, a single point, flat grids),
// the nd-range kernels and the phased twin bit for bit alike (the marching kernel at
// several run lengths), and bad grids refused.
#include <heat3d/heat3d.hpp>
#include <heat3d/reference.hpp>

#include <string>
#include <type_traits>
#include <vector>

#include "execution_spaces.hpp"

namespace {

template <class T, class Space>
void check_heat3d(const std::string& variant, std::size_t nx, std::size_t ny, std::size_t nz, int steps) {
  using Grid = heat3d::Grid<T, typename Space::memory_space>;
  typename Grid::HostMirror h0("h0", nx + 2, ny + 2, nz + 2), r0("r0", nx + 2, ny + 2, nz + 2),
      r1("r1", nx + 2, ny + 2, nz + 2);
  heat3d::fill_initial(h0, 0, 0, 0, ny + 2, nz + 2);
  Kokkos::deep_copy(r0, h0);
  Kokkos::deep_copy(r1, h0);
  const T alpha = T(heat3d::default_alpha);
  for (int s = 0; s < steps; ++s) heat3d::step_reference(s % 2 ? r1 : r0, s % 2 ? r0 : r1, alpha);
  Grid u("u", nx + 2, ny + 2, nz + 2), v("v", nx + 2, ny + 2, nz + 2);
  Kokkos::deep_copy(u, h0);
  Kokkos::deep_copy(v, h0);
  const auto got = kapi_test::to_host(heat3d::run(variant, Space(), u, v, alpha, steps));
  const auto c = heat3d::compare<T>(got, steps % 2 ? r1 : r0, steps);
  EXPECT_EQ(c.wrong, 0u) << variant << " on " << nx << "x" << ny << "x" << nz << ", " << steps
                         << " steps: largest error " << c.max_error << ", bound " << c.bound;
}

template <class Space>
struct Heat3dApp : ::testing::Test {};
KAPI_TYPED_TEST_SUITE(Heat3dApp);

TYPED_TEST(Heat3dApp, EveryVariantOnAwkwardGrids) {
  const std::vector<std::vector<std::size_t>> grids = {{1, 1, 1}, {3, 5, 7}, {17, 9, 33}, {2, 31, 65}};
  for (const auto& variant : heat3d::variants())
    for (const auto& g : grids) {
      check_heat3d<double, TypeParam>(variant, g[0], g[1], g[2], 3);
      check_heat3d<float, TypeParam>(variant, g[0], g[1], g[2], 2);
    }
}

TYPED_TEST(Heat3dApp, NdRangeAndPhasedAgreeBitForBit) {
  using Grid = heat3d::Grid<double, typename TypeParam::memory_space>;
  const std::size_t n0 = 13, n1 = 21, n2 = 45;
  typename Grid::HostMirror h0("h0", n0 + 2, n1 + 2, n2 + 2);
  heat3d::fill_initial(h0, 0, 0, 0, n1 + 2, n2 + 2);
  std::vector<typename Grid::HostMirror> results;
  std::vector<std::string> names;
  for (const char* variant : {"nd-range", "phased", "nd-range-planes"}) {
    Grid u("u", n0 + 2, n1 + 2, n2 + 2), v("v", n0 + 2, n1 + 2, n2 + 2);
    Kokkos::deep_copy(u, h0);
    Kokkos::deep_copy(v, h0);
    results.push_back(kapi_test::to_host(heat3d::run(variant, TypeParam(), u, v, 0.125, 4)));
    names.push_back(variant);
  }
  // The marching kernel with runs of 1, 4 and 5 planes (13 = 3 * 4 + 1 = 2 * 5 + 3) and all 13.
  for (std::size_t planes : {1, 4, 5, 13}) {
    Grid u("u", n0 + 2, n1 + 2, n2 + 2), v("v", n0 + 2, n1 + 2, n2 + 2);
    Kokkos::deep_copy(u, h0);
    Kokkos::deep_copy(v, h0);
    for (int s = 0; s < 4; ++s)
      heat3d::step_nd_range_planes(TypeParam(), s % 2 ? v : u, s % 2 ? u : v, 0.125, planes).wait();
    results.push_back(kapi_test::to_host(u));
    names.push_back("nd-range-planes, runs of " + std::to_string(planes));
  }
  // Reading one and three planes ahead instead of two, runs of 5 (the last one of 3).
  const auto read_ahead = [&](auto ahead) {
    constexpr std::size_t a = decltype(ahead)::value;
    Grid u("u", n0 + 2, n1 + 2, n2 + 2), v("v", n0 + 2, n1 + 2, n2 + 2);
    Kokkos::deep_copy(u, h0);
    Kokkos::deep_copy(v, h0);
    for (int s = 0; s < 4; ++s)
      heat3d::step_nd_range_planes<TypeParam, a>(TypeParam(), s % 2 ? v : u, s % 2 ? u : v, 0.125, 5).wait();
    results.push_back(kapi_test::to_host(u));
    names.push_back("nd-range-planes, " + std::to_string(a) + " planes ahead");
  };
  read_ahead(std::integral_constant<std::size_t, 1>{});
  read_ahead(std::integral_constant<std::size_t, 3>{});
  for (std::size_t r = 1; r < results.size(); ++r)
    for (std::size_t i = 0; i < n0 + 2; ++i)
      for (std::size_t j = 0; j < n1 + 2; ++j)
        for (std::size_t k = 0; k < n2 + 2; ++k)
          ASSERT_EQ(results[0](i, j, k), results[r](i, j, k))
              << names[r] << " against nd-range at (" << i << "," << j << "," << k << ")";
}

TYPED_TEST(Heat3dApp, GridsWithoutInteriorOrOfDifferentShapesAreRefused) {
  using Grid = heat3d::Grid<double, typename TypeParam::memory_space>;
  Grid a("a", 2, 5, 5), b("b", 2, 5, 5), c("c", 5, 5, 5), d("d", 5, 5, 6);
  EXPECT_THROW(heat3d::step("range", TypeParam(), a, b, 0.125), kapi::launch_error);
  EXPECT_THROW(heat3d::step("nd-range", TypeParam(), c, d, 0.125), kapi::launch_error);
  EXPECT_THROW(heat3d::step("no-such-variant", TypeParam(), c, c, 0.125), std::invalid_argument);
  // The kernels' own step functions, called directly, check the grids too (the marching
  // kernel divided by its run length, 0 without an interior).
  EXPECT_THROW(heat3d::step_nd_range_planes(TypeParam(), a, b, 0.125), kapi::launch_error);
  EXPECT_THROW(heat3d::step_nd_range_planes(TypeParam(), c, d, 0.125, 2), kapi::launch_error);
  EXPECT_THROW(heat3d::step_nd_range(TypeParam(), a, b, 0.125), kapi::launch_error);
  EXPECT_THROW(heat3d::step_phased(TypeParam(), c, d, 0.125), kapi::launch_error);
  EXPECT_THROW(heat3d::step_range(TypeParam(), a, b, 0.125), kapi::launch_error);
}

}  // namespace
