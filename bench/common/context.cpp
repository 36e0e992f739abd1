// SPDX-License-Identifier: Apache-2.0
// What a reader of a result file needs to know about the run (context.hpp).
#include "context.hpp"

#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <kapi/execution_space.hpp>
#include <kapi/launch_shapes.hpp>
#include <kapi/space_traits.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <type_traits>
#if defined(__linux__)
#include <dirent.h>
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace kapi_bench {

namespace {

std::string env_or(const char* name, const char* fallback = "(unset)") {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string(fallback);
}

std::string kokkos_version() {
  std::ostringstream s;
#if defined(KOKKOS_VERSION)
  s << KOKKOS_VERSION / 10000 << '.' << (KOKKOS_VERSION / 100) % 100 << '.' << KOKKOS_VERSION % 100;
#else
  s << "unknown";
#endif
  return s.str();
}

template <class... Spaces>
std::string space_names(kapi::execution_space_list<Spaces...>) {
  std::string all = Kokkos::DefaultExecutionSpace::name();
  auto add = [&all](const char* name) {
    if (all.find(name) == std::string::npos) all += std::string(",") + name;
  };
  (add(Spaces::name()), ...);
  (void)add;
  return all;
}

/// Every backend of this Kokkos build that kapi runs on, the default one first.
std::string kokkos_backends() { return space_names(kapi::enabled_execution_spaces{}); }

std::string compiler() {
  std::ostringstream s;
#if defined(__CUDACC__)
  s << "nvcc " << __CUDACC_VER_MAJOR__ << '.' << __CUDACC_VER_MINOR__ << " (host: ";
#endif
#if defined(__clang__)
  s << "clang " << __clang_major__ << '.' << __clang_minor__ << '.' << __clang_patchlevel__;
#elif defined(__GNUC__)
  s << "g++ " << __GNUC__ << '.' << __GNUC_MINOR__ << '.' << __GNUC_PATCHLEVEL__;
#else
  s << "unknown";
#endif
#if defined(__CUDACC__)
  s << ')';
#endif
  return s.str();
}

std::string host_cpu() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(colon + 2);
    }
  }
  return "unknown";
}

}  // namespace

std::string device_name() {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (kapi::space_traits<Kokkos::DefaultExecutionSpace>::is_cuda) {
    cudaDeviceProp p{};
    const int dev = Kokkos::Cuda().cuda_device();
    if (cudaGetDeviceProperties(&p, dev) == cudaSuccess) {
      std::ostringstream s;
      s << p.name << " (device " << dev << ", CC " << p.major << '.' << p.minor << ", " << p.multiProcessorCount
        << " SMs, " << (p.totalGlobalMem >> 20) << " MiB)";
      return s.str();
    }
  }
#endif
  // A device this file cannot query (HIP, or a failed CUDA query): the backend, not the host CPU.
  if constexpr (!kapi::is_host_execution_space_v<Kokkos::DefaultExecutionSpace>)
    return std::string(Kokkos::DefaultExecutionSpace::name()) + " device (not queried)";
  return host_cpu() + " (" + std::to_string(std::thread::hardware_concurrency()) + " hardware threads)";
}

std::string thread_affinities() {
  std::string out;
#if defined(__linux__)
  if (DIR* dir = opendir("/proc/self/task")) {
    while (const dirent* e = readdir(dir)) {
      if (e->d_name[0] == '.') continue;
      std::ifstream status(std::string("/proc/self/task/") + e->d_name + "/status");
      std::string line;
      while (std::getline(status, line)) {
        if (line.rfind("Cpus_allowed_list:", 0) == 0) {
          const auto v = line.find_first_not_of(" \t", 18);
          if (!out.empty()) out += ' ';  // appended: GCC 12 -Wrestrict false positive in C++20
          out += std::string(e->d_name) + ":" + line.substr(v == std::string::npos ? 18 : v);
        }
      }
    }
    closedir(dir);
  }
#endif
  return out.empty() ? "unknown" : out;
}

CpuUsage CpuUsage::now() {
  CpuUsage u;
#if defined(__linux__)
  std::ifstream stat("/proc/stat");
  std::string cpu;
  double user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
  stat >> cpu >> user >> nice >> system >> idle >> iowait >> irq >> softirq >> steal;
  const double tick = static_cast<double>(sysconf(_SC_CLK_TCK));
  u.busy = (user + nice + system + irq + softirq + steal) / tick;
  u.steal = steal / tick;
  rusage r{};
  getrusage(RUSAGE_SELF, &r);
  u.self = double(r.ru_utime.tv_sec) + 1e-6 * double(r.ru_utime.tv_usec) + double(r.ru_stime.tv_sec) +
           1e-6 * double(r.ru_stime.tv_usec);
#endif
  u.wall = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  return u;
}

std::string launch_shapes_chosen() {
  std::ostringstream out;
  out << kapi::launch_shape_setting();
  for (const auto& c : kapi::launch_shape_choices()) {
    out << "; " << c.kernel << ' ';
    for (std::size_t d = 0; d < c.extent.size(); ++d) out << (d ? "x" : "") << c.extent[d];
    out << ": " << c.shape;
    if (!c.times.empty()) {
      out << " (";
      for (std::size_t s = 0; s < c.times.size(); ++s) out << (s ? ", " : "") << c.shapes[s] << ' ' << c.times[s];
      out << " ms)";
    }
  }
  return out.str();
}

std::string others_since(const CpuUsage& start) {
  const CpuUsage end = CpuUsage::now();
  const double wall = end.wall - start.wall;
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const double others = std::max(0.0, (end.busy - start.busy) - (end.self - start.self));
  char line[200];
  std::snprintf(line, sizeof line, "other processes: %.1f CPU-s = %.1f%% of %u cores over %.0f s (steal %.1f%%)",
                others, wall > 0 ? 100.0 * others / (wall * cores) : 0.0, cores, wall,
                wall > 0 ? 100.0 * (end.steal - start.steal) / (wall * cores) : 0.0);
  return line;
}

void add_context(const std::string& app, const std::string& suite, const std::string& timing, const BuildInfo& build) {
  using Space = Kokkos::DefaultExecutionSpace;
  benchmark::AddCustomContext("kapi_app", app);
  benchmark::AddCustomContext("kapi_config", build.config);
  benchmark::AddCustomContext("kapi_suite", suite);
  benchmark::AddCustomContext("kokkos_version", kokkos_version());
  benchmark::AddCustomContext("kokkos_backend", Space::name());
  benchmark::AddCustomContext("kokkos_backends", kokkos_backends());
  benchmark::AddCustomContext("kokkos_concurrency", std::to_string(Space().concurrency()));
  benchmark::AddCustomContext("host_concurrency", std::to_string(Kokkos::DefaultHostExecutionSpace().concurrency()));
  benchmark::AddCustomContext("device", device_name());
  benchmark::AddCustomContext("host_cpu", host_cpu());
  benchmark::AddCustomContext("OMP_PROC_BIND", env_or("OMP_PROC_BIND"));
  benchmark::AddCustomContext("OMP_PLACES", env_or("OMP_PLACES"));
  benchmark::AddCustomContext("OMP_NUM_THREADS", env_or("OMP_NUM_THREADS"));
  benchmark::AddCustomContext("KOKKOS_NUM_THREADS", env_or("KOKKOS_NUM_THREADS"));
  benchmark::AddCustomContext("openmp", build.openmp ? build.openmp() : std::string("unknown"));
#if defined(KOKKOS_ENABLE_CUDA)
  int runtime = 0, driver = 0;
  cudaRuntimeGetVersion(&runtime);
  cudaDriverGetVersion(&driver);
  benchmark::AddCustomContext("cuda_runtime",
                              std::to_string(runtime / 1000) + "." + std::to_string(runtime % 1000 / 10));
  benchmark::AddCustomContext("cuda_driver", std::to_string(driver / 1000) + "." + std::to_string(driver % 1000 / 10));
  benchmark::AddCustomContext("NVIDIA_TF32_OVERRIDE", env_or("NVIDIA_TF32_OVERRIDE"));
  benchmark::AddCustomContext("launch_shapes", kapi::launch_shape_setting());
#endif
  benchmark::AddCustomContext("compiler", compiler());
  std::string flags = build.cxx_flags;  // spaces were passed as commas (bench/CMakeLists.txt)
  for (auto& ch : flags)
    if (ch == ',') ch = ' ';
  benchmark::AddCustomContext("cxx_flags", flags);
  benchmark::AddCustomContext("build_type", build.build_type);
  benchmark::AddCustomContext("timing", timing);
}

}  // namespace kapi_bench
