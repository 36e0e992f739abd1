// SPDX-License-Identifier: Apache-2.0
// The benchmark harness (harness.hpp): options, the cases' runs and their reference
// times, the progress reporter and the binaries' main.
#include "harness.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <type_traits>

#include <kapi/execution_space.hpp>
#include <kapi/space_traits.hpp>

#include "context.hpp"
#include "timing.hpp"

namespace kapi_bench {

const char* role_name(Role r) {
  switch (r) {
    case Role::anchor:
      return "anchor";
    case Role::raw_kokkos:
      return "raw-kokkos";
    case Role::library:
      return "library";
    default:
      return "kapi";
  }
}

bool lower_is_better(const std::string& unit) { return unit == "us" || unit == "ns/item"; }

std::vector<std::size_t> between(const std::vector<std::size_t>& all, std::size_t lo, std::size_t hi) {
  std::vector<std::size_t> out;
  for (auto s : all)
    if (s >= lo && s <= hi) out.push_back(s);
  return out;
}

namespace {

double now_epoch() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

struct CaseState {
  bool warmed = false;
  std::string error;  // once set, every later call of the benchmark is skipped with it
};

/// One batch of timed runs of a reference (a Google Benchmark call, or an on-demand batch).
struct Batch {
  double seconds = 0;        // the batch's total time
  std::vector<double> runs;  // its run times (every k-th when there were very many)
};

/// A batch of run times, thinned to at most 4096 kept runs.
Batch make_batch(double seconds, const std::vector<double>& times) {
  Batch b;
  b.seconds = seconds;
  const std::size_t stride = times.size() / 4096 + 1;
  for (std::size_t i = 0; i < times.size(); i += stride) b.runs.push_back(times[i]);
  return b;
}

std::string reference_key(const std::string& group, Role role) { return group + "#" + role_name(role); }

}  // namespace

/// Everything one benchmark binary's run keeps.
struct Harness::State {
  Options options;
  Space space;
  std::map<std::string, CaseState> cases;                            // by case name
  std::map<std::string, std::shared_ptr<const Case>> references;     // anchor and raw-Kokkos cases by reference_key
  std::map<std::string, std::vector<Batch>> reference_samples;       // their timed batches, by reference_key
  std::map<std::string, std::pair<double, std::size_t>> last_rates;  // rate and size per series: predicts the next size
  std::vector<std::string> names;                                    // registered, in order
  std::vector<std::function<void()>> finalizers;                     // run before Kokkos::finalize

  /// Times runs of a case: the space's own timer (timing.hpp), or the host wall clock
  /// around the call and a fence when the case asks for it (what a caller waits, e.g.
  /// launches).
  class Timer {
   public:
    Timer(const Space& space, bool wall_clock) : space_(space), wall_clock_(wall_clock) {}
    template <class Op>
    double operator()(Op&& op) {
      if (wall_clock_) return wall_(space_, op);
      return own_(space_, op);
    }

   private:
    const Space& space_;
    bool wall_clock_;
    RunTimer<Space> own_;
    WallTimer<Space> wall_;
  };

  /// Runs the operation once untimed and checks its result; throws on a wrong result.
  void warm_up_and_verify(const Case& c, const std::function<void()>& op) {
    if (c.poison) c.poison();
    op();
    space.fence();
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
  double reference_time(const std::string& group, Role role) {
    const std::string key = reference_key(group, role);
    auto& batches = reference_samples[key];
    auto typical = [this, &batches] {
      std::vector<double> full, all;
      for (const auto& b : batches) {
        all.insert(all.end(), b.runs.begin(), b.runs.end());
        if (b.seconds >= 0.9 * options.min_time) full.insert(full.end(), b.runs.begin(), b.runs.end());
      }
      return median(full.empty() ? all : full);
    };
    if (!batches.empty()) return typical();
    auto it = references.find(key);
    if (it == references.end()) return 0;
    const Case& ref = *it->second;
    auto& state = cases[ref.name()];
    if (!state.error.empty()) return 0;
    try {
      auto op = ref.bind();
      if (!state.warmed) {
        warm_up_and_verify(ref, op);
        state.warmed = true;
      }
      Timer timer(space, ref.wall_clock);
      for (int batch = 0; batch < 3; ++batch) {
        std::vector<double> times;
        double total = 0;
        while (times.empty() || (total < std::max(options.min_time, 0.05) && total < options.run_limit())) {
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

  void run_case(const Case& c, benchmark::State& st) {
    auto& state = cases[c.name()];
    st.SetLabel(role_name(c.role));
    if (!state.error.empty()) {
      st.SkipWithError(state.error.c_str());
      return;
    }
    // A series that got slow at the previous size would take too long here: skip it.
    const auto rate = last_rates.find(c.series());
    if (!state.warmed && rate != last_rates.end() && rate->second.first > 0) {
      const double predicted = c.work / rate->second.first;
      if (predicted > options.run_limit()) {
        std::ostringstream why;
        why.precision(3);
        why << "skipped: one run would take ~" << predicted << " s (limit " << options.run_limit()
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
      Timer timer(space, c.wall_clock);
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
      if (is_reference(c.role)) reference_samples[reference_key(c.group(), c.role)].push_back(make_batch(total, times));
      last_rates[c.series()] = {c.work / per_run, c.size};
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
      if (c.counters)
        for (const auto& [name, value] : c.counters()) st.counters[name] = benchmark::Counter(value);
    } catch (const std::exception& e) {
      state.error = e.what();
      st.SkipWithError(state.error.c_str());
    }
  }
};

Harness::Harness(const Options& options) : state_(std::make_unique<State>()) { state_->options = options; }
Harness::~Harness() = default;

const Options& Harness::options() const { return state_->options; }
const Space& Harness::space() const { return state_->space; }

Backend Harness::backend() const {
  if constexpr (!kapi::is_host_execution_space_v<Space>) return Backend::device;
#if defined(KOKKOS_ENABLE_SERIAL)
  if constexpr (std::is_same_v<Space, Kokkos::Serial>) return Backend::serial;
#endif
  return space().concurrency() > 1 ? Backend::host_parallel : Backend::serial;
}

std::vector<std::size_t> Harness::sweep(const std::vector<std::size_t>& defaults) const {
  return options().sizes.empty() ? defaults : options().sizes;
}

void Harness::at_finalize(std::function<void()> f) { state_->finalizers.push_back(std::move(f)); }

void Harness::add(Case c) {
  State& s = *state_;
  auto shared = std::make_shared<const Case>(std::move(c));
  if (is_reference(shared->role)) s.references[reference_key(shared->group(), shared->role)] = shared;
  s.names.push_back(shared->name());
  auto* b = benchmark::RegisterBenchmark(shared->name().c_str(),
                                         [&s, shared](benchmark::State& st) { s.run_case(*shared, st); });
  b->Unit(shared->time_unit);
  if constexpr (RunTimer<Space>::manual_time) {
    b->UseManualTime();
  } else {
    b->UseRealTime();
  }
  b->ComputeStatistics("min", [](const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); });
  b->ComputeStatistics("max", [](const std::vector<double>& v) { return *std::max_element(v.begin(), v.end()); });
  if (s.options.repetitions > 0) b->Repetitions(s.options.repetitions);
  if (s.options.min_time > 0) b->MinTime(s.options.min_time);
}

namespace {

/// Prints one line per size group (instead of Google Benchmark's table) while the JSON
/// goes to --benchmark_out: elapsed time, anchors' rates, the best framework variant.
class ProgressReporter : public benchmark::BenchmarkReporter {
 public:
  ProgressReporter(std::string app, Harness::State& state) : app_(std::move(app)), state_(state) {}

  bool ReportContext(const Context&) override {
    const std::string threads = kapi::is_host_execution_space_v<Space>
                                    ? ", " + std::to_string(state_.space.concurrency()) + " thread(s)"
                                    : std::string();
    std::printf("%s: %s%s on %s; %s suite, %zu benchmarks\n", app_.c_str(), Space::name(), threads.c_str(),
                device_name().c_str(), state_.options.full() ? "full" : "quick", state_.names.size());
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
        state_.cases[runs.front().run_name.function_name].error.empty())
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
    const auto& state = state_.cases[name];
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
    } else if (label == "kapi" &&
               (best_variant_.empty() || (lower_is_better(unit) ? rate < best_rate_ : rate > best_rate_))) {
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
    std::printf("[%6.0fs] %s\n", now_epoch() - state_.options.start, line.c_str());
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

  std::string app_;
  Harness::State& state_;
  std::string group_, anchors_, raw_, best_variant_, unit_;
  double best_rate_ = 0, best_pct_ = -1;
  int count_ = 0, skipped_ = 0;
};

const char* usage() {
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

/// Removes the --kapi_* arguments it knows from argv into `o`; returns false on a bad one.
bool parse_options(int& argc, char** argv, Options& o, bool& user_repetitions, bool& user_min_time) {
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
void default_thread_count(int argc, char** argv) {
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

}  // namespace

int run_main(int argc, char** argv, const std::string& app, const std::function<void(Harness&)>& register_all,
             const BuildInfo& build) {
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
    Options o;
    bool user_repetitions = false, user_min_time = false;
    if (!parse_options(argc, argv, o, user_repetitions, user_min_time)) {
      rc = 2;
    } else if (o.print_configuration) {
      Kokkos::print_configuration(std::cout, true);
    } else {
      // Full: 5 repetitions of >= 0.5 s on host, >= 0.2 s on a device (whose runs are
      // short and steady, and whose time is rationed); quick: 3 of >= 0.1 s.
      if (!user_repetitions) o.repetitions = o.full() ? 5 : 3;
      if (!user_min_time) o.min_time = o.full() ? (kapi::is_host_execution_space_v<Space> ? 0.5 : 0.2) : 0.1;
      const char* start = std::getenv("KAPI_SUITE_START");
      o.start = start ? std::atof(start) : now_epoch();
      Harness harness(o);
      Harness::State& s = *harness.state_;
      benchmark::Initialize(&argc, argv);
      if (benchmark::ReportUnrecognizedArguments(argc, argv)) {
        rc = 2;
      } else {
        add_context(app, o.full() ? "full" : "quick", RunTimer<Space>::method(), build);
        benchmark::AddCustomContext("kapi_max_seconds", std::to_string(o.run_limit()));
        register_all(harness);
        // After register_all: the anchors' own thread pools (OpenBLAS) exist by now.
        benchmark::AddCustomContext("thread_affinity", thread_affinities());
        if (o.list) {
          for (const auto& n : s.names) std::printf("%s\n", n.c_str());
        } else {
          const CpuUsage start_usage = CpuUsage::now();
          if (o.progress) {
            ProgressReporter progress(app, s);
            benchmark::RunSpecifiedBenchmarks(&progress);
          } else {
            benchmark::RunSpecifiedBenchmarks();
          }
          // The machine's share taken by others while this ran (run-suite.sh keeps it).
          std::printf("[kapi-bench] %s: %s\n", app.c_str(), others_since(start_usage).c_str());
          if constexpr (kapi::space_traits<Space>::is_cuda)
            std::printf("[kapi-bench] %s: launch shapes: %s\n", app.c_str(), launch_shapes_chosen().c_str());
        }
      }
      // The registered benchmarks hold the cases and through them the harness and its
      // data: gone before the harness and Kokkos are.
      benchmark::ClearRegisteredBenchmarks();
      benchmark::Shutdown();
      for (auto& f : s.finalizers) f();
    }
  }
  Kokkos::finalize();
  return rc;
}

}  // namespace kapi_bench
