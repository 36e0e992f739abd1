// SPDX-License-Identifier: Apache-2.0
// kapi-mpi reduce: the sum of an array spread over the ranks, with a result that does not
// depend on the rank count or on timing.
//
// The decomposition is global and fixed by n alone: the array is cut into `chunks` chunks
// of equal size (a multiple of 1024 elements, so every chunk starts equally aligned in
// any rank's allocation), and each rank owns a contiguous run of whole chunks
// (kapi::mpi::block over the chunk count). Every rank sums each of its chunks with
// kapi::reduce (all queued, then read); the chunk sums are gathered in chunk order on every rank
// (kapi::mpi::all_gather) and added left to right. Each chunk's sum is the same whichever
// rank computes it, and the final order is the chunk order, so 1, 2, 3 or 4 ranks give
// the same bits as one rank reducing the whole array chunk by chunk; the check compares
// exactly that (computed on rank 0 alone), and the reference bound as kapi-reduce does.
#include <climits>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include <kapi/reduce.hpp>

#include "common.hpp"

namespace mpi_apps {
namespace {

template <class T>
struct Fill {
  Kokkos::View<T*, Memory> x;
  std::uint64_t first;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t i) const { x(i) = T(unit_hash(first + i)); }
};

struct Decomposition {
  std::size_t n = 0, chunk = 0, chunks = 0;  // chunks actually used (the last may be short)
  kapi::mpi::Block mine;                     // this rank's chunks
  std::size_t begin(std::size_t c) const { return std::min(n, c * chunk); }
  std::size_t end(std::size_t c) const { return std::min(n, (c + 1) * chunk); }
};

Decomposition decompose(std::size_t n, std::size_t max_chunks, const kapi::mpi::Communicator& comm) {
  Decomposition d;
  d.n = n;
  const std::size_t align = 1024;
  d.chunk = std::max<std::size_t>(align, (n + max_chunks - 1) / max_chunks);
  d.chunk = (d.chunk + align - 1) / align * align;
  d.chunks = n ? (n + d.chunk - 1) / d.chunk : 0;
  d.mine = kapi::mpi::block(d.chunks, comm.size(), comm.rank());
  return d;
}

/// One workspace per chunk: the chunks' reductions are all queued before the first
/// result is read (a workspace serves one reduction in flight).
template <class T>
std::vector<kapi::ReduceWorkspace<T, Space>> workspaces(std::size_t count, std::size_t chunk) {
  std::vector<kapi::ReduceWorkspace<T, Space>> ws;
  for (std::size_t c = 0; c < count; ++c) ws.emplace_back(Space(), chunk);
  return ws;
}

/// The sums of chunks [first, first + count) of the array x, whose element 0 is global
/// element `offset`: every chunk's kapi::reduce queued on the device, then the results.
template <class T>
std::vector<T> chunk_sums(const Decomposition& d, std::size_t first, std::size_t count,
                          const Kokkos::View<const T*, Memory>& x, std::size_t offset,
                          std::vector<kapi::ReduceWorkspace<T, Space>>& ws) {
  std::vector<kapi::ReduceEvent<T, Space>> events;
  for (std::size_t c = first; c < first + count; ++c) {
    const auto part = Kokkos::subview(x, std::make_pair(d.begin(c) - offset, d.end(c) - offset));
    events.push_back(kapi::reduce_async(Space(), part, kapi::plus<T>(), ws[c - first]));
  }
  std::vector<T> sums;
  for (auto& e : events) sums.push_back(e.get());
  return sums;
}

template <class T>
T fold(const std::vector<T>& sums) {
  T total = T(0);
  for (const T& s : sums) total += s;
  return total;
}

template <class T>
bool run_type(const kapi::mpi::Communicator& world, std::size_t n, std::size_t max_chunks, int repeats,
              const std::string& verify, std::vector<kapi_apps::JsonObject>& items, const char* type) {
  const auto d = decompose(n, max_chunks, world);
  const std::size_t offset = d.begin(d.mine.begin), local = d.begin(d.mine.begin + d.mine.size) - offset;
  Kokkos::View<T*, Memory> x(Kokkos::view_alloc(Kokkos::WithoutInitializing, "x"), local);
  Kokkos::parallel_for("mpi reduce fill", Kokkos::RangePolicy<Space>(0, local), Fill<T>{x, offset});
  Space().fence();
  auto ws = workspaces<T>(d.mine.size, d.chunk);
  T result = T(0);
  const auto time = time_collective(world, repeats, [&] {
    result = fold(kapi::mpi::all_gather(world, chunk_sums<T>(d, d.mine.begin, d.mine.size, x, offset, ws)));
  });

  // The reference: the exact sum bounded through a compensated double sum of the same
  // values, each rank's part on the host, added in rank order.
  bool pass = true;
  double error = 0, bound = 0, reference = 0;
  bool single_equal = true;
  if (verify != "none") {
    double sum = 0, comp = 0, abs_sum = 0;
    for (std::size_t i = 0; i < local; ++i) {
      const double v = double(T(unit_hash(offset + i))), t = sum + v;
      comp += std::fabs(sum) >= std::fabs(v) ? (sum - t) + v : (v - t) + sum;
      sum = t;
      abs_sum += std::fabs(v);
    }
    const auto parts = kapi::mpi::all_gather(world, std::vector<double>{sum + comp, abs_sum});
    double total_abs = 0;
    for (std::size_t r = 0; r < parts.size(); r += 2) reference += parts[r], total_abs += parts[r + 1];
    // Each chunk's tree, then the chunk fold (depth = the number of chunks).
    const std::size_t depth = kapi::reduce_depth<T>(Space(), d.chunk) + d.chunks;
    bound = double(depth) * double(std::numeric_limits<T>::epsilon()) * total_abs;
    error = std::fabs(double(result) - reference);
    pass = error <= bound;
    if (verify == "all" && world.rank() == 0) {
      // The single-rank result: rank 0 alone, the whole array, chunk by chunk in order.
      Kokkos::View<T*, Memory> all(Kokkos::view_alloc(Kokkos::WithoutInitializing, "x whole"), n);
      Kokkos::parallel_for("mpi reduce fill whole", Kokkos::RangePolicy<Space>(0, n), Fill<T>{all, 0});
      Space().fence();
      auto all_ws = workspaces<T>(d.chunks, d.chunk);
      const T single = fold(chunk_sums<T>(d, 0, d.chunks, all, 0, all_ws));
      single_equal = std::memcmp(&single, &result, sizeof(T)) == 0;
      if (!single_equal)
        std::printf("reduce %s: %d ranks give %.17g, one rank %.17g: not the same bits\n", type, world.size(),
                    double(result), double(single));
    }
    int ok = pass && single_equal, all_ok = 0;
    KAPI_MPI_CHECK(MPI_Allreduce, &ok, &all_ok, 1, MPI_INT, MPI_MIN, world.get());
    pass = all_ok != 0;
  }
  const double gbs = double(n) * sizeof(T) / time.median_s * 1e-9;
  say(world, "%-7s %14zu %6zu %10zu %24.17g %11.3g %11.3g %11.4f %9.2f  %s\n", type, n, d.chunks, d.chunk,
      double(result), error, bound, time.median_s * 1e3, gbs,
      verify == "none" ? "-"
      : pass           ? "PASS"
                       : "FAIL");
  items.push_back(kapi_apps::JsonObject()
                      .add("type", type)
                      .add("variant", "chunked-kapi-reduce")
                      .add("n", n)
                      .add("chunks", d.chunks)
                      .add("chunk", d.chunk)
                      .add("pass", pass)
                      .add("verified", verify)
                      .add("value", double(result))
                      .add("reference", reference)
                      .add("error", error)
                      .add("bound", bound)
                      .add("median_s", time.median_s)
                      .add("min_s", time.min_s)
                      .add("gb_per_s", gbs));
  return pass;
}

}  // namespace

int run_reduce(const kapi::mpi::Communicator& world, kapi_apps::Args& args) {
  const bool per_rank = args.has("n-per-rank");
  // 2^48 elements: past any machine's memory, and far enough from 2^64 that the chunk
  // arithmetic cannot wrap.
  const std::size_t limit = std::size_t(1) << 48;
  const std::size_t n_arg =
      per_rank ? args.count("n-per-rank", 1, 1, limit) : args.count("n", std::size_t(1) << 24, 0, limit);
  std::size_t n = n_arg;
  if (per_rank && (__builtin_mul_overflow(n_arg, std::size_t(world.size()), &n) || n > limit))
    throw kapi_apps::usage_error("--n-per-rank " + std::to_string(n_arg) + " on " + std::to_string(world.size()) +
                                 " ranks: more than 2^48 elements in all");
  const std::size_t chunks = args.count("chunks", 64, 1, std::size_t(1) << 20);
  const auto types = element_types(args, "float");
  const int repeats = static_cast<int>(args.count("repeat", 10, 1, INT_MAX));
  const std::string verify = verify_option(args);
  args.expect_no_more();

  say(world, "kapi-mpi reduce: %d ranks, %s, %zu elements%s, %zu chunks at most, %d repeats\n", world.size(),
      Space::name(), n, per_rank ? " (n-per-rank x ranks)" : "", chunks, repeats);
  say(world, "%-7s %14s %6s %10s %24s %11s %11s %11s %9s  %s\n", "type", "n", "chunks", "chunk", "result", "|error|",
      "bound", "median ms", "GB/s", "check");
  std::vector<kapi_apps::JsonObject> items;
  bool all = true;
  for (const auto& t : types) {
    if (t == "float") all = run_type<float>(world, n, chunks, repeats, verify, items, "float") && all;
    if (t == "double") all = run_type<double>(world, n, chunks, repeats, verify, items, "double") && all;
  }
  if (world.rank() == 0) {
    kapi_apps::print_summary(summary(world, "mpi-reduce")
                                 .add("n", n)
                                 .add("scaling", per_rank ? "weak" : "strong")
                                 .add("repeats", repeats)
                                 .add("results", items)
                                 .add("pass", all));
    std::printf("%s\n", all ? "PASS" : "FAIL");
  }
  return all ? 0 : 1;
}

}  // namespace mpi_apps
