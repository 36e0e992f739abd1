// guide-bench-blur: the guide's box blur (radius 4, fp32) over n elements on the default
// execution space, every kapi form against a raw-Kokkos anchor.
//   anchor  raw-kokkos-range   the blur written straight on Kokkos: parallel_for over a
//                              RangePolicy, one index per element
//   kapi    range              guide::blur_range (BoxBlurRange)
//           nd-range-l256      guide::blur_nd_range, work-groups of 256 (BoxBlurNdRange)
//           phased-l256        guide::blur_phased, work-groups of 256 (BoxBlurPhased)
// Work: 8n bytes per run (every input read once, every output written once: the least
// memory traffic a blur needs). Check: every element against the host reference, after
// a NaN fill. Options: --kapi_help (bench/common/harness.hpp, docs/benchmarks.md).
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
std::shared_ptr<Data> data(std::size_t n) { return data_cache<Data>().get(n, make_data); }

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

std::string verify(std::size_t n) {
  auto d = data(n);
  auto got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d->out);
  for (std::size_t i = 0; i < n; ++i)
    if (!(got(i) == d->want[i])) return mismatch("out(" + std::to_string(i) + ")", d->want[i], got(i));
  return {};
}

Case base(std::size_t n, const std::string& variant, Role role) {
  Case c;
  c.app = "blur";
  c.type = "f32";
  c.variant = variant;
  c.role = role;
  c.size = n;
  c.work = 8.0 * double(n);
  c.unit = "GB/s";
  c.time_unit = benchmark::kMicrosecond;
  c.poison = [n] {
    Kokkos::deep_copy(data(n)->out, std::numeric_limits<float>::quiet_NaN());
    space().fence();
  };
  c.verify = [n] { return verify(n); };
  return c;
}

/// A kapi variant: `blur` runs one form of the blur on this size's data.
Case kapi_case(std::size_t n, const std::string& variant, void (*blur)(const Data&)) {
  Case c = base(n, variant, Role::kapi);
  c.bind = [n, blur] {
    auto d = data(n);
    return std::function<void()>([d, blur] { blur(*d); });
  };
  return c;
}

std::vector<std::size_t> default_sizes() {
  const bool full = options().full();
  switch (backend()) {
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
void register_all() {
  benchmark::AddCustomContext("anchor", "raw-kokkos-range: Kokkos::parallel_for over a RangePolicy, the blur's "
                                        "body written on Kokkos alone");
  for (std::size_t n : sweep(default_sizes())) {
    Case anchor = base(n, "raw-kokkos-range", Role::anchor);
    anchor.bind = [n] {
      auto d = data(n);
      return std::function<void()>([d] {
        Kokkos::parallel_for("guide::raw_kokkos_blur",
                             Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(space(), 0, d->in.size()),
                             RawKokkosBlur{d->in, d->out, blur_radius});
      });
    };
    add(anchor);  // the anchor first: every later case at this size is timed against it
    add(kapi_case(n, "range", [](const Data& d) { guide::blur_range(space(), d.in, d.out, blur_radius); }));
    add(kapi_case(n, "nd-range-l256",
                  [](const Data& d) { guide::blur_nd_range(space(), d.in, d.out, blur_radius, 256); }));
    add(kapi_case(n, "phased-l256", [](const Data& d) { guide::blur_phased(space(), d.in, d.out, blur_radius, 256); }));
  }
}
// [guide:end]

}  // namespace

int main(int argc, char** argv) { return kapi_bench::run_main(argc, argv, "blur", register_all); }
