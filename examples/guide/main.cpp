// SPDX-License-Identifier: Apache-2.0
// guide-blur: the worked example of docs/guide.md. Runs every form of the box blur on
// the default execution space, checks each against the host reference, and shows what a
// rejected launch looks like. Exit status 0 only when every check passed.
//
//   guide-blur [n [radius [local]]]      defaults: 100000 5 256
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <guide/blur_flat.hpp>
#include <guide/blur_phased.hpp>
#include <guide/blur_reference.hpp>
#include <guide/blur_rows.hpp>

namespace {

using Space = Kokkos::DefaultExecutionSpace;
using Signal = Kokkos::View<float*, Space::memory_space>;

template <class View>
std::vector<float> to_vector(const View& v) {
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  return std::vector<float>(host.data(), host.data() + host.size());
}

/// Prints one line per form: PASS, or FAIL with the first wrong element.
class Checks {
 public:
  void compare(const std::string& form, const std::vector<float>& got, const std::vector<float>& want) {
    std::size_t wrong = 0, first = 0;
    for (std::size_t i = 0; i < want.size(); ++i)
      if (got[i] != want[i] && wrong++ == 0) first = i;
    if (wrong) {
      ++failures_;
      std::printf("  %-40s FAIL: %zu of %zu elements differ (first at %zu: %g, expected %g)\n", form.c_str(), wrong,
                  want.size(), first, double(got[first]), double(want[first]));
    } else {
      std::printf("  %-40s PASS\n", form.c_str());
    }
  }
  void fail(const std::string& form, const std::string& why) {
    ++failures_;
    std::printf("  %-40s FAIL: %s\n", form.c_str(), why.c_str());
  }
  int failures() const { return failures_; }

 private:
  int failures_ = 0;
};

void blur_signal(std::size_t n, int radius, std::size_t local, Checks& checks) {
  const std::vector<float> input = guide::sample_signal(n);
  const std::vector<float> want = guide::box_blur_reference(input, radius);
  Signal in("in", n), out("out", n);
  Kokkos::deep_copy(in, Kokkos::View<const float*, Kokkos::HostSpace>(input.data(), n));
  const Space space;
  const std::string groups = " (work-groups of " + std::to_string(local) + ")";

  Kokkos::deep_copy(out, -1.0f);  // an element a form skips keeps this and fails the check
  guide::blur_range(space, in, out, radius);
  checks.compare("range kernel", to_vector(out), want);

  Kokkos::deep_copy(out, -1.0f);
  const float change = guide::blur_range_max_change(space, in, out, radius);
  checks.compare("range kernel with a reduction variable", to_vector(out), want);
  float want_change = 0;
  for (std::size_t i = 0; i < n; ++i) want_change = std::max(want_change, std::fabs(want[i] - input[i]));
  checks.compare("  its largest change, max |out - in|", {change}, {want_change});

  Kokkos::deep_copy(out, -1.0f);
  guide::blur_nd_range(space, in, out, radius, local);
  checks.compare("nd-range kernel" + groups, to_vector(out), want);

  Kokkos::deep_copy(out, -1.0f);
  guide::blur_phased(space, in, out, radius, local);
  checks.compare("phased kernel" + groups, to_vector(out), want);

  // [guide:launch-error]
  // 1000 work-items do not split into work-groups of 256: call_kernel rejects the launch
  // before anything runs (blur_nd_range pads the global range up to 1024; this does not).
  try {
    kapi::LocalAccessor<float, 1> tile(256 + 2 * std::size_t(radius));
    kapi::call_kernel(space, guide::BoxBlurNdRange{}, kapi::NdRange<1>({1000}, {256}), in, out, tile, radius);
    checks.fail("unpadded nd-range", "the launch was accepted");
  } catch (const kapi::launch_error& e) {
    std::printf("  %-40s rejected as it should be:\n    %s\n", "unpadded nd-range", e.what());
  }
  // [guide:end]
}

/// Every row of an ni x nj x nk volume, under some built-in loop-nest policies and ours.
void blur_volume(std::size_t ni, std::size_t nj, std::size_t nk, int radius, Checks& checks) {
  using Volume = guide::Volume<Space::memory_space>;
  Volume in("in", ni, nj, nk), out("out", ni, nj, nk);
  auto host_in = Kokkos::create_mirror_view(in);
  std::vector<float> want;  // the reference, row after row
  for (std::size_t i = 0; i < ni; ++i)
    for (std::size_t j = 0; j < nj; ++j) {
      std::vector<float> row(nk);
      for (std::size_t k = 0; k < nk; ++k) row[k] = host_in(i, j, k) = guide::sample_value((i * nj + j) * 13 + k);
      const std::vector<float> blurred = guide::box_blur_reference(row, radius);
      want.insert(want.end(), blurred.begin(), blurred.end());
    }
  Kokkos::deep_copy(in, host_in);
  const Space space;
  const std::string shape = " " + std::to_string(ni) + "x" + std::to_string(nj) + "x" + std::to_string(nk);
  // [guide:rows-policies]
  for (const std::string policy : {"collapsed", "tiles-32x8x1", "hierarchical"}) {
    Kokkos::deep_copy(out, -1.0f);
    guide::blur_rows(space, policy, in, out, radius);
    checks.compare("rows, " + policy + shape, to_vector(out), want);
  }
  Kokkos::deep_copy(out, -1.0f);
  guide::blur_rows(space, guide::TeamPerRow{}, in, out, radius);
  checks.compare("rows, " + guide::TeamPerRow{}.name() + shape, to_vector(out), want);
  // [guide:end]
}

std::size_t argument(int argc, char** argv, int index, std::size_t fallback) {
  if (index >= argc) return fallback;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(argv[index], &end, 10);
  if (*argv[index] == '\0' || *end != '\0' || argv[index][0] == '-') {
    std::fprintf(stderr, "usage: guide-blur [n [radius [local]]] (whole numbers; got '%s')\n", argv[index]);
    std::exit(2);
  }
  return std::size_t(v);
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);  // takes the --kokkos-* arguments away
  const std::size_t n = argument(argc, argv, 1, 100000), local = argument(argc, argv, 3, 256);
  const int radius = int(argument(argc, argv, 2, 5));
  std::printf("guide-blur on %s: n = %zu, radius = %d\n", Space::name(), n, radius);
  Checks checks;
  try {
    blur_signal(n, radius, local, checks);
    blur_volume(6, 7, 300, radius, checks);
  } catch (const std::exception& e) {
    checks.fail("launch", e.what());
  }
  std::printf("%s\n", checks.failures() ? "FAIL" : "PASS: every form matches the host reference");
  return checks.failures() ? 1 : 0;
}
