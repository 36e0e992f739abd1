// SPDX-License-Identifier: Apache-2.0
// bench_init3d: a(i, j, k) = c·i·j·k over an N×N×N fp64 LayoutRight array, on the
// default execution space, under every loop-nest policy of init3d::policy_table.
//   anchor      host: openmp-fill   a plain OpenMP parallel for (static schedule, simd)
//                                   writing c over the contiguous array, with as many
//                                   threads as the Kokkos space (OpenMP builds);
//                                   chunked-fill on Serial and Threads: the same loop, one
//                                   contiguous chunk per thread of Kokkos' own pool
//               CUDA: cuda-memset   cudaMemsetAsync of the same bytes on the space's
//                                   stream (writes zeros: the same write traffic, the
//                                   ceiling a fill kernel is measured against)
//   raw-kokkos  raw-mdrange         Kokkos::MDRangePolicy<Rank<3, Right, Right>> with
//                                   Kokkos' default tiles around init3d's own loop body
//   kapi        every policy of init3d::policy_table
// Work: N³·8 bytes written per run (GB/s counts the stores only). Check: every entry,
// on the device, after a NaN fill.
#include <init3d/init3d.hpp>
#include <limits>
#include <vector>

#include "common/app_variants.hpp"
#include "common/checks.hpp"
#include "common/harness.hpp"
#include "common/host_loops.hpp"
#include "common/timing.hpp"

namespace {

using namespace kapi_bench;
using Array = init3d::Array<MemSpace>;
constexpr double c_value = 1e-4;

struct Data {
  Array a;
};

Data make_data(std::size_t n) { return Data{Array(std::string("a"), n, n, n)}; }
using Cache = std::shared_ptr<DataCache<Data>>;

using Policy3 = Kokkos::MDRangePolicy<Space, Kokkos::Rank<3, Kokkos::Iterate::Right, Kokkos::Iterate::Right>,
                                      Kokkos::IndexType<std::int64_t>>;

Policy3 whole(const Space& space, const Array& a) {
  return Policy3(space, {0, 0, 0}, {std::int64_t(a.extent(0)), std::int64_t(a.extent(1)), std::int64_t(a.extent(2))});
}

/// Counts the entries that differ from what the fill should have written.
struct CountWrong {
  Array a;
  double c;
  bool constant;  // the anchors write c (host) or 0 (CUDA memset) everywhere
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t j, std::int64_t k, std::int64_t& wrong) const {
    const double want = constant ? c : c * double(i) * double(j) * double(k);
    if (!(a(i, j, k) == want)) ++wrong;
  }
};

std::string verify(const Space& space, const Data& d, bool constant, double c) {
  std::int64_t wrong = 0;
  Kokkos::parallel_reduce("bench_init3d::check", whole(space, d.a), CountWrong{d.a, c, constant}, wrong);
  if (wrong == 0) return {};
  return std::to_string(wrong) + " of " + std::to_string(d.a.size()) + " entries differ from " +
         (constant ? "the fill value" : "c*i*j*k");
}

void poison(const Space& space, const Data& d) {
  Kokkos::deep_copy(d.a, std::numeric_limits<double>::quiet_NaN());
  space.fence();
}

/// The host anchor: the plainest parallel fill of the same bytes (see HostLoop in the harness).
void plain_fill(const Array& a, double c) {
  double* p = a.data();
  const auto count = static_cast<std::int64_t>(a.size());
  const int threads = host_threads();
  if constexpr (host_loop == HostLoop::openmp) {
#if defined(_OPENMP)
#pragma omp parallel for simd schedule(static) num_threads(threads)
    for (std::int64_t x = 0; x < count; ++x) p[x] = c;
#endif
  } else {
    run_host_chunks(threads, [p, count, threads, c](int t) {
      const auto range = chunk(count, threads, t);
      double* const q = p + range.first;  // a local base pointer: GCC emits plain vector stores
      const std::int64_t len = range.second - range.first;
      KAPI_BENCH_PRAGMA(omp simd)
      for (std::int64_t x = 0; x < len; ++x) q[x] = c;
    });
  }
}

bool anchor_is_memset() { return is_cuda_space<Space>; }

Case base(const Space& space, const Cache& data, std::size_t n, const std::string& variant, Role role) {
  Case c;
  c.app = "init3d";
  c.type = "f64";
  c.variant = variant;
  c.role = role;
  c.size_name = "N";
  c.size = n;
  c.work = 8.0 * double(n) * double(n) * double(n);
  c.unit = "GB/s";
  c.time_unit = benchmark::kMillisecond;
  c.poison = [space, data, n] { poison(space, *data->get(n)); };
  c.verify = [space, data, n] { return verify(space, *data->get(n), false, c_value); };
  return c;
}

std::vector<std::size_t> default_sizes(const Harness& h) {
  const std::vector<std::size_t> all = {50, 100, 200, 300, 400, 500, 600, 800, 1000};
  const bool full = h.options().full();
  switch (h.backend()) {
    case Backend::serial:
      return between(all, 50, full ? 600 : 300);
    case Backend::host_parallel:
      return between(all, 50, full ? 1000 : 400);
    default:
      return full ? all : std::vector<std::size_t>{100, 200, 400, 600, 800, 1000};
  }
}

void register_all(Harness& h) {
  const std::string threads = std::to_string(host_threads()) + " threads";
  benchmark::AddCustomContext(
      "anchor", anchor_is_memset() ? "cudaMemsetAsync of the array's bytes on the space's stream"
                : host_loop == HostLoop::openmp
                    ? "plain OpenMP 'parallel for simd schedule(static)' fill of the contiguous array, " + threads
                    : "plain 'omp simd' fill loop over one contiguous chunk of the array per Kokkos thread (" +
                          threads + " of the Kokkos space's own pool)");
  benchmark::AddCustomContext("raw_kokkos",
                              "Kokkos::MDRangePolicy<Rank<3, Right, Right>>, default tiles, init3d's body");
  const Space space = h.space();
  const Cache data = h.make_cache<Data>(make_data);
  for (std::size_t n : h.sweep(default_sizes(h))) {
    const char* anchor_name = anchor_is_memset()              ? "cuda-memset"
                              : host_loop == HostLoop::openmp ? "openmp-fill"
                                                              : "chunked-fill";
    Case anchor = base(space, data, n, anchor_name, Role::anchor);
    anchor.verify = [space, data, n] { return verify(space, *data->get(n), true, anchor_is_memset() ? 0.0 : c_value); };
    anchor.bind = [space, data, n] {
      (void)space;  // the CUDA anchor's stream
      auto d = data->get(n);
#if defined(KOKKOS_ENABLE_CUDA)
      if constexpr (is_cuda_space<Space>) {
        return std::function<void()>([space, d] {
          cuda_check(cudaMemsetAsync(d->a.data(), 0, d->a.size() * sizeof(double), space.cuda_stream()),
                     "cudaMemsetAsync");
        });
      }
#endif
      return std::function<void()>([d] { plain_fill(d->a, c_value); });
    };
    h.add(anchor);

    Case raw = base(space, data, n, "raw-mdrange", Role::raw_kokkos);
    raw.bind = [space, data, n] {
      auto d = data->get(n);
      return std::function<void()>([space, d] {
        Kokkos::parallel_for("bench_init3d::raw_mdrange", whole(space, d->a), init3d::InitBody<Array>{d->a, c_value});
      });
    };
    h.add(raw);

    for_each_measured_variant(init3d::policy_table, [&](const auto& p, Role role) {
      Case c = base(space, data, n, std::string(p.name), role);
      c.bind = [space, data, n, policy = p.run] {
        auto d = data->get(n);
        return std::function<void()>([space, d, policy] { init3d::run(space, policy, d->a, c_value); });
      };
      h.add(c);
    });
  }
}

}  // namespace

int main(int argc, char** argv) { return kapi_bench::run_main(argc, argv, "init3d", register_all); }
