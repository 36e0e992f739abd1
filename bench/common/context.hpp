// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a reader of a result file needs to know about the run: recorded with
// benchmark::AddCustomContext, so it lands in the JSON's "context" object (context.cpp).
#include <string>

#include "build_info.hpp"

namespace kapi_bench {

/// The device the default execution space runs on, in words.
std::string device_name();

/// The CPUs each thread of this process may run on, "tid:cpus" per thread (Linux /proc).
std::string thread_affinities();

/// CPU time the whole machine spent busy, and this process's own CPU time (all threads),
/// to tell afterwards how much other processes took while the benchmarks ran.
struct CpuUsage {
  double busy = 0, steal = 0, self = 0, wall = 0;
  static CpuUsage now();
};

/// "other processes: 1.2 CPU-s = 0.9% of 2 cores over 68 s (steal 0.0%)".
std::string others_since(const CpuUsage& start);

/// "tuned; <kernel> <extents>: <shape> (<each candidate's fastest time>); ...": the launch
/// shapes the run chose (kapi/launch_shapes.hpp).
std::string launch_shapes_chosen();

/// Records the run's context; `suite` and `timing` come from the harness, `build` from the binary.
void add_context(const std::string& app, const std::string& suite, const std::string& timing, const BuildInfo& build);

}  // namespace kapi_bench
