// SPDX-License-Identifier: Apache-2.0
// kapi-heat3d: Jacobi steps of the 7-point heat stencil by every variant, each checked
// against the host reference and timed.
#include <climits>
#include <cstdio>
#include <string>
#include <vector>

#include <heat3d/heat3d.hpp>
#include <heat3d/reference.hpp>
#include <kapi_apps/program.hpp>
#include <kapi_apps/summary.hpp>
#include <kapi_apps/timing.hpp>

namespace {

const char* const usage =
    "kapi-heat3d: Jacobi steps of the heat equation (7-point stencil, fixed boundary layer) on an\n"
    "nx x ny x nz grid by every variant listed below, each checked against a host reference\n"
    "(within steps * 8 eps of the largest value: compilers fuse multiply-adds differently).\n"
    "\n"
    "usage: kapi-heat3d [options] [--kokkos-... options]\n"
    "  --n N            a cube's interior extent (default 128), or --nx, --ny, --nz\n"
    "  --steps S        steps per run (default 10)\n"
    "  --alpha A        diffusion number (default 0.125; stable below 1/6)\n"
    "  --type LIST      float, double, comma-separated (default double)\n"
    "  --variant LIST   variants (below), comma-separated (default: all)\n"
    "  --repeat R       timed runs per variant after one warm-up (default 10); median reported\n"
    "  --space NAME     execution space (default: Kokkos' default; enabled ones listed below)\n"
    "  --help           this text\n"
    "Exit status: 0 all variants verified, 1 a verification failed, 2 bad arguments or launch.\n";

template <class T, class Space>
bool run_type(const Space& space, const std::size_t (&n)[3], int steps, double alpha_d, int repeats,
              const std::vector<std::string>& variants, std::vector<kapi_apps::JsonObject>& items, const char* type) {
  using Grid = heat3d::Grid<T, typename Space::memory_space>;
  const T alpha = T(alpha_d);
  Grid u("u", n[0] + 2, n[1] + 2, n[2] + 2), v("v", n[0] + 2, n[1] + 2, n[2] + 2);
  typename Grid::HostMirror h0("h0", n[0] + 2, n[1] + 2, n[2] + 2);  // (not a mirror view: on host spaces that is u)
  heat3d::fill_initial(h0, 0, 0, 0, n[1] + 2, n[2] + 2);
  // The reference: `steps` host steps from the same start.
  typename Grid::HostMirror r0("r0", n[0] + 2, n[1] + 2, n[2] + 2), r1("r1", n[0] + 2, n[1] + 2, n[2] + 2);
  Kokkos::deep_copy(r0, h0);
  Kokkos::deep_copy(r1, h0);
  for (int s = 0; s < steps; ++s) heat3d::step_reference(s % 2 ? r1 : r0, s % 2 ? r0 : r1, alpha);
  const auto& reference = steps % 2 ? r1 : r0;

  std::printf("\n%s: %zu x %zu x %zu, %d steps, alpha %g\n", type, n[0], n[1], n[2], steps, alpha_d);
  std::printf("%-16s %11s %11s %11s %12s  %s\n", "variant", "|error|", "bound", "median ms", "Gpoints/s", "check");
  bool all = true;
  for (const auto& variant : variants) {
    const auto t = kapi_apps::time_median(space, repeats, [&] {
      Kokkos::deep_copy(u, h0);  // both grids from the start: the boundary layers too
      Kokkos::deep_copy(v, h0);
      heat3d::run(variant, space, u, v, alpha, steps);
    });
    Kokkos::deep_copy(u, h0);
    Kokkos::deep_copy(v, h0);
    auto out = Kokkos::create_mirror_view(u);
    Kokkos::deep_copy(out, heat3d::run(variant, space, u, v, alpha, steps));
    const auto c = heat3d::compare<T>(out, reference, steps);
    const bool pass = c.wrong == 0;
    all = all && pass;
    const double points = double(n[0]) * double(n[1]) * double(n[2]) * steps;
    std::printf("%-16s %11.3g %11.3g %11.4f %12.3f  %s\n", variant.c_str(), c.max_error, c.bound, t.median_s * 1e3,
                points / t.median_s * 1e-9, pass ? "PASS" : "FAIL");
    items.push_back(kapi_apps::JsonObject()
                        .add("type", type)
                        .add("variant", variant)
                        .add("pass", pass)
                        .add("error", c.max_error)
                        .add("bound", c.bound)
                        .add("median_s", t.median_s)
                        .add("min_s", t.min_s)
                        .add("gpoints_per_s", points / t.median_s * 1e-9));
  }
  return all;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string help = std::string(usage) + "Variants:\n" + heat3d::variant_table.help() +
                           "Enabled spaces: " + kapi_apps::space_names() + "\n";
  return kapi_apps::run_program(argc, argv, help, [](kapi_apps::Args& args) {
    const std::size_t cube = args.count("n", 128, 1, std::size_t(1) << 20);
    const std::size_t n[3] = {args.count("nx", cube, 1, std::size_t(1) << 20),
                              args.count("ny", cube, 1, std::size_t(1) << 20),
                              args.count("nz", cube, 1, std::size_t(1) << 20)};
    const int steps = int(args.count("steps", 10, 0, INT_MAX));
    const double alpha = args.real("alpha", heat3d::default_alpha);
    auto types = args.list("type");
    if (types.empty()) types = {"double"};
    for (const auto& t : types)
      if (t != "float" && t != "double") throw kapi_apps::usage_error("--type: '" + t + "' is not float or double");
    auto variants = args.list("variant");
    for (const auto& v : variants) heat3d::check_variant(v);
    if (variants.empty()) variants = heat3d::variants();
    const int repeats = static_cast<int>(args.count("repeat", 10, 1, INT_MAX));
    const std::string space = args.text("space", "");
    kapi_apps::Footprint memory;
    memory.add("two grids and two host copies (double)", {{"nx+2", n[0] + 2}, {"ny+2", n[1] + 2}, {"nz+2", n[2] + 2}},
               32);
    memory.check();
    kapi_apps::check_space(space);
    return [=] {
      return kapi_apps::with_space(space, [&](const auto& s) {
        std::printf("kapi-heat3d: %s, %d repeats\n", kapi_apps::describe(s).c_str(), repeats);
        std::vector<kapi_apps::JsonObject> items;
        bool all = true;
        for (const auto& t : types) {
          if (t == "float") all = run_type<float>(s, n, steps, alpha, repeats, variants, items, "float") && all;
          if (t == "double") all = run_type<double>(s, n, steps, alpha, repeats, variants, items, "double") && all;
        }
        kapi_apps::print_summary(kapi_apps::JsonObject()
                                     .add("app", "heat3d")
                                     .add("space", std::decay_t<decltype(s)>::name())
                                     .add("concurrency", static_cast<long long>(s.concurrency()))
                                     .add("nx", n[0])
                                     .add("ny", n[1])
                                     .add("nz", n[2])
                                     .add("steps", steps)
                                     .add("repeats", repeats)
                                     .add("results", items)
                                     .add("pass", all));
        std::printf("%s\n", all ? "PASS" : "FAIL");
        return all ? 0 : 1;
      });
    };
  });
}
