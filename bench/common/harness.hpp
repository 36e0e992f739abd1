// SPDX-License-Identifier: Apache-2.0
#pragma once
// The benchmark harness shared by the bench_<app> binaries (the library
// kapi_bench_harness: harness.cpp, context.cpp).
//
// Each app registers, for every size of its sweep, its anchors first (the vendor or
// plain-code "speed of light" and the raw-Kokkos twin), then every framework variant.
// One benchmark = one operation at one size:
//   name   <app>/<type>/<variant>/<n|N>:<size>        e.g. matmul/f32/tuned/n:1024
//   label  anchor | raw-kokkos | library | kapi       (the role, read by report.py)
//   counters (per repetition, from its median run: a run the OS interrupted does not count)
//     GFLOP/s or GB/s     the rate
//     pct_of_anchor       100 * anchor time / this time, the anchor timed in this process
//     pct_of_raw_kokkos   the same against the raw-Kokkos twin
// Timing: see timing.hpp. Before its first timed run every benchmark runs once untimed
// (warm-up: page faults, host work-item contexts, cuBLAS handles) with its output
// poisoned, and checks its result; a wrong result skips the benchmark with the reason,
// it is never timed. The references' times are kept per size: the anchor and the twin
// run first and record each repetition's median run; when a filter left them out, the
// harness times them on demand.
//
// A binary's main is one line, kapi_bench::run_main(argc, argv, "<app>", register_all),
// and register_all(Harness&) adds the cases; everything a run keeps (options, cases,
// reference times, data caches) lives in that one Harness.
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "build_info.hpp"

namespace kapi_bench {

using Space = Kokkos::DefaultExecutionSpace;
using MemSpace = Space::memory_space;

enum class Suite { quick, full };
// anchor: the speed of light (vendor library or the plainest parallel code);
// raw_kokkos: the same algorithm written on Kokkos without kapi (the adapters' cost);
// library: another library's version, shown for reference (e.g. KokkosBlas::sum);
// kapi: a framework variant.
enum class Role { anchor, raw_kokkos, library, kapi };

const char* role_name(Role r);
inline bool is_reference(Role r) { return r == Role::anchor || r == Role::raw_kokkos; }

/// Units where a smaller figure is better (latencies and costs).
bool lower_is_better(const std::string& unit);

struct Options {
  Suite suite = Suite::quick;
  double max_seconds = -1;         // a run predicted to take longer is skipped (<0: suite default)
  std::vector<std::size_t> sizes;  // --kapi_sizes: replaces the sweep
  bool progress = false;           // --kapi_progress: one line per size instead of the console table
  bool list = false;               // --kapi_list: print the registered benchmarks and exit
  bool print_configuration = false;
  int repetitions = 0;  // set from the suite unless --benchmark_repetitions is given
  double min_time = 0;  // set from the suite unless --benchmark_min_time is given
  double start = 0;     // seconds since the epoch the suite started (progress lines)

  double run_limit() const { return max_seconds > 0 ? max_seconds : (suite == Suite::full ? 30.0 : 2.0); }
  bool full() const { return suite == Suite::full; }
};

/// What kind of machine the default space is, for the per-backend sweeps.
enum class Backend { serial, host_parallel, device };

/// Threads of the default host execution space: the anchors on host use as many.
inline int host_threads() { return Kokkos::DefaultHostExecutionSpace().concurrency(); }

/// Sizes of `all` within [lo, hi].
std::vector<std::size_t> between(const std::vector<std::size_t>& all, std::size_t lo, std::size_t hi);

/// One benchmark: an operation at one size, with its work and its check.
struct Case {
  std::string app, type, variant;
  Role role = Role::kapi;
  std::string size_name = "n";  // n, N
  std::size_t size = 0;
  double work = 0;   // FLOP or bytes per run
  std::string unit;  // "GFLOP/s", "GB/s", "us" (microseconds per run) or "ns/item" (per unit of work)
  benchmark::TimeUnit time_unit = benchmark::kMillisecond;
  bool wall_clock = false;  // time with the host clock on every space (launch latency)
  // Makes the operation, bound to this size's data (allocated on first use).
  std::function<std::function<void()>()> bind;
  // Optional: overwrites the output before the checked warm-up run.
  std::function<void()> poison;
  // After one run: empty if the result is right, else what is wrong.
  std::function<std::string()> verify;
  // Optional: counters of the last run beside the rate (e.g. which host engine ran it).
  std::function<std::vector<std::pair<std::string, double>>()> counters;

  std::string name() const { return app + "/" + type + "/" + variant + "/" + size_name + ":" + std::to_string(size); }
  std::string group() const { return app + "/" + type + "/" + size_name + ":" + std::to_string(size); }
  std::string series() const { return app + "/" + type + "/" + variant; }
};

/// The arrays of one app at one size, shared by all its benchmarks at that size. Only the
/// current size is kept: moving on to another size frees the previous arrays first.
template <class Data>
class DataCache {
 public:
  explicit DataCache(std::function<Data(std::size_t)> make) : make_(std::move(make)) {}
  std::shared_ptr<Data> get(std::size_t size) {
    if (!data_ || size_ != size) {
      data_.reset();
      data_ = std::make_shared<Data>(make_(size));
      size_ = size;
    }
    return data_;
  }
  void clear() { data_.reset(); }

 private:
  std::function<Data(std::size_t)> make_;
  std::shared_ptr<Data> data_;
  std::size_t size_ = 0;
};

/// One benchmark binary's run: its options, the execution space every benchmark runs on,
/// the registered cases and what they measured. run_main makes it once Kokkos is
/// initialised and hands it to the app's register_all.
class Harness {
 public:
  explicit Harness(const Options& options);
  ~Harness();
  Harness(const Harness&) = delete;
  Harness& operator=(const Harness&) = delete;

  const Options& options() const;
  /// The execution space instance every benchmark runs on.
  const Space& space() const;
  Backend backend() const;
  /// The sweep: the app's default sizes for this suite and backend, or --kapi_sizes.
  std::vector<std::size_t> sweep(const std::vector<std::size_t>& defaults) const;

  /// Registers the case as a Google Benchmark.
  void add(Case c);

  /// Runs f before Kokkos::finalize (views and library handles must be gone by then).
  void at_finalize(std::function<void()> f);

  /// A data cache that is emptied before Kokkos::finalize.
  template <class Data>
  std::shared_ptr<DataCache<Data>> make_cache(std::function<Data(std::size_t)> make) {
    auto cache = std::make_shared<DataCache<Data>>(std::move(make));
    at_finalize([cache] { cache->clear(); });
    return cache;
  }

  struct State;  // harness.cpp

 private:
  friend int run_main(int, char**, const std::string&, const std::function<void(Harness&)>&, const BuildInfo&);
  std::unique_ptr<State> state_;
};

/// The whole program of a benchmark binary: Kokkos around Google Benchmark; `register_all`
/// adds the app's cases to the harness.
int run_main(int argc, char** argv, const std::string& app, const std::function<void(Harness&)>& register_all,
             const BuildInfo& build);

/// run_main with the BuildInfo of the calling binary's compilation.
inline int run_main(int argc, char** argv, const std::string& app, const std::function<void(Harness&)>& register_all) {
  return run_main(argc, argv, app, register_all, build_info());
}

}  // namespace kapi_bench
