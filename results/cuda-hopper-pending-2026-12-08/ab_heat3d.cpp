// SPDX-License-Identifier: Apache-2.0
// A/B of heat3d marching-kernel variants on a GPU, timed next to Kokkos::deep_copy (README.md).
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdio>
#include <vector>
#include <string>
#include <utility>
#include <heat3d/heat3d.hpp>

using Space = Kokkos::DefaultExecutionSpace;
using G = heat3d::Grid<double, Space::memory_space>;

template <std::size_t A, class B, std::size_t P = 0>
struct Planes : heat3d::StencilNdRangePlanes<A, P> { using launch_bounds = B; };
template <std::size_t P>
struct Pre {
  template <std::size_t A, class B> using K = Planes<A, B, P>;
};

template <class F>
double median_ms(F&& f, int reps = 15) {
  std::vector<double> t;
  f(); f(); Kokkos::fence();
  for (int r = 0; r < reps; ++r) { Kokkos::Timer tm; f(); Kokkos::fence(); t.push_back(tm.seconds() * 1e3); }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

template <template <std::size_t, class> class K, std::size_t A, class B>
void planes(const char* kname, const char* bname, const Space& s, const G& u, const G& v, double copy_ms, std::size_t ppg, std::size_t l1, std::size_t l2) {
  const std::size_t n0 = u.extent(0) - 2, n1 = u.extent(1) - 2, n2 = u.extent(2) - 2;
  kapi::NdRange<3> r(kapi::Range<3>(kapi::ceil_div(n0, ppg), kapi::round_up(n1, l1), kapi::round_up(n2, l2)), kapi::Range<3>(1, l1, l2));
  try {
    double ms = median_ms([&] {
      kapi::call_kernel_async(s, K<A, B>{}, r, u, v, kapi::LocalAccessor<double, 1>(heat3d::TileShape{2, l1 + 2, l2 + 2}.size()), 0.125, ppg).wait();
    });
    std::printf("%-7s A=%zu %-9s ppg=%4zu %3zux%-3zu %8.4f ms %6.1f%%\n", kname, A, bname, ppg, l1, l2, ms, 100 * copy_ms / ms);
  } catch (const std::exception& e) {
    std::printf("%s A=%zu %s ppg=%zu %zux%zu refused: %.80s\n", kname, A, bname, ppg, l1, l2, e.what());
  }
}

int main(int argc, char** argv) {
  Kokkos::ScopeGuard g(argc, argv);
  Space s;
  if (argc > 1 && std::string(argv[1]) == "ncu") {
    const std::size_t n = 512;
    G u("u", n + 2, n + 2, n + 2), v("v", n + 2, n + 2, n + 2);
    Kokkos::deep_copy(u, 1.0);
    Kokkos::deep_copy(s, v, u);
    heat3d::step_range(s, u, v, 0.125).wait();
    heat3d::step_nd_range_planes(s, u, v, 0.125).wait();
    Kokkos::fence();
    return 0;
  }
  for (std::size_t n : {256, 512}) {
    G u("u", n + 2, n + 2, n + 2), v("v", n + 2, n + 2, n + 2);
    Kokkos::deep_copy(u, 1.0);
    double copy_ms = median_ms([&] { Kokkos::deep_copy(s, v, u); });
    std::printf("n=%zu copy %.4f ms\n", n, copy_ms);
    auto show = [&](const char* name, auto f) { double ms = median_ms(f); std::printf("%-28s %8.4f ms %6.1f%%\n", name, ms, 100 * copy_ms / ms); };
    show("range", [&] { heat3d::step_range(s, u, v, 0.125).wait(); });
    show("nd-range(col8)", [&] { heat3d::step_nd_range(s, u, v, 0.125).wait(); });
    show("nd-range-planes default", [&] { heat3d::step_nd_range_planes(s, u, v, 0.125).wait(); });
    using SB = heat3d::StencilBounds;
    const std::size_t run = heat3d::default_planes_per_group(s, n, n, n);
    for (std::size_t ppg : {run, run / 2}) {
      planes<Pre<0>::K, 1, SB>("pre0", "default", s, u, v, copy_ms, ppg, 4, 128);
      planes<Pre<1>::K, 1, SB>("pre1", "default", s, u, v, copy_ms, ppg, 4, 128);
      planes<Pre<2>::K, 1, SB>("pre2", "default", s, u, v, copy_ms, ppg, 4, 128);
      planes<Pre<4>::K, 1, SB>("pre4", "default", s, u, v, copy_ms, ppg, 4, 128);
      planes<Pre<8>::K, 1, SB>("pre8", "default", s, u, v, copy_ms, ppg, 4, 128);
      planes<Pre<4>::K, 1, SB>("pre4", "default", s, u, v, copy_ms, ppg, 8, 64);
    }
    show("copy again", [&] { Kokkos::deep_copy(s, v, u); });
  }
}
