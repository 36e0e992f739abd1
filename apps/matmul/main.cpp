// SPDX-License-Identifier: Apache-2.0
// kapi-matmul: C = A·B with every matmul variant, each checked against a double-precision
// host reference (tolerance from K) and timed.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <kapi_apps/program.hpp>
#include <kapi_apps/summary.hpp>
#include <kapi_apps/timing.hpp>
#include <matmul/matmul.hpp>
#include <matmul/reference.hpp>

namespace {

const char* const usage =
    "kapi-matmul: C = A·B (A m x k, B k x n, row-major) by every variant listed below, each\n"
    "checked against a double-precision host product with tolerance k*eps*(|A||B|)_ij.\n"
    "\n"
    "usage: kapi-matmul [options] [--kokkos-... options]\n"
    "  --size S         m = n = k = S (default 512)\n"
    "  --m/--n/--k N    one dimension (any value, 0 included)\n"
    "  --type LIST      float, double, comma-separated (default float)\n"
    "  --variant LIST   variants (below), comma-separated (default: all this build has)\n"
    "  --check MODE     full (every element), sample (64 rows), none; default full up to\n"
    "                   m*n*k = 2^31, sample beyond\n"
    "  --repeat R       timed runs per variant after one warm-up (default 5); median reported\n"
    "  --space NAME     execution space (default: Kokkos' default; enabled ones listed below)\n"
    "  --help           this text\n"
    "Exit status: 0 all variants verified, 1 a verification failed, 2 bad arguments or launch.\n";

// A deterministic value in [-1, 1) from (i, j, seed).
inline double entry(std::uint64_t i, std::uint64_t j, std::uint64_t seed) {
  std::uint64_t z = (i * 0x9E3779B97F4A7C15ull) ^ (j + 0x632BE59BD9B4E019ull * seed);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return double(z >> 11) * 0x1.0p-52 - 1.0;
}

template <class T>
const char* type_name() {
  return sizeof(T) == 4 ? "float" : "double";
}

// Whether the check samples 64 rows rather than comparing every element.
bool sampled(const std::string& check, std::size_t m, std::size_t n, std::size_t k) {
  return check == "sample" || (check.empty() && double(m) * double(n) * double(k) > double(1ull << 31));
}

template <class T, class Space>
bool run_type(const Space& space, std::size_t m, std::size_t n, std::size_t k, const std::string& check, int repeats,
              const std::vector<std::string>& variants, std::vector<kapi_apps::JsonObject>& items) {
  matmul::Matrix<T, Space> a("A", m, k), b("B", k, n), c("C", m, n);
  auto ha = Kokkos::create_mirror_view(a), hb = Kokkos::create_mirror_view(b);
  auto hc = Kokkos::create_mirror_view(c);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t p = 0; p < k; ++p) ha(i, p) = T(entry(i, p, 1));
  for (std::size_t p = 0; p < k; ++p)
    for (std::size_t j = 0; j < n; ++j) hb(p, j) = T(entry(p, j, 2));
  Kokkos::deep_copy(a, ha);
  Kokkos::deep_copy(b, hb);

  const bool sample = sampled(check, m, n, k);
  const bool verify = check != "none";
  const matmul::ProductReference reference(
      ha, hb, verify ? (sample ? matmul::sample_rows(m, 64) : matmul::all_rows(m)) : std::vector<std::size_t>{});
  const double flops = 2.0 * double(m) * double(n) * double(k);
  std::printf("\n%s: C(%zux%zu) = A(%zux%zu) B(%zux%zu), %s\n", type_name<T>(), m, n, m, k, k, n,
              !verify  ? "not checked"
              : sample ? "checked on 64 sampled rows"
                       : "every element checked");
  std::printf("%-20s %12s %12s %10s %12s %12s  %s\n", "variant", "median ms", "min ms", "GFLOP/s", "max |error|",
              "error/tol", "check");
  bool all = true;
  for (const auto& variant : variants) {
    // the reduced-precision tensor-core variants take float only, tuned-fp64 double only
    if (sizeof(T) == 8 ? !matmul::takes_double(variant) : !matmul::takes_float(variant)) continue;
    Kokkos::deep_copy(c, T(-777));  // elements a variant skips keep this and fail the check
    const matmul::ConstMatrix<T, Space> ca = a, cb = b;
    const auto t = kapi_apps::time_median(space, repeats, [&] { matmul::multiply<T>(variant, space, ca, cb, c); });
    Kokkos::deep_copy(hc, c);
    const auto r = reference.check<T>(hc, matmul::input_unit_roundoff(variant));
    const bool pass = r.wrong == 0;
    all = all && pass;
    const double gflops = t.median_s > 0 ? flops / t.median_s * 1e-9 : 0;
    std::printf("%-20s %12.3f %12.3f %10.2f %12.3g %12.3g  %s", variant.c_str(), t.median_s * 1e3, t.min_s * 1e3,
                gflops, r.max_error, r.worst,
                !verify ? "-"
                : pass  ? "PASS"
                        : "FAIL");
    if (!pass) std::printf(" (%zu of %zu elements outside tolerance)", r.wrong, r.checked);
    std::printf("\n");
    items.push_back(kapi_apps::JsonObject()
                        .add("type", type_name<T>())
                        .add("variant", variant)
                        .add("pass", pass)
                        .add("checked", r.checked)
                        .add("max_error", r.max_error)
                        .add("error_over_tolerance", r.worst)
                        .add("relative_error", r.relative_error())
                        .add("median_s", t.median_s)
                        .add("min_s", t.min_s)
                        .add("gflop_per_s", gflops));
  }
  return all;
}

template <class Space>
int run_matmul(const Space& space, std::size_t m, std::size_t n, std::size_t k, const std::vector<std::string>& types,
               const std::string& check, int repeats, std::vector<std::string> variants) {
  if (variants.empty()) variants = matmul::variants();
  std::printf("kapi-matmul: m = %zu, n = %zu, k = %zu, %s, %d repeats\n", m, n, k, kapi_apps::describe(space).c_str(),
              repeats);
  std::vector<kapi_apps::JsonObject> items;
  bool all = true;
  for (const auto& t : types) {
    if (t == "float") all = run_type<float>(space, m, n, k, check, repeats, variants, items) && all;
    if (t == "double") all = run_type<double>(space, m, n, k, check, repeats, variants, items) && all;
  }
  kapi_apps::print_summary(kapi_apps::JsonObject()
                               .add("app", "matmul")
                               .add("space", Space::name())
                               .add("concurrency", static_cast<long long>(space.concurrency()))
                               .add("m", m)
                               .add("n", n)
                               .add("k", k)
                               .add("repeats", repeats)
                               .add("results", items)
                               .add("pass", all));
  std::printf("%s\n", all ? "PASS" : "FAIL");
  return all ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string help = std::string(usage) + "Variants:\n" + matmul::variant_table.help() +
                           "Enabled spaces: " + kapi_apps::space_names() + "\n";
  return kapi_apps::run_program(argc, argv, help, [](kapi_apps::Args& args) {
    const bool has_size = args.has("size");
    const std::size_t size = args.count("size", 512);
    // A dimension and the option that set it (--m, or --size when --m is absent), for messages.
    auto dim = [&](const char* name) {
      const bool own = args.has(name);
      return kapi_apps::SizeOption{own || !has_size ? name : "size", args.count(name, size)};
    };
    const kapi_apps::SizeOption dm = dim("m"), dn = dim("n"), dk = dim("k");
    const std::size_t m = dm.value, n = dn.value, k = dk.value;
    auto types = args.list("type");
    if (types.empty()) types = {"float"};
    const auto variants = args.list("variant");
    const std::string check = args.text("check", "");
    if (!check.empty() && check != "full" && check != "sample" && check != "none")
      throw kapi_apps::usage_error("--check: expected full, sample or none, got '" + check + "'");
    const int repeats = static_cast<int>(args.count("repeat", 5, 1, INT_MAX));
    const std::string space = args.text("space", "");
    for (const auto& v : variants) matmul::check_variant(v);
    std::size_t widest = 0;  // the types run one after another: the widest sets the peak
    for (const auto& t : types) {
      if (t != "float" && t != "double") throw kapi_apps::usage_error("--type: '" + t + "' is not float or double");
      widest = std::max<std::size_t>(widest, t == "float" ? 4 : 8);
    }
    kapi_apps::Footprint memory;
    const std::string elements = widest == 4 ? " floats)" : " doubles)";
    memory.add("A (m x k" + elements, {dm, dk}, widest);
    memory.add("B (k x n" + elements, {dk, dn}, widest);
    memory.add("C (m x n" + elements, {dm, dn}, widest);
    if (check != "none") {  // the reference: two doubles per checked element
      const std::size_t rows = sampled(check, m, n, k) ? std::min<std::size_t>(m, 64) : m;
      memory.add("the reference (2 x rows x n doubles)", {{dm.name, rows}, dn}, 2 * sizeof(double));
    }
    memory.check();
#if defined(KAPI_APPS_HAVE_KOKKOS_KERNELS)
    const std::string anchor = matmul::variant_table.name_of(kapi_apps::Kind::anchor);
    if (variants.empty() || std::find(variants.begin(), variants.end(), anchor) != variants.end())
      for (const auto& d : {dm, dn, dk})
        if (d.value > matmul::kokkos_kernels_max_extent)
          throw kapi_apps::usage_error("--" + d.name + " " + std::to_string(d.value) + ": the " + anchor +
                                       " variant passes sizes to BLAS as int, at most " +
                                       std::to_string(matmul::kokkos_kernels_max_extent) +
                                       " (choose other variants with --variant)");
#endif
    kapi_apps::check_space(space);
    return [=] {
      return kapi_apps::with_space(
          space, [&](const auto& s) { return run_matmul(s, m, n, k, types, check, repeats, variants); });
    };
  });
}
