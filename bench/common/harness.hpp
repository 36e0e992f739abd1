#pragma once
// The benchmark harness shared by bench_matmul, bench_reduce and bench_init3d.
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
// it is never timed. The references' times are cached per size: the anchor and the twin
// run first and record each repetition's median run; when a filter left them out, the
// harness times them on demand.
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "context.hpp"
#include "timing.hpp"

namespace kapi_bench {

using Space = Kokkos::DefaultExecutionSpace;
using MemSpace = Space::memory_space;

enum class Suite { quick, full };
// anchor: the speed of light (vendor library or the plainest parallel code);
// raw_kokkos: the same algorithm written on Kokkos without kapi (the adapters' cost);
// library: another library's version, shown for reference (e.g. KokkosBlas::sum);
// kapi: a framework variant.
enum class Role { anchor, raw_kokkos, library, kapi };

inline const char* role_name(Role r) {
  switch (r) {
    case Role::anchor: return "anchor";
    case Role::raw_kokkos: return "raw-kokkos";
    case Role::library: return "library";
    default: return "kapi";
  }
}
inline bool is_reference(Role r) { return r == Role::anchor || r == Role::raw_kokkos; }

// ----------------------------------------------------------------------------- options

struct Options {
  Suite suite = Suite::quick;
  double max_seconds = -1;  // a run predicted to take longer is skipped (<0: suite default)
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

inline Options& options() {
  static Options o;
  return o;
}

inline double now_epoch() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

/// The execution space instance every benchmark runs on.
inline const Space& space() {
  static const Space s{};
  return s;
}

/// Threads of the default host execution space: the anchors on host use as many.
inline int host_threads() { return Kokkos::DefaultHostExecutionSpace().concurrency(); }

/// How the host anchors run their plain loops. On Kokkos' OpenMP backend: an OpenMP
/// parallel loop with as many threads as the space. On the other host backends (Serial,
/// Threads): the same SIMD loop cut into one contiguous chunk per Kokkos thread, run by
/// Kokkos' own pool, since a second pool of OpenMP threads next to Kokkos' waiting
/// workers would measure their contention, not the machine (those builds compile the
/// SIMD loops with -fopenmp-simd and do not link the OpenMP runtime at all: its start-up
/// binding, OMP_PROC_BIND, would pin Kokkos' threads too).
enum class HostLoop { openmp, chunked };
inline constexpr HostLoop host_loop =
#if defined(_OPENMP) && defined(KOKKOS_ENABLE_OPENMP)
    std::is_same_v<Kokkos::DefaultHostExecutionSpace, Kokkos::OpenMP> ? HostLoop::openmp :
#endif
                                                                      HostLoop::chunked;

// An OpenMP SIMD directive, where the compiler was given OpenMP or OpenMP-SIMD (else none).
#if defined(_OPENMP) || defined(KAPI_BENCH_OPENMP_SIMD)
#define KAPI_BENCH_PRAGMA(directive) _Pragma(#directive)
#else
#define KAPI_BENCH_PRAGMA(directive)
#endif

/// Runs body(t) for every chunk t < chunks on the default host execution space's threads.
template <class Body>
void run_host_chunks(int chunks, const Body& body) {
  Kokkos::parallel_for("bench::host_chunks", Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, chunks), body);
  Kokkos::DefaultHostExecutionSpace().fence();
}

/// [begin, end) of chunk t of n elements cut into `chunks` contiguous pieces.
inline std::pair<std::int64_t, std::int64_t> chunk(std::int64_t n, int chunks, int t) {
  return {n * t / chunks, n * (t + 1) / chunks};
}

/// The sweep: the app's default sizes for this suite and backend, or --kapi_sizes.
inline std::vector<std::size_t> sweep(const std::vector<std::size_t>& defaults) {
  return options().sizes.empty() ? defaults : options().sizes;
}

/// Sizes of `all` within [lo, hi].
inline std::vector<std::size_t> between(const std::vector<std::size_t>& all, std::size_t lo, std::size_t hi) {
  std::vector<std::size_t> out;
  for (auto s : all)
    if (s >= lo && s <= hi) out.push_back(s);
  return out;
}

/// What kind of machine the default space is, for the per-backend sweeps.
enum class Backend { serial, host_parallel, device };
inline Backend backend() {
  if constexpr (!is_host_space<Space>) return Backend::device;
#if defined(KOKKOS_ENABLE_SERIAL)
  if constexpr (std::is_same_v<Space, Kokkos::Serial>) return Backend::serial;
#endif
  return space().concurrency() > 1 ? Backend::host_parallel : Backend::serial;
}

// ----------------------------------------------------------------------------- data per size

/// The arrays of one app at one size, shared by all its benchmarks at that size. Only the
/// current size is kept: moving on to another size frees the previous arrays first.
template <class Data>
class DataCache {
 public:
  template <class Make>
  std::shared_ptr<Data> get(std::size_t size, Make&& make) {
    if (!data_ || size_ != size) {
      data_.reset();
      data_ = std::make_shared<Data>(make(size));
      size_ = size;
    }
    return data_;
  }
  void clear() { data_.reset(); }

 private:
  std::shared_ptr<Data> data_;
  std::size_t size_ = 0;
};

/// Callbacks run before Kokkos::finalize (views must be gone by then).
inline std::vector<std::function<void()>>& at_finalize() {
  static std::vector<std::function<void()>> f;
  return f;
}

/// A cache registered to be cleared before Kokkos::finalize.
template <class Data>
DataCache<Data>& data_cache() {
  static DataCache<Data>* cache = [] {
    auto* c = new DataCache<Data>();
    at_finalize().push_back([c] { c->clear(); });
    return c;
  }();
  return *cache;
}

// ----------------------------------------------------------------------------- cases

/// One benchmark: an operation at one size, with its work and its check.
/// Units where a smaller figure is better (latencies and costs).
inline bool lower_is_better(const std::string& unit) { return unit == "us" || unit == "ns/item"; }

struct Case {
  std::string app, type, variant;
  Role role = Role::kapi;
  std::string size_name = "n";  // n, N
  std::size_t size = 0;
  double work = 0;           // FLOP or bytes per run
  std::string unit;          // "GFLOP/s", "GB/s", "us" (microseconds per run) or "ns/item" (per unit of work)
  benchmark::TimeUnit time_unit = benchmark::kMillisecond;
  bool wall_clock = false;   // time with the host clock on every space (launch latency)
  // Makes the operation, bound to this size's data (allocated on first use).
  std::function<std::function<void()>()> bind;
  // Optional: overwrites the output before the checked warm-up run.
  std::function<void()> poison;
  // After one run: empty if the result is right, else what is wrong.
  std::function<std::string()> verify;

  std::string name() const {
    return app + "/" + type + "/" + variant + "/" + size_name + ":" + std::to_string(size);
  }
  std::string group() const { return app + "/" + type + "/" + size_name + ":" + std::to_string(size); }
  std::string series() const { return app + "/" + type + "/" + variant; }
};

struct CaseState {
  bool warmed = false;
  std::string error;  // once set, every later call of the benchmark is skipped with it
};

inline std::map<std::string, CaseState>& case_states() {
  static std::map<std::string, CaseState> s;
  return s;
}

/// Registered anchor and raw-Kokkos cases by group + role.
inline std::map<std::string, std::shared_ptr<const Case>>& reference_cases() {
  static std::map<std::string, std::shared_ptr<const Case>> r;
  return r;
}
inline std::string reference_key(const std::string& group, Role role) { return group + "#" + role_name(role); }

/// One batch of timed runs of a reference (a Google Benchmark call, or an on-demand batch).
struct Batch {
  double seconds = 0;         // the batch's total time
  std::vector<double> runs;   // its run times (every k-th when there were very many)
};

/// The references' timed batches, by reference_key.
inline std::map<std::string, std::vector<Batch>>& reference_samples() {
  static std::map<std::string, std::vector<Batch>> r;
  return r;
}

/// A batch of run times, thinned to at most 4096 kept runs.
inline Batch make_batch(double seconds, const std::vector<double>& times) {
  Batch b;
  b.seconds = seconds;
  const std::size_t stride = times.size() / 4096 + 1;
  for (std::size_t i = 0; i < times.size(); i += stride) b.runs.push_back(times[i]);
  return b;
}

/// Last measured rate (work per second) and size per series: predicts the next size.
inline std::map<std::string, std::pair<double, std::size_t>>& last_rates() {
  static std::map<std::string, std::pair<double, std::size_t>> r;
  return r;
}

inline double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

/// Times runs of a case: the space's own timer (timing.hpp), or the host wall clock around
/// the call and a fence when the case asks for it (what a caller waits, e.g. launches).
class CaseTimer {
 public:
  explicit CaseTimer(bool wall_clock) : wall_clock_(wall_clock) {}
  template <class Op>
  double operator()(Op&& op) {
    if (wall_clock_) return wall_(space(), op);
    return own_(space(), op);
  }

 private:
  bool wall_clock_;
  RunTimer<Space> own_;
  WallTimer<Space> wall_;
};

/// Runs the operation once untimed and checks its result; throws on a wrong result.
inline void warm_up_and_verify(const Case& c, const std::function<void()>& op) {
  if (c.poison) c.poison();
  op();
  space().fence();
  if (c.verify) {
    const std::string why = c.verify();
    if (!why.empty()) throw std::runtime_error("wrong result: " + why);
  }
}

/// The reference's time per run at this size: the median of all its timed runs, pooled
/// over its batches. Batches shorter than the minimum time (Google Benchmark's
/// iteration-count probes) count only when there is nothing else. Pooling keeps the
/// figure right as long as most runs were undisturbed, even when one whole repetition
/// ran while another process held a core. Times the reference now if no benchmark has.
inline double reference_time(const std::string& group, Role role) {
  const std::string key = reference_key(group, role);
  auto& batches = reference_samples()[key];
  auto typical = [&batches] {
    std::vector<double> full, all;
    for (const auto& b : batches) {
      all.insert(all.end(), b.runs.begin(), b.runs.end());
      if (b.seconds >= 0.9 * options().min_time) full.insert(full.end(), b.runs.begin(), b.runs.end());
    }
    return median(full.empty() ? all : full);
  };
  if (!batches.empty()) return typical();
  auto it = reference_cases().find(key);
  if (it == reference_cases().end()) return 0;
  const Case& ref = *it->second;
  auto& state = case_states()[ref.name()];
  if (!state.error.empty()) return 0;
  try {
    auto op = ref.bind();
    if (!state.warmed) {
      warm_up_and_verify(ref, op);
      state.warmed = true;
    }
    CaseTimer timer(ref.wall_clock);
    for (int batch = 0; batch < 3; ++batch) {
      std::vector<double> times;
      double total = 0;
      while (times.empty() || (total < std::max(options().min_time, 0.05) && total < options().run_limit())) {
        times.push_back(timer(op));
        total += times.back();
      }
      batches.push_back(make_batch(total, times));
    }
  } catch (const std::exception& e) {
    state.error = e.what();
    batches.clear();
    return 0;
  }
  return typical();
}

inline void run_case(const Case& c, benchmark::State& st) {
  auto& state = case_states()[c.name()];
  st.SetLabel(role_name(c.role));
  if (!state.error.empty()) {
    st.SkipWithError(state.error.c_str());
    return;
  }
  // A series that got slow at the previous size would take too long here: skip it.
  const auto rate = last_rates().find(c.series());
  if (!state.warmed && rate != last_rates().end() && rate->second.first > 0) {
    const double predicted = c.work / rate->second.first;
    if (predicted > options().run_limit()) {
      std::ostringstream why;
      why.precision(3);
      why << "skipped: one run would take ~" << predicted << " s (limit " << options().run_limit()
          << " s per run: --kapi_max_seconds)";
      state.error = why.str();
      st.SkipWithError(state.error.c_str());
      return;
    }
  }
  try {
    auto op = c.bind();
    if (!state.warmed) {
      warm_up_and_verify(c, op);
      state.warmed = true;
    }
    CaseTimer timer(c.wall_clock);
    std::vector<double> times;
    times.reserve(static_cast<std::size_t>(st.max_iterations));
    double total = 0;
    for (auto _ : st) {
      const double t = timer(op);
      if constexpr (RunTimer<Space>::manual_time) st.SetIterationTime(t);
      times.push_back(t);
      total += t;
    }
    if (times.empty()) return;
    // The rate and the ratios use the median run of this batch: a run that the operating
    // system interrupted (a shared machine) does not move them; Google Benchmark's time
    // column stays the mean.
    const double per_run = median(times);
    if (per_run <= 0) return;
    if (is_reference(c.role)) reference_samples()[reference_key(c.group(), c.role)].push_back(make_batch(total, times));
    last_rates()[c.series()] = {c.work / per_run, c.size};
    if (c.unit == "us") {  // a latency: microseconds per run, lower is better
      st.counters[c.unit] = benchmark::Counter(1e6 * per_run);
    } else if (c.unit == "ns/item") {  // a cost: nanoseconds per unit of work, lower is better
      st.counters[c.unit] = benchmark::Counter(1e9 * per_run / c.work);
    } else {
      st.counters[c.unit] = benchmark::Counter(1e-9 * c.work / per_run);
    }
    const double anchor = reference_time(c.group(), Role::anchor);
    if (anchor > 0) st.counters["pct_of_anchor"] = benchmark::Counter(100.0 * anchor / per_run);
    const double raw = reference_time(c.group(), Role::raw_kokkos);
    if (raw > 0) st.counters["pct_of_raw_kokkos"] = benchmark::Counter(100.0 * raw / per_run);
  } catch (const std::exception& e) {
    state.error = e.what();
    st.SkipWithError(state.error.c_str());
  }
}

inline std::vector<std::string>& registered_names() {
  static std::vector<std::string> n;
  return n;
}

/// Registers the case as a Google Benchmark.
inline void add(Case c) {
  auto shared = std::make_shared<const Case>(std::move(c));
  if (is_reference(shared->role)) reference_cases()[reference_key(shared->group(), shared->role)] = shared;
  registered_names().push_back(shared->name());
  auto* b = benchmark::RegisterBenchmark(shared->name().c_str(),
                                         [shared](benchmark::State& st) { run_case(*shared, st); });
  b->Unit(shared->time_unit);
  if constexpr (RunTimer<Space>::manual_time) {
    b->UseManualTime();
  } else {
    b->UseRealTime();
  }
  b->ComputeStatistics("min", [](const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); });
  b->ComputeStatistics("max", [](const std::vector<double>& v) { return *std::max_element(v.begin(), v.end()); });
  if (options().repetitions > 0) b->Repetitions(options().repetitions);
  if (options().min_time > 0) b->MinTime(options().min_time);
}

// ----------------------------------------------------------------------------- progress

/// Prints one line per size group (instead of Google Benchmark's table) while the JSON
/// goes to --benchmark_out: elapsed time, anchors' rates, the best framework variant.
class ProgressReporter : public benchmark::BenchmarkReporter {
 public:
  explicit ProgressReporter(std::string app) : app_(std::move(app)) {}

  bool ReportContext(const Context&) override {
    const std::string threads =
        is_host_space<Space> ? ", " + std::to_string(space().concurrency()) + " thread(s)" : std::string();
    std::printf("%s: %s%s on %s; %s suite, %zu benchmarks\n", app_.c_str(), Space::name(), threads.c_str(),
                device_name().c_str(), options().full() ? "full" : "quick", registered_names().size());
    std::fflush(stdout);
    return true;
  }

  void ReportRuns(const std::vector<Run>& runs) override {
    // Google Benchmark reports a benchmark's repetitions and its aggregates in two calls:
    // use the median aggregate, or the only run when there is one repetition.
    if (runs.empty()) return;
    const Run* best = nullptr;
    for (const auto& r : runs) {
      if (r.run_type == Run::RT_Aggregate && r.aggregate_name == "median") best = &r;
    }
    if (!best && runs.front().run_type == Run::RT_Iteration && runs.front().repetitions > 1 &&
        case_states()[runs.front().run_name.function_name].error.empty())
      return;  // the aggregates come next
    if (!best && runs.size() == 1) best = &runs.front();
    const std::string name = runs.front().run_name.function_name;
    const auto last_slash = name.rfind('/');
    const auto variant_slash = name.rfind('/', last_slash - 1);
    const std::string group = name.substr(0, variant_slash) + name.substr(last_slash);
    const std::string variant = name.substr(variant_slash + 1, last_slash - variant_slash - 1);
    if (group != group_) flush();
    group_ = group;
    ++count_;
    const auto& state = case_states()[name];
    if (!state.error.empty() || !best) {
      ++skipped_;
      return;
    }
    double rate = 0, pct = -1;
    std::string unit;
    for (const auto& [k, v] : best->counters) {
      if (k == "GFLOP/s" || k == "GB/s" || k == "us" || k == "ns/item") {
        rate = v.value;
        unit = k;
      }
      if (k == "pct_of_anchor") pct = v.value;
    }
    unit_ = unit;
    const std::string label = best->report_label;
    if (label == "anchor") {
      anchors_ += (anchors_.empty() ? "" : ", ") + variant + " " + fmt(rate);
    } else if (label == "raw-kokkos") {
      raw_ += (raw_.empty() ? "" : ", ") + variant + " " + fmt(rate);
    } else if (label == "kapi" && (best_variant_.empty() || (lower_is_better(unit) ? rate < best_rate_ : rate > best_rate_))) {
      best_rate_ = rate;
      best_variant_ = variant;
      best_pct_ = pct;
    }
  }

  void Finalize() override { flush(); }

 private:
  static std::string fmt(double v) {
    char b[32];
    std::snprintf(b, sizeof b, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v);
    return b;
  }
  void flush() {
    if (group_.empty()) return;
    std::string line = group_ + "  " + std::to_string(count_) + " benchmarks";
    if (skipped_) line += " (" + std::to_string(skipped_) + " skipped)";
    if (!unit_.empty()) line += "  [" + unit_ + "]";
    if (!anchors_.empty()) line += "  anchor " + anchors_;
    if (!raw_.empty()) line += "  raw " + raw_;
    if (!best_variant_.empty()) {
      line += "  best kapi " + best_variant_ + " " + fmt(best_rate_);
      if (best_pct_ >= 0) line += " (" + fmt(best_pct_) + "% of anchor)";
    }
    std::printf("[%6.0fs] %s\n", now_epoch() - options().start, line.c_str());
    std::fflush(stdout);
    group_.clear();
    anchors_.clear();
    raw_.clear();
    best_variant_.clear();
    unit_.clear();
    best_rate_ = 0;
    best_pct_ = -1;
    count_ = skipped_ = 0;
  }

  std::string app_, group_, anchors_, raw_, best_variant_, unit_;
  double best_rate_ = 0, best_pct_ = -1;
  int count_ = 0, skipped_ = 0;
};

// ----------------------------------------------------------------------------- main

inline const char* usage() {
  return "kapi benchmark options (besides Google Benchmark's --benchmark_* and Kokkos' --kokkos-*):\n"
         "  --kapi_suite=quick|full    size sweep and repetitions (default quick)\n"
         "  --kapi_sizes=A,B,...       run these sizes instead of the suite's sweep\n"
         "  --kapi_max_seconds=S       skip a variant when one run is predicted to take longer\n"
         "                             (default 2 quick, 30 full)\n"
         "  --kapi_progress            one line per size group instead of the console table\n"
         "  --kapi_list                list the benchmarks and exit\n"
         "  --kapi_print_configuration print Kokkos' configuration and exit\n"
         "  --kapi_help                this text\n"
         "Environment: KAPI_SUITE_START (epoch seconds) aligns progress times across binaries.\n";
}

/// Removes the --kapi_* arguments it knows from argv; returns false on a bad one.
inline bool parse_options(int& argc, char** argv, bool& user_repetitions, bool& user_min_time) {
  Options& o = options();
  int out = 1;
  bool ok = true;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&a](const char* key) -> const char* {
      const std::size_t n = std::strlen(key);
      return a.compare(0, n, key) == 0 ? a.c_str() + n : nullptr;
    };
    if (a.rfind("--benchmark_repetitions", 0) == 0) user_repetitions = true;
    if (a.rfind("--benchmark_min_time", 0) == 0) user_min_time = true;
    if (const char* v = value("--kapi_suite=")) {
      if (std::string(v) == "full") {
        o.suite = Suite::full;
      } else if (std::string(v) == "quick") {
        o.suite = Suite::quick;
      } else {
        std::fprintf(stderr, "unknown suite '%s' (quick or full)\n", v);
        ok = false;
      }
    } else if (const char* v = value("--kapi_sizes=")) {
      std::stringstream s(v);
      std::string item;
      while (std::getline(s, item, ',')) {
        if (!item.empty()) o.sizes.push_back(static_cast<std::size_t>(std::stoull(item)));
      }
    } else if (const char* v = value("--kapi_max_seconds=")) {
      o.max_seconds = std::stod(v);
    } else if (a == "--kapi_progress") {
      o.progress = true;
    } else if (a == "--kapi_list") {
      o.list = true;
    } else if (a == "--kapi_print_configuration") {
      o.print_configuration = true;
    } else if (a == "--kapi_help") {
      std::fputs(usage(), stdout);
      std::exit(0);
    } else if (a.rfind("--kapi_", 0) == 0) {
      std::fprintf(stderr, "unknown option %s\n%s", a.c_str(), usage());
      ok = false;
    } else {
      argv[out++] = argv[i];
    }
  }
  argc = out;
  argv[argc] = nullptr;
  return ok;
}

/// Kokkos Threads defaults to one thread when Kokkos has no hwloc: unless told
/// otherwise, give it every hardware thread, as OpenMP takes them.
inline void default_thread_count(int argc, char** argv) {
#if defined(KOKKOS_ENABLE_THREADS)
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--kokkos-threads", 16) == 0 || std::strncmp(argv[i], "--kokkos-num-threads", 20) == 0)
      return;
  }
  if (std::getenv("KOKKOS_NUM_THREADS")) return;
  const unsigned n = std::thread::hardware_concurrency();
  if (n > 1) setenv("KOKKOS_NUM_THREADS", std::to_string(n).c_str(), 0);
#else
  (void)argc;
  (void)argv;
#endif
}

/// The whole program of a benchmark binary: Kokkos around Google Benchmark.
inline int run_main(int argc, char** argv, const std::string& app, const std::function<void()>& register_all) {
  for (int i = 1; i < argc; ++i) {  // before Kokkos: help needs no device
    if (std::strcmp(argv[i], "--kapi_help") == 0) {
      std::fputs(usage(), stdout);
      return 0;
    }
  }
  default_thread_count(argc, argv);
  Kokkos::initialize(argc, argv);
  int rc = 0;
  {
    bool user_repetitions = false, user_min_time = false;
    if (!parse_options(argc, argv, user_repetitions, user_min_time)) {
      rc = 2;
    } else if (options().print_configuration) {
      Kokkos::print_configuration(std::cout, true);
    } else {
      Options& o = options();
      // Full: 5 repetitions of >= 0.5 s on host, >= 0.2 s on a device (whose runs are
      // short and steady, and whose time is rationed); quick: 3 of >= 0.1 s.
      if (!user_repetitions) o.repetitions = o.full() ? 5 : 3;
      if (!user_min_time) o.min_time = o.full() ? (is_host_space<Space> ? 0.5 : 0.2) : 0.1;
      const char* start = std::getenv("KAPI_SUITE_START");
      o.start = start ? std::atof(start) : now_epoch();
      benchmark::Initialize(&argc, argv);
      if (benchmark::ReportUnrecognizedArguments(argc, argv)) {
        rc = 2;
      } else {
        add_context(app, o.full() ? "full" : "quick", RunTimer<Space>::method());
        benchmark::AddCustomContext("kapi_max_seconds", std::to_string(o.run_limit()));
        register_all();
        // After register_all: the anchors' own thread pools (OpenBLAS) exist by now.
        benchmark::AddCustomContext("thread_affinity", thread_affinities());
        if (o.list) {
          for (const auto& n : registered_names()) std::printf("%s\n", n.c_str());
        } else {
          const CpuUsage start = CpuUsage::now();
          if (o.progress) {
            ProgressReporter progress(app);
            benchmark::RunSpecifiedBenchmarks(&progress);
          } else {
            benchmark::RunSpecifiedBenchmarks();
          }
          // The machine's share taken by others while this ran (run-suite.sh keeps it).
          std::printf("[kapi-bench] %s: %s\n", app.c_str(), others_since(start).c_str());
        }
      }
      benchmark::Shutdown();
    }
    for (auto& f : at_finalize()) f();
  }
  Kokkos::finalize();
  return rc;
}

}  // namespace kapi_bench
