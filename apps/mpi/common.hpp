// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the distributed apps of kapi-mpi share: the run's context (world communicator,
// execution space, options), deterministic data, timing across ranks, the summary line.
#include <kapi/mpi.hpp>
#include <kapi_apps/args.hpp>
#include <kapi_apps/summary.hpp>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace mpi_apps {

using Space = Kokkos::DefaultExecutionSpace;
using Memory = Space::memory_space;

/// A deterministic value in [0, 1) from an index (splitmix64), the same on host and device.
KOKKOS_INLINE_FUNCTION double unit_hash(std::uint64_t i) {
  std::uint64_t z = i + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return double(z >> 11) * 0x1.0p-53;
}

struct Timing {
  double median_s = 0, min_s = 0, max_rank_median_s = 0;
};

/// Runs `work` once untimed, then `repeats` times, each started together on every rank
/// (a barrier) and ended by the slowest: every rank's time is the maximum over the ranks
/// (MPI_Allreduce of the time, outside the timed region). Returns the median and minimum.
template <class Work>
Timing time_collective(const kapi::mpi::Communicator& comm, int repeats, const Work& work) {
  work();
  Space().fence();
  std::vector<double> s;
  for (int r = 0; r < std::max(1, repeats); ++r) {
    comm.barrier();
    const auto t0 = std::chrono::steady_clock::now();
    work();
    Space().fence();
    double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), slowest = 0;
    KAPI_MPI_CHECK(MPI_Allreduce, &t, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm.get());
    s.push_back(slowest);
  }
  std::sort(s.begin(), s.end());
  Timing t;
  t.min_s = s.front();
  t.median_s = s.size() % 2 ? s[s.size() / 2] : 0.5 * (s[s.size() / 2 - 1] + s[s.size() / 2]);
  return t;
}

/// Prints on rank 0 only.
template <class... A>
void say(const kapi::mpi::Communicator& comm, const char* format, A... a) {
  if (comm.rank() == 0) std::printf(format, a...);
}

/// The common fields of an app's summary line.
inline kapi_apps::JsonObject summary(const kapi::mpi::Communicator& comm, const std::string& app) {
  return kapi_apps::JsonObject()
      .add("app", app)
      .add("space", Space::name())
      .add("ranks", comm.size())
      .add("ranks_per_node", comm.node_size())
      .add("device_aware_mpi", kapi::mpi::device_aware())
      .add("transport", kapi::mpi::describe_transport<typename Space::memory_space>(comm))
      .add("concurrency", static_cast<long long>(Space().concurrency()));
}

/// The command line without Kokkos' options (those may differ per rank), one argument per line.
inline std::string app_arguments(int argc, char** argv) {
  std::string line;
  for (int i = 1; i < argc; ++i)
    if (std::strncmp(argv[i], "--kokkos-", 9) != 0) line.append(argv[i]).push_back('\n');
  return line;
}

/// Every rank must run the same app with the same sizes: ranks started with different
/// command lines (an MPMD launch, a script that builds them per rank) would wait for each
/// other in collectives of different sizes. Each rank compares every rank's arguments with
/// rank 0's, so all of them throw the same usage_error, naming the first rank that differs.
inline void check_same_arguments(const kapi::mpi::Communicator& world, int argc, char** argv) {
  const auto all = kapi::mpi::all_gather_text(world, app_arguments(argc, argv));
  const auto shown = [](std::string s) {
    std::replace(s.begin(), s.end(), '\n', ' ');
    return "'" + (s.empty() ? s : s.substr(0, s.size() - 1)) + "'";
  };
  for (std::size_t r = 0; r < all.size(); ++r)
    if (all[r] != all[0])
      throw kapi_apps::usage_error("the ranks were started with different arguments: rank 0 with " + shown(all[0]) +
                                   ", rank " + std::to_string(r) + " with " + shown(all[r]) +
                                   " (every rank must run the same app with the same sizes)");
}

int run_reduce(const kapi::mpi::Communicator& world, kapi_apps::Args& args);
int run_summa(const kapi::mpi::Communicator& world, kapi_apps::Args& args);
int run_heat3d(const kapi::mpi::Communicator& world, kapi_apps::Args& args);

/// Throws usage_error unless `verify` is one of the app's levels.
/// --type: float, double or both (comma-separated); `fallback` when not given.
inline std::vector<std::string> element_types(kapi_apps::Args& args, const std::string& fallback) {
  auto types = args.list("type");
  if (types.empty()) types = {fallback};
  for (const auto& t : types)
    if (t != "float" && t != "double") throw kapi_apps::usage_error("--type: '" + t + "' is not float or double");
  return types;
}

inline std::string verify_option(kapi_apps::Args& args) {
  const std::string v = args.text("verify", "all");
  if (v != "all" && v != "reference" && v != "none")
    throw kapi_apps::usage_error("--verify: expected all, reference or none, got '" + v + "'");
  return v;
}

}  // namespace mpi_apps
