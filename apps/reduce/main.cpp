// SPDX-License-Identifier: Apache-2.0
// kapi-reduce: sums an array with every reduction variant, checks each against an
// independent host reference with the variant's error bound, and times it.
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <kapi_apps/program.hpp>
#include <kapi_apps/summary.hpp>
#include <kapi_apps/timing.hpp>
#include <reduce/reduce.hpp>

namespace {

const char* const usage =
    "kapi-reduce: the sum of an n-element array by every variant listed below, each checked\n"
    "against a host reference (exact for integers; for floating point a compensated double\n"
    "sum, with the bound d*eps*sum|x| of the variant's summation tree of depth d).\n"
    "\n"
    "usage: kapi-reduce [options] [--kokkos-... options]\n"
    "  --n N            elements, a count or 2^p (default 2^24)\n"
    "  --type LIST      float, double, int32, int64, comma-separated (default float)\n"
    "  --variant LIST   variants (below), comma-separated (default: all this build has)\n"
    "  --data KIND      uniform (floats in [0,1), integers in [-3,3]; default) or ones\n"
    "  --repeat R       timed runs per variant after one warm-up (default 10); median reported\n"
    "  --space NAME     execution space (default: Kokkos' default; enabled ones listed below)\n"
    "  --help           this text\n"
    "Exit status: 0 all variants verified, 1 a verification failed, 2 bad arguments or launch.\n";

// A deterministic value in [0, 1) from the index (splitmix64).
inline double unit_hash(std::uint64_t i) {
  std::uint64_t z = i + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return double(z >> 11) * 0x1.0p-53;
}

template <class T>
T element(std::uint64_t i, bool ones) {
  if (ones) return T(1);
  if constexpr (std::is_integral_v<T>)
    return T(int(unit_hash(i) * 7.0) - 3);
  else
    return T(unit_hash(i));
}

template <class T>
const char* type_name() {
  if constexpr (std::is_same_v<T, float>)
    return "float";
  else if constexpr (std::is_same_v<T, double>)
    return "double";
  else if constexpr (std::is_same_v<T, std::int32_t>)
    return "int32";
  else
    return "int64";
}

template <class T, class Space>
bool run_type(const Space& space, std::size_t n, bool ones, int repeats, const std::vector<std::string>& variants,
              std::vector<kapi_apps::JsonObject>& items) {
  using Mem = typename Space::memory_space;
  Kokkos::View<T*, Mem> data("x", n);
  auto host = Kokkos::create_mirror_view(data);
  // The reference, independent of every variant: exact in int64 for integers, a
  // compensated (Neumaier) double sum for floating point, over the same stored values.
  std::int64_t exact = 0;
  double sum = 0, compensation = 0, abs_sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const T v = element<T>(i, ones);
    host(i) = v;
    if constexpr (std::is_integral_v<T>) {
      exact += v;
    } else {
      const double d = double(v), t = sum + d;
      compensation += std::fabs(sum) >= std::fabs(d) ? (sum - t) + d : (d - t) + sum;
      sum = t;
      abs_sum += std::fabs(d);
    }
  }
  Kokkos::deep_copy(data, host);
  const double reference = std::is_integral_v<T> ? double(exact) : sum + compensation;
  Kokkos::View<const T*, Mem> x = data;
  reduce::Workspace<T, Space> ws(space, n);

  std::printf("\n%s: n = %zu (%.1f MiB), reference %.17g%s\n", type_name<T>(), n, double(n) * sizeof(T) / (1 << 20),
              reference, std::is_integral_v<T> ? " (exact)" : " (compensated double)");
  std::printf("%-24s %24s %11s %11s %11s %9s  %s\n", "variant", "result", "|error|", "bound", "median ms", "GB/s",
              "check");
  bool all = true;
  for (const auto& variant : variants) {
    T value = T(0);
    const auto t = kapi_apps::time_median(space, repeats, [&] { value = reduce::sum<T>(variant, space, x, ws); });
    double error;
    bool pass;
    if constexpr (std::is_integral_v<T>) {
      pass = std::int64_t(value) == exact;
      error = std::fabs(double(std::int64_t(value) - exact));
    } else {
      error = std::fabs(double(value) - reference);
    }
    const double bound = reduce::error_bound<T>(variant, space, n, abs_sum);
    if constexpr (!std::is_integral_v<T>) pass = error <= bound;
    all = all && pass;
    const double gbs = double(n) * sizeof(T) / t.median_s * 1e-9;
    std::printf("%-24s %24.17g %11.3g %11.3g %11.4f %9.2f  %s\n", variant.c_str(), double(value), error, bound,
                t.median_s * 1e3, gbs, pass ? "PASS" : "FAIL");
    items.push_back(kapi_apps::JsonObject()
                        .add("type", type_name<T>())
                        .add("variant", variant)
                        .add("pass", pass)
                        .add("value", double(value))
                        .add("reference", reference)
                        .add("error", error)
                        .add("bound", bound)
                        .add("median_s", t.median_s)
                        .add("min_s", t.min_s)
                        .add("gb_per_s", gbs));
  }
  return all;
}

template <class Space>
int run_reduce(const Space& space, std::size_t n, const std::vector<std::string>& types, bool ones, int repeats,
               std::vector<std::string> variants) {
  if (variants.empty()) variants = reduce::variants();
  std::printf("kapi-reduce: sum of %zu elements, data %s, %s, %d repeats\n", n, ones ? "ones" : "uniform",
              kapi_apps::describe(space).c_str(), repeats);
  std::vector<kapi_apps::JsonObject> items;
  bool all = true;
  for (const auto& t : types) {
    if (t == "float") all = run_type<float>(space, n, ones, repeats, variants, items) && all;
    if (t == "double") all = run_type<double>(space, n, ones, repeats, variants, items) && all;
    if (t == "int32") all = run_type<std::int32_t>(space, n, ones, repeats, variants, items) && all;
    if (t == "int64") all = run_type<std::int64_t>(space, n, ones, repeats, variants, items) && all;
  }
  kapi_apps::print_summary(kapi_apps::JsonObject()
                               .add("app", "reduce")
                               .add("space", Space::name())
                               .add("concurrency", static_cast<long long>(space.concurrency()))
                               .add("n", n)
                               .add("data", ones ? "ones" : "uniform")
                               .add("repeats", repeats)
                               .add("results", items)
                               .add("pass", all));
  std::printf("%s\n", all ? "PASS" : "FAIL");
  return all ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string help = std::string(usage) + "Variants:\n" + reduce::variant_table.help() +
                           "Enabled spaces: " + kapi_apps::space_names() + "\n";
  return kapi_apps::run_program(argc, argv, help, [](kapi_apps::Args& args) {
    const std::size_t n = args.count("n", std::size_t(1) << 24);
    auto types = args.list("type");
    if (types.empty()) types = {"float"};
    const auto variants = args.list("variant");
    const std::string data = args.text("data", "uniform");
    if (data != "uniform" && data != "ones")
      throw kapi_apps::usage_error("--data: expected uniform or ones, got '" + data + "'");
    const int repeats = static_cast<int>(args.count("repeat", 10, 1, INT_MAX));
    const std::string space = args.text("space", "");
    for (const auto& v : variants) reduce::check_variant(v);
    std::size_t widest = 0;  // the types run one after another: the widest sets the peak
    for (const auto& t : types) {
      if (t != "float" && t != "double" && t != "int32" && t != "int64")
        throw kapi_apps::usage_error("--type: '" + t + "' is not one of float, double, int32, int64");
      widest = std::max<std::size_t>(widest, t == "float" || t == "int32" ? 4 : 8);
    }
    kapi_apps::Footprint memory;
    const std::string bytes = " of " + std::to_string(widest) + " bytes";
    memory.add("x (n elements" + bytes + ")", {{"n", n}}, widest);
    memory.add("the pairwise copy (n/2 elements" + bytes + ")", {{"n", n - n / 2}}, widest);
    memory.check();
    kapi_apps::check_space(space);
    return [=] {
      return kapi_apps::with_space(
          space, [&](const auto& s) { return run_reduce(s, n, types, data == "ones", repeats, variants); });
    };
  });
}
