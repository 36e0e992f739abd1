// SPDX-License-Identifier: Apache-2.0
// kapi-init3d: a(i, j, k) = c*i*j*k under every loop-nest policy, each checked against
// the C-style triple loop and timed.
#include <climits>
#include <cstdio>
#include <string>
#include <vector>

#include <init3d/init3d.hpp>
#include <kapi_apps/program.hpp>
#include <kapi_apps/summary.hpp>
#include <kapi_apps/timing.hpp>

namespace {

const char* const usage =
    "kapi-init3d: a(i, j, k) = c*i*j*k over an ni x nj x nk grid (RAJA's kernelintro-execpols\n"
    "kernel), run under the framework's loop-nest policies, checked against a C-style triple loop.\n"
    "\n"
    "usage: kapi-init3d [options] [--kokkos-... options]\n"
    "  --n N             grid side: ni = nj = nk = N (default 100)\n"
    "  --ni/--nj/--nk N  one extent (k is the contiguous index of the LayoutRight array)\n"
    "  --policy LIST     policies (below), comma-separated (default: all); shapes as X x Y x Z\n"
    "                    with X along k: collapsed-64x4x1, blocks-3d-32x4x2[-grid-8x8x8],\n"
    "                    tiles-16x16x1, kapi-nd-range-32x8x1\n"
    "  --c VALUE         the constant (default 0.0001)\n"
    "  --repeat R        timed runs per policy, after one warm-up (default 10); median reported\n"
    "  --space NAME      execution space (default: Kokkos' default; the enabled ones are listed below)\n"
    "  --help            this text\n"
    "Exit status: 0 all policies verified, 1 a verification failed, 2 bad arguments or launch.\n";

struct Result {
  std::string policy;
  double median_s, min_s, gbs;
  std::size_t wrong;
};

template <class Space>
int run_init3d(const Space& space, std::size_t ni, std::size_t nj, std::size_t nk, double c, int repeats,
               std::vector<std::string> policies) {
  if (policies.empty()) policies = init3d::policies();

  init3d::Array<typename Space::memory_space> a("a", ni, nj, nk);
  auto host = Kokkos::create_mirror_view(a);
  const double bytes = double(ni) * double(nj) * double(nk) * sizeof(double);
  std::printf("kapi-init3d: a(i,j,k) = c*i*j*k, %zux%zux%zu doubles (%.1f MiB), c = %g, %s, %d repeats\n", ni, nj, nk,
              bytes / (1 << 20), c, kapi_apps::describe(space).c_str(), repeats);
  std::printf("%-28s %12s %12s %10s  %s\n", "policy", "median ms", "min ms", "GB/s", "check");

  std::vector<Result> results;
  bool all_pass = true;
  for (const auto& policy : policies) {
    Kokkos::deep_copy(space, a, -1.0);  // a point a policy skips keeps this and fails the check
    const auto t = kapi_apps::time_median(space, repeats, [&] { init3d::run(policy, space, a, c); });
    Kokkos::deep_copy(host, a);
    // The reference: the C-style triple loop, point by point.
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < ni; ++i)
      for (std::size_t j = 0; j < nj; ++j)
        for (std::size_t k = 0; k < nk; ++k) wrong += !init3d::same(host(i, j, k), init3d::expected(c, i, j, k));
    all_pass = all_pass && wrong == 0;
    results.push_back({policy, t.median_s, t.min_s, bytes / t.median_s * 1e-9, wrong});
    std::printf("%-28s %12.3f %12.3f %10.2f  %s", policy.c_str(), t.median_s * 1e3, t.min_s * 1e3, results.back().gbs,
                wrong ? "FAIL" : "PASS");
    if (wrong) std::printf(" (%zu of %zu points wrong)", wrong, ni * nj * nk);
    std::printf("\n");
  }

  std::vector<kapi_apps::JsonObject> items;
  for (const auto& r : results)
    items.push_back(kapi_apps::JsonObject()
                        .add("policy", r.policy)
                        .add("pass", r.wrong == 0)
                        .add("median_s", r.median_s)
                        .add("min_s", r.min_s)
                        .add("gb_per_s", r.gbs));
  kapi_apps::print_summary(kapi_apps::JsonObject()
                               .add("app", "init3d")
                               .add("space", Space::name())
                               .add("concurrency", static_cast<long long>(space.concurrency()))
                               .add("ni", ni)
                               .add("nj", nj)
                               .add("nk", nk)
                               .add("repeats", repeats)
                               .add("results", items)
                               .add("pass", all_pass));
  std::printf("%s\n", all_pass ? "PASS" : "FAIL");
  return all_pass ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string help = std::string(usage) + "Policies:\n" + init3d::policy_table.help() +
                           "Enabled spaces: " + kapi_apps::space_names() + "\n";
  return kapi_apps::run_program(argc, argv, help, [](kapi_apps::Args& args) {
    const std::size_t n = args.count("n", 100);
    const std::size_t ni = args.count("ni", n), nj = args.count("nj", n), nk = args.count("nk", n);
    const auto policies = args.list("policy");
    // A finite constant only (Args::real rejects nan and inf): with c = NaN every point
    // is NaN, so the run would time writes of NaN and the check would compare NaN with
    // NaN. Finite constants whose products overflow (c*i = inf, times j = 0 gives NaN)
    // are fine: init3d::same counts NaN where NaN is expected as right.
    const double c = args.real("c", 0.0001);
    const int repeats = static_cast<int>(args.count("repeat", 10, 1, INT_MAX));
    const std::string space = args.text("space", "");
    for (const auto& p : policies) kapi::nest::parse_policy(p);  // unknown names fail here
    kapi_apps::Footprint memory;
    memory.add("a (ni x nj x nk doubles)", {{"ni", ni}, {"nj", nj}, {"nk", nk}}, sizeof(double));
    memory.check();
    kapi_apps::check_space(space);
    return [=] {
      return kapi_apps::with_space(space,
                                   [&](const auto& s) { return run_init3d(s, ni, nj, nk, c, repeats, policies); });
    };
  });
}
