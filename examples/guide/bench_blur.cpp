// SPDX-License-Identifier: Apache-2.0
// guide-bench-blur: the guide's box blur (radius 4, fp32) over n elements on the default
// execution space, every kapi form against a raw-Kokkos anchor.
//   anchor  raw-kokkos-range   the blur written straight on Kokkos: parallel_for over a
//                              RangePolicy, one index per element
//   kapi    range              guide::blur_range (BoxBlurRange)
//           nd-range-l256      guide::blur_nd_range, work-groups of 256 (BoxBlurNdRange)
//           phased-l256        guide::blur_phased, work-groups of 256 (BoxBlurPhased)
// Work: 8n bytes per run (every input read once, every output written once: the least
// memory traffic a blur needs). Check: every element against the host reference, after
// a NaN fill. Options: --kapi_help (bench/common/harness.hpp: the kapi_bench_harness
// library; docs/benchmarks.md).
#include <guide/blur_flat.hpp>
#include <guide/blur_phased.hpp>
#include <guide/blur_reference.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "common/checks.hpp"
#include "common/harness.hpp"

namespace {

using namespace kapi_bench;
using Signal = Kokkos::View<float*, MemSpace>;
constexpr int blur_radius = 4;

struct Data {
  Signal in, out;
  std::vector<float> want;  // the host reference's result
};

Data make_data(std::size_t n) {
  const std::vector<float> input = guide::sample_signal(n);
  Data d{Signal("in", n), Signal("out", n), guide::box_blur_reference(input, blur_radius)};
  Kokkos::deep_copy(d.in, Kokkos::View<const float*, Kokkos::HostSpace>(input.data(), n));
  return d;
}
using Cache = std::shared_ptr<DataCache<Data>>;  // this size's data, made on first use

// [guide:bench-anchor]
/// The anchor: the same blur on Kokkos alone, one RangePolicy index per element.
struct RawKokkosBlur {
  Signal in, out;
  int radius;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    const std::size_t n = in.extent(0);
    out(i) = guide::window_mean([&](std::ptrdiff_t j) { return in(guide::clamp_index(j, n)); }, i - radius, radius);
  }
};
// [guide:end]

std::string verify(const Data& d) {
  auto got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.out);
  for (std::size_t i = 0; i < d.want.size(); ++i)
    if (!(got(i) == d.want[i])) return mismatch("out(" + std::to_string(i) + ")", d.want[i], got(i));
  return {};
}

Case base(const Space& space, const Cache& data, std::size_t n, const std::string& variant, Role role) {
  Case c;
  c.app = "blur";
  c.type = "f32";
  c.variant = variant;
  c.role = role;
  c.size = n;
  c.work = 8.0 * double(n);
  c.unit = "GB/s";
  c.time_unit = benchmark::kMicrosecond;
  c.poison = [space, data, n] {
    Kokkos::deep_copy(data->get(n)->out, std::numeric_limits<float>::quiet_NaN());
    space.fence();
  };
  c.verify = [data, n] { return verify(*data->get(n)); };
  return c;
}

/// A kapi variant: `blur` runs one form of the blur on this size's data.
Case kapi_case(const Space& space, const Cache& data, std::size_t n, const std::string& variant,
               void (*blur)(const Space&, const Data&)) {
  Case c = base(space, data, n, variant, Role::kapi);
  c.bind = [space, data, n, blur] {
    auto d = data->get(n);
    return std::function<void()>([space, d, blur] { blur(space, *d); });
  };
  return c;
}

std::vector<std::size_t> default_sizes(const Harness& h) {
  const bool full = h.options().full();
  switch (h.backend()) {
    case Backend::serial:
    case Backend::host_parallel:
      return full ? std::vector<std::size_t>{1 << 16, 1 << 20, 1 << 22, 1 << 24, 1 << 26}
                  : std::vector<std::size_t>{1 << 16, 1 << 20, 1 << 22};
    default:
      return full ? std::vector<std::size_t>{1 << 20, 1 << 24, 1 << 26, 1 << 28}
                  : std::vector<std::size_t>{1 << 20, 1 << 24, 1 << 26};
  }
}

// [guide:bench-cases]
void register_all(Harness& h) {
  benchmark::AddCustomContext("anchor",
                              "raw-kokkos-range: Kokkos::parallel_for over a RangePolicy, the blur's "
                              "body written on Kokkos alone");
  const Space space = h.space();  // every case runs on the harness's execution space
  const Cache data = h.make_cache<Data>(make_data);
  for (std::size_t n : h.sweep(default_sizes(h))) {
    Case anchor = base(space, data, n, "raw-kokkos-range", Role::anchor);
    anchor.bind = [space, data, n] {
      auto d = data->get(n);
      return std::function<void()>([space, d] {
        Kokkos::parallel_for("guide::raw_kokkos_blur",
                             Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(space, 0, d->in.size()),
                             RawKokkosBlur{d->in, d->out, blur_radius});
      });
    };
    h.add(anchor);  // the anchor first: every later case at this size is timed against it
    h.add(kapi_case(space, data, n, "range",
                    [](const Space& s, const Data& d) { guide::blur_range(s, d.in, d.out, blur_radius); }));
    h.add(kapi_case(space, data, n, "nd-range-l256",
                    [](const Space& s, const Data& d) { guide::blur_nd_range(s, d.in, d.out, blur_radius, 256); }));
    h.add(kapi_case(space, data, n, "phased-l256",
                    [](const Space& s, const Data& d) { guide::blur_phased(s, d.in, d.out, blur_radius, 256); }));
  }
}
// [guide:end]

}  // namespace

int main(int argc, char** argv) { return kapi_bench::run_main(argc, argv, "blur", register_all); }
