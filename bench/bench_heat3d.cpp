// SPDX-License-Identifier: Apache-2.0
// bench_heat3d: one Jacobi step of the 7-point heat stencil over an N×N×N fp64 interior
// (a boundary layer around it), on the default execution space.
//   anchor  kokkos-copy      Kokkos::deep_copy of the whole grid: the bytes a step must move
//                            at least, at the speed the memory moves them (its rate counts
//                            the (N + 2)^3 points it copies)
//   raw     kokkos-mdrange   the raw-Kokkos twin: Kokkos::MDRangePolicy<Rank<3>> over the
//                            interior with the range kernel's body, no kapi
//   kapi    every variant of heat3d::variant_table (nd-range with its block in local
//           memory, its phased twin, range)
// Work: 16 bytes per interior point (the grid read once, written once: what a perfect
// cache would move; GB/s counts those). Check: every point against the host reference
// (heat3d/reference.hpp), after a NaN fill of the output's interior.
#include <heat3d/heat3d.hpp>
#include <heat3d/reference.hpp>
#include <limits>
#include <string>
#include <vector>

#include "common/app_variants.hpp"
#include "common/harness.hpp"

namespace heat3d_bench {

using kapi_bench::Backend;
using kapi_bench::Case;
using kapi_bench::DataCache;
using kapi_bench::Harness;
using kapi_bench::Role;
using kapi_bench::Space;
using Grid = heat3d::Grid<double, Space::memory_space>;
constexpr double alpha = heat3d::default_alpha;

struct Data {
  Grid in, out;
  Grid::HostMirror reference;  // one step from the start
};

Data make_data(std::size_t n) {
  Data d{Grid("in", n + 2, n + 2, n + 2), Grid("out", n + 2, n + 2, n + 2),
         Grid::HostMirror("reference", n + 2, n + 2, n + 2)};
  Grid::HostMirror start("start", n + 2, n + 2, n + 2);
  heat3d::fill_initial(start, 0, 0, 0, n + 2, n + 2);
  Kokkos::deep_copy(d.reference, start);
  heat3d::step_reference(start, d.reference, alpha);
  Kokkos::deep_copy(d.in, start);
  Kokkos::deep_copy(d.out, start);
  return d;
}
using Cache = std::shared_ptr<DataCache<Data>>;

auto interior(const Grid& g) {
  const auto n0 = std::make_pair(std::size_t(1), g.extent(0) - 1), n1 = std::make_pair(std::size_t(1), g.extent(1) - 1),
             n2 = std::make_pair(std::size_t(1), g.extent(2) - 1);
  return Kokkos::subview(g, n0, n1, n2);
}

void poison(const Space& space, const Data& d) {
  Kokkos::deep_copy(interior(d.out), std::numeric_limits<double>::quiet_NaN());
  space.fence();
}

/// The copy anchor's check: the output is the input, point for point.
std::string verify_copy(const Data& d) {
  auto in = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.in);
  auto out = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.out);
  std::size_t wrong = 0;
  for (std::size_t p = 0; p < in.size(); ++p) wrong += !(in.data()[p] == out.data()[p]);
  if (wrong == 0) return {};
  return std::to_string(wrong) + " of " + std::to_string(in.size()) + " points differ from the input after the copy";
}

std::string verify(const Data& d) {
  auto out = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.out);
  const auto c = heat3d::compare<double>(out, d.reference, 1);
  if (c.wrong == 0) return {};
  return std::to_string(c.wrong) + " of " + std::to_string(out.size()) + " points beyond the bound " +
         std::to_string(c.bound) + " (largest error " + std::to_string(c.max_error) + ")";
}

Case base(const Space& space, const Cache& data, std::size_t n, const std::string& variant, Role role) {
  Case c;
  c.app = "heat3d";
  c.type = "f64";
  c.variant = variant;
  c.role = role;
  c.size_name = "n";
  c.size = n;
  c.work = 16.0 * double(n) * double(n) * double(n);
  c.unit = "GB/s";
  c.time_unit = benchmark::kMicrosecond;
  c.poison = [space, data, n] { poison(space, *data->get(n)); };
  c.verify = [data, n] { return verify(*data->get(n)); };
  return c;
}

std::vector<std::size_t> default_sizes(const Harness& h) {
  if (h.backend() == Backend::device)
    return h.options().full() ? std::vector<std::size_t>{64, 128, 256, 384, 512}
                              : std::vector<std::size_t>{64, 128, 256, 512};
  if (h.backend() == Backend::serial) return {32, 64};
  return h.options().full() ? std::vector<std::size_t>{32, 64, 96, 128, 192} : std::vector<std::size_t>{32, 64, 128};
}

void register_all(Harness& h) {
  benchmark::AddCustomContext("anchor", "kokkos-copy: Kokkos::deep_copy of the grid, what a step's bytes allow");
  benchmark::AddCustomContext("raw_kokkos",
                              "kokkos-mdrange: Kokkos::MDRangePolicy<Rank<3>> over the interior, the range "
                              "kernel's body");
  const Space space = h.space();
  const Cache data = h.make_cache<Data>(make_data);
  const std::vector<std::size_t> sizes = h.sweep(default_sizes(h));
  std::string runs;
  for (std::size_t n : sizes) {
    const auto group = heat3d::planes_local_range<Space>(n, n);
    runs += (runs.empty() ? "" : ", ") + std::to_string(heat3d::default_planes_per_group(space, n, n, n)) +
            " planes in 1x" + std::to_string(group[1]) + "x" + std::to_string(group[2]) +
            " groups at n = " + std::to_string(n);
  }
  benchmark::AddCustomContext("choices", "nd-range-planes walks runs of " + runs);
  for (std::size_t n : sizes) {
    Case copy = base(space, data, n, "kokkos-copy", Role::anchor);
    copy.work = 16.0 * double(n + 2) * double(n + 2) * double(n + 2);
    copy.verify = [data, n] { return verify_copy(*data->get(n)); };
    copy.bind = [space, data, n] {
      auto d = data->get(n);
      return std::function<void()>([space, d] {
        Kokkos::deep_copy(space, d->out, d->in);
        space.fence();
      });
    };
    h.add(copy);
    Case raw = base(space, data, n, "kokkos-mdrange", Role::raw_kokkos);
    raw.bind = [space, data, n] {
      auto d = data->get(n);
      return std::function<void()>(
          [space, d] { heat3d::StepInFlight<Space>(heat3d::RunKokkosMDRange{}(space, d->in, d->out, alpha)).wait(); });
    };
    h.add(raw);
    kapi_bench::for_each_measured_variant(heat3d::variant_table, [&](const auto& v, Role role) {
      Case c = base(space, data, n, std::string(v.name), role);
      c.bind = [space, data, n, run = v.run] {
        auto d = data->get(n);
        return std::function<void()>(
            [space, d, run] { heat3d::StepInFlight<Space>(run(space, d->in, d->out, alpha)).wait(); });
      };
      h.add(c);
    });
  }
}

}  // namespace heat3d_bench

int main(int argc, char** argv) { return kapi_bench::run_main(argc, argv, "heat3d", heat3d_bench::register_all); }
