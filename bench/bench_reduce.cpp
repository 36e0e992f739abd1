// SPDX-License-Identifier: Apache-2.0
// bench_reduce: s = x[0] + … + x[n-1], fp32, on the default execution space.
//   anchor      host: openmp-simd   '#pragma omp parallel for simd reduction(+:s)' with as
//                                   many threads as the Kokkos space (OpenMP builds);
//                                   chunked-simd on Serial and Threads: the same SIMD loop,
//                                   one contiguous chunk per thread of Kokkos' own pool
//               CUDA: cub-device-reduce  cub::DeviceReduce::Sum on the space's stream, temp
//                                   storage allocated once, the sum copied back to the host
//   raw-kokkos  kokkos-parallel-reduce  Kokkos::parallel_reduce(RangePolicy, functor, host
//                                   scalar): written here, it stands for the app's variant of
//                                   that name (kind raw_kokkos), which is not run a second time
//   library     kokkos-blas-sum     KokkosBlas::sum (the app's variant of kind library), for reference
//   kapi        the framework variants of reduce::variant_table
// Every operation returns the sum on the host, as reduce::sum does. On CUDA the anchor
// and the kapi group variants (kapi::reduce) do the same work around their kernels: a
// 4-byte cudaMemcpyAsync into pinned host memory on the space's stream, then one stream
// synchronisation. Work: n·4 bytes read per run. Check: exact. x[i] is 0.5, -0.25, -0.25 by i mod 3, plus 1 where i mod 1024
// is 5: all partial sums are small multiples of 1/4, exact in fp32 in any order.
#include <limits>
#include <vector>

#include <reduce/reduce.hpp>

#include "common/app_variants.hpp"
#include "common/checks.hpp"
#include "common/harness.hpp"
#include "common/host_loops.hpp"
#include "common/timing.hpp"

#if defined(KOKKOS_ENABLE_CUDA)
#include <cub/device/device_reduce.cuh>
#endif

namespace {

using namespace kapi_bench;
using T = float;
using Vector = Kokkos::View<T*, MemSpace>;
using ConstVector = Kokkos::View<const T*, MemSpace>;
using Workspace = reduce::Workspace<T, Space>;

KOKKOS_INLINE_FUNCTION T x_value(std::int64_t i) {
  const int r = static_cast<int>(i % 3);
  return (r == 0 ? T(0.5) : T(-0.25)) + (i % 1024 == 5 ? T(1) : T(0));
}

double expected_sum(std::size_t n) {
  const double cycle[3] = {0.0, 0.5, 0.25};
  const double markers = n > 5 ? double((n - 6) / 1024 + 1) : 0.0;
  return cycle[n % 3] + markers;
}

struct Fill {
  Vector x;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { x(i) = x_value(i); }
};

struct Data {
  std::size_t n = 0;
  Vector x;
  Workspace ws;
  T result = std::numeric_limits<T>::quiet_NaN();  // the last operation's sum, on the host
#if defined(KOKKOS_ENABLE_CUDA)
  Kokkos::View<T, MemSpace> device_sum;
  Kokkos::View<char*, MemSpace> cub_temp;
  T* pinned = nullptr;
  Data() = default;
  Data(Data&& o) noexcept
      : n(o.n),
        x(o.x),
        ws(std::move(o.ws)),
        result(o.result),
        device_sum(o.device_sum),
        cub_temp(o.cub_temp),
        pinned(o.pinned) {
    o.pinned = nullptr;
  }
  ~Data() {
    if (pinned) cudaFreeHost(pinned);
  }
#endif
};

Data make_data(const Space& space, std::size_t n) {
  Data d;
  d.n = n;
  d.x = Vector(Kokkos::view_alloc(std::string("x"), Kokkos::WithoutInitializing), n);
  Kokkos::parallel_for("bench_reduce::fill", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(space, 0, n),
                       Fill{d.x});
  d.ws = Workspace(space, n);
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (is_cuda_space<Space>) {
    d.device_sum = Kokkos::View<T, MemSpace>("sum");
    std::size_t bytes = 0;
    cuda_check(cub::DeviceReduce::Sum(nullptr, bytes, d.x.data(), d.device_sum.data(), static_cast<int>(n),
                                      space.cuda_stream()),
               "cub::DeviceReduce::Sum (size query)");
    d.cub_temp =
        Kokkos::View<char*, MemSpace>(Kokkos::view_alloc(std::string("cub_temp"), Kokkos::WithoutInitializing), bytes);
    cuda_check(cudaMallocHost(reinterpret_cast<void**>(&d.pinned), sizeof(T)), "cudaMallocHost");
  }
#endif
  space.fence();
  return d;
}

using Cache = std::shared_ptr<DataCache<Data>>;

/// The host anchor: the plainest parallel SIMD reduction (see HostLoop in the harness).
T plain_sum(const Vector& x) {
  const T* p = x.data();
  const auto n = static_cast<std::int64_t>(x.extent(0));
  const int threads = host_threads();
  T s = 0;
  if constexpr (host_loop == HostLoop::openmp) {
#if defined(_OPENMP)
#pragma omp parallel for simd reduction(+ : s) schedule(static) num_threads(threads)
    for (std::int64_t i = 0; i < n; ++i) s += p[i];
#endif
  } else {
    std::vector<T> partial(static_cast<std::size_t>(threads));
    T* out = partial.data();
    run_host_chunks(threads, [p, n, threads, out](int t) {
      const auto range = chunk(n, threads, t);
      const T* const q = p + range.first;  // a local base pointer: GCC emits plain vector loads
      const std::int64_t len = range.second - range.first;
      T part = 0;
      KAPI_BENCH_PRAGMA(omp simd reduction(+ : part))
      for (std::int64_t i = 0; i < len; ++i) part += q[i];
      out[t] = part;
    });
    for (T part : partial) s += part;
  }
  return s;
}

const char* host_anchor_name() { return host_loop == HostLoop::openmp ? "openmp-simd" : "chunked-simd"; }

struct RawSum {
  Vector x;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, T& s) const { s += x(i); }
};

Case base(const Cache& data, std::size_t n, const std::string& variant, Role role) {
  Case c;
  c.app = "reduce";
  c.type = "f32";
  c.variant = variant;
  c.role = role;
  c.size_name = "n";
  c.size = n;
  c.work = double(sizeof(T)) * double(n);
  c.unit = "GB/s";
  c.time_unit = benchmark::kMicrosecond;
  c.poison = [data, n] { data->get(n)->result = std::numeric_limits<T>::quiet_NaN(); };
  c.verify = [data, n]() -> std::string {
    const double want = expected_sum(n), got = data->get(n)->result;
    if (std::fabs(got - want) <= 0.1) return {};
    return mismatch("sum", want, got);
  };
  return c;
}

std::vector<std::size_t> default_sizes(const Harness& h) {
  const bool full = h.options().full();
  std::vector<std::size_t> s;
  const int first = h.backend() == Backend::device && !full ? 16 : 10;
  const int last = h.backend() == Backend::device || full ? 28 : 26;
  for (int e = first; e <= last; e += full ? 1 : 2) s.push_back(std::size_t(1) << e);
  return s;
}

void register_all(Harness& h) {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (is_cuda_space<Space>) {
    benchmark::AddCustomContext("anchor",
                                "cub::DeviceReduce::Sum on the space's stream + 4-byte copy to pinned host memory");
  } else
#endif
  {
    const std::string threads = std::to_string(host_threads()) + " threads";
    benchmark::AddCustomContext(
        "anchor", host_loop == HostLoop::openmp
                      ? "plain OpenMP 'parallel for simd reduction(+:s) schedule(static)', " + threads
                      : "plain 'omp simd reduction(+:s)' loop over one contiguous chunk per Kokkos thread (" + threads +
                            " of the Kokkos space's own pool), partial sums added on the host");
  }
  benchmark::AddCustomContext("raw_kokkos", "Kokkos::parallel_reduce(RangePolicy<Space>(0, n), functor, host scalar)");
  const Space space = h.space();
  const Cache data = h.make_cache<Data>([space](std::size_t n) { return make_data(space, n); });
  for (std::size_t n : h.sweep(default_sizes(h))) {
    const bool cuda = is_cuda_space<Space>;
    Case anchor = base(data, n, cuda ? "cub-device-reduce" : host_anchor_name(), Role::anchor);
    anchor.bind = [space, data, n] {
      (void)space;  // the CUDA anchor's stream
      auto d = data->get(n);
#if defined(KOKKOS_ENABLE_CUDA)
      if constexpr (is_cuda_space<Space>) {
        return std::function<void()>([space, d] {
          std::size_t bytes = d->cub_temp.extent(0);
          auto stream = space.cuda_stream();
          cuda_check(cub::DeviceReduce::Sum(d->cub_temp.data(), bytes, d->x.data(), d->device_sum.data(),
                                            static_cast<int>(d->n), stream),
                     "cub::DeviceReduce::Sum");
          cuda_check(cudaMemcpyAsync(d->pinned, d->device_sum.data(), sizeof(T), cudaMemcpyDeviceToHost, stream),
                     "cudaMemcpyAsync");
          cuda_check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
          d->result = *d->pinned;
        });
      }
#endif
      return std::function<void()>([d] { d->result = plain_sum(d->x); });
    };
    h.add(anchor);

    // The app's raw-Kokkos variant (Kokkos::parallel_reduce) is timed by the twin, under its name.
    Case raw = base(data, n, reduce::variant_table.name_of(kapi_apps::Kind::raw_kokkos), Role::raw_kokkos);
    raw.bind = [space, data, n] {
      auto d = data->get(n);
      return std::function<void()>([space, d] {
        T s = 0;
        Kokkos::parallel_reduce("bench_reduce::raw",
                                Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(space, 0, d->n),
                                RawSum{d->x}, s);
        d->result = s;
      });
    };
    h.add(raw);

    for_each_measured_variant(reduce::variant_table, [&](const auto& v, Role role) {
      Case c = base(data, n, std::string(v.name), role);
      c.bind = [space, data, n, run = v.run] {
        auto d = data->get(n);
        const ConstVector x = d->x;
        return std::function<void()>([space, d, x, run] { d->result = run.template sum<T>(space, x, d->ws); });
      };
      h.add(c);
    });
  }
}

}  // namespace

int main(int argc, char** argv) { return kapi_bench::run_main(argc, argv, "reduce", register_all); }
