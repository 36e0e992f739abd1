// SPDX-License-Identifier: Apache-2.0
// kapi-mpi reduce: the sum of an array spread over the ranks, with a result that does not
// depend on the rank count or on timing.
//
// The decomposition is global and fixed by n alone: the array is cut into `chunks` chunks
// of equal size (a multiple of 1024 elements, so every chunk starts equally aligned in
// any rank's allocation), and each rank owns a contiguous run of whole chunks
// (kapi::mpi::block over the chunk count). Every rank sums each of its chunks (chunk_sums:
// on a GPU two launches for all of them, on a host kapi::reduce per chunk); the chunk sums are gathered in chunk order on every rank
// (kapi::mpi::all_gather) and added left to right. Each chunk's sum is the same whichever
// rank computes it, and the final order is the chunk order, so 1, 2, 3 or 4 ranks give
// the same bits as one rank reducing the whole array chunk by chunk; the check compares
// exactly that (computed on rank 0 alone), and the reference bound as kapi-reduce does.
#include <climits>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include <kapi/integer_math.hpp>
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

// On a GPU a rank's chunks are summed by two launches for all of them, whatever their
// number: launch (and result copy) costs per chunk made one rank with 64 chunks slower
// per element than four ranks with 16 each. Each chunk is cut into tiles of
// tile_items x tile_elements elements; a work-item adds its tile_elements in order, its
// group's tree (reduce_over_group) makes the tile's sum, then one group per chunk adds its
// tiles' sums (each work-item every tile_items-th, in order) and takes the group's tree.
// The tree depends on the chunk's size alone: the same bits on any rank. Host spaces keep
// one kapi::reduce per chunk (a launch costs little there, and group collectives run on
// the host engine's work-item contexts). --chunk-sums tiles|per-chunk chooses either.
enum class ChunkSums { tiles, per_chunk };
inline constexpr ChunkSums default_chunk_sums =
    kapi::is_host_execution_space_v<Space> ? ChunkSums::per_chunk : ChunkSums::tiles;
inline constexpr std::size_t tile_items = 256, tile_elements = 16, tile = tile_items * tile_elements;

/// Sums of a rank's tiles: group g sums tile g % tiles_per_chunk of chunk g / tiles_per_chunk.
template <class T>
struct TileSums {
  Kokkos::View<const T*, Memory> x;  // the rank's chunks, back to back
  Kokkos::View<T*, Memory> partials;
  std::size_t chunk, tiles_per_chunk;
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it) const {
    const std::size_t g = it.get_group(0), c = g / tiles_per_chunk, l = it.get_local_id(0);
    const std::size_t begin = c * chunk + (g % tiles_per_chunk) * tile;
    const std::size_t end = c * chunk + chunk < x.extent(0) ? c * chunk + chunk : x.extent(0);
    T s = T(0);
    for (std::size_t e = 0; e < tile_elements; ++e) {
      const std::size_t i = begin + e * tile_items + l;
      if (i < end) s += x(i);
    }
    s = kapi::reduce_over_group(it.get_group(), s, kapi::plus<T>());
    if (l == 0) partials(g) = s;
  }
};

/// Each chunk's sum from its tiles' sums: one group per chunk.
template <class T>
struct ChunkSumsOfTiles {
  Kokkos::View<const T*, Memory> partials;
  Kokkos::View<T*, Memory> sums;
  std::size_t tiles_per_chunk;
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it) const {
    const std::size_t c = it.get_group(0), l = it.get_local_id(0);
    T s = T(0);
    for (std::size_t t = l; t < tiles_per_chunk; t += tile_items) s += partials(c * tiles_per_chunk + t);
    s = kapi::reduce_over_group(it.get_group(), s, kapi::plus<T>());
    if (l == 0) sums(c) = s;
  }
};

/// The summation tree's depth for one chunk of `chunk` elements (the error bound's factor).
template <class T>
std::size_t chunk_depth(std::size_t chunk, ChunkSums mode) {
  if (mode == ChunkSums::per_chunk) return kapi::reduce_depth<T>(Space(), chunk);
  const std::size_t tiles = kapi::ceil_div(chunk, tile), group_tree = kapi::ceil_log2(tile_items);
  return tile_elements + group_tree + kapi::ceil_div(tiles, tile_items) + group_tree;
}

/// What the chunk sums need between calls: per-chunk reduce workspaces (host), or the
/// tiles' partial sums and the chunks' sums (device).
template <class T>
struct ChunkWork {
  ChunkSums mode;
  std::vector<kapi::ReduceWorkspace<T, Space>> ws;
  Kokkos::View<T*, Memory> partials, sums;
  ChunkWork(std::size_t count, std::size_t chunk, ChunkSums m) : mode(m) {
    if (mode == ChunkSums::tiles) {
      const std::size_t tiles = kapi::ceil_div(chunk, tile);
      partials = Kokkos::View<T*, Memory>("mpi reduce tile sums", std::max<std::size_t>(1, count * tiles));
      sums = Kokkos::View<T*, Memory>("mpi reduce chunk sums", std::max<std::size_t>(1, count));
    } else {
      for (std::size_t c = 0; c < count; ++c) ws.emplace_back(Space(), chunk);
    }
  }
};

/// The sums of chunks [first, first + count) of the array x, whose element 0 is global
/// element `offset` (the start of chunk `first`).
template <class T>
std::vector<T> chunk_sums(const Decomposition& d, std::size_t first, std::size_t count,
                          const Kokkos::View<const T*, Memory>& x, std::size_t offset, ChunkWork<T>& work) {
  std::vector<T> sums;
  if (count == 0) return sums;
  if (work.mode == ChunkSums::tiles) {
    const std::size_t tiles = kapi::ceil_div(d.chunk, tile);
    kapi::call_kernel(std::string("mpi reduce: tile sums"), Space(), TileSums<T>{x, work.partials, d.chunk, tiles},
                      kapi::NdRange<1>({count * tiles * tile_items}, {tile_items}));
    kapi::call_kernel(std::string("mpi reduce: chunk sums"), Space(),
                      ChunkSumsOfTiles<T>{work.partials, work.sums, tiles},
                      kapi::NdRange<1>({count * tile_items}, {tile_items}));
    sums.resize(count);
    Kokkos::deep_copy(Kokkos::View<T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(sums.data(), count),
                      Kokkos::subview(work.sums, std::make_pair(std::size_t(0), count)));
  } else {
    std::vector<kapi::ReduceEvent<T, Space>> events;
    for (std::size_t c = first; c < first + count; ++c) {
      const auto part = Kokkos::subview(x, std::make_pair(d.begin(c) - offset, d.end(c) - offset));
      events.push_back(kapi::reduce_async(Space(), part, kapi::plus<T>(), work.ws[c - first]));
    }
    for (auto& e : events) sums.push_back(e.get());
  }
  return sums;
}

template <class T>
T fold(const std::vector<T>& sums) {
  T total = T(0);
  for (const T& s : sums) total += s;
  return total;
}

template <class T>
bool run_type(const kapi::mpi::Communicator& world, std::size_t n, std::size_t max_chunks, ChunkSums mode, int repeats,
              const std::string& verify, std::vector<kapi_apps::JsonObject>& items, const char* type) {
  const auto d = decompose(n, max_chunks, world);
  const std::size_t offset = d.begin(d.mine.begin), local = d.begin(d.mine.begin + d.mine.size) - offset;
  Kokkos::View<T*, Memory> x(Kokkos::view_alloc(Kokkos::WithoutInitializing, "x"), local);
  Kokkos::parallel_for("mpi reduce fill", Kokkos::RangePolicy<Space>(0, local), Fill<T>{x, offset});
  Space().fence();
  ChunkWork<T> ws(d.mine.size, d.chunk, mode);
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
    const std::size_t depth = chunk_depth<T>(d.chunk, mode) + d.chunks;
    bound = double(depth) * double(std::numeric_limits<T>::epsilon()) * total_abs;
    error = std::fabs(double(result) - reference);
    pass = error <= bound;
    if (verify == "all" && world.rank() == 0) {
      // The single-rank result: rank 0 alone, the whole array, chunk by chunk in order.
      Kokkos::View<T*, Memory> all(Kokkos::view_alloc(Kokkos::WithoutInitializing, "x whole"), n);
      Kokkos::parallel_for("mpi reduce fill whole", Kokkos::RangePolicy<Space>(0, n), Fill<T>{all, 0});
      Space().fence();
      ChunkWork<T> all_ws(d.chunks, d.chunk, mode);
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
                      .add("variant", mode == ChunkSums::tiles ? "chunk-tiles" : "chunked-kapi-reduce")
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
  const std::string sums = args.text("chunk-sums", default_chunk_sums == ChunkSums::tiles ? "tiles" : "per-chunk");
  if (sums != "tiles" && sums != "per-chunk")
    throw kapi_apps::usage_error("--chunk-sums: expected tiles or per-chunk, got '" + sums + "'");
  const ChunkSums mode = sums == "tiles" ? ChunkSums::tiles : ChunkSums::per_chunk;
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
    if (t == "float") all = run_type<float>(world, n, chunks, mode, repeats, verify, items, "float") && all;
    if (t == "double") all = run_type<double>(world, n, chunks, mode, repeats, verify, items, "double") && all;
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
