// SPDX-License-Identifier: Apache-2.0
// kapi-mpi heat3d: the heat3d app (apps/heat3d) on a 3-d Cartesian decomposition. Each
// rank holds its block with a one-point ghost layer; every step exchanges the six face
// halos with the neighbours (kapi::mpi::HaloExchange: put into their ghosts GPU to GPU
// within a node, else packed and staged through pinned host memory unless MPI is
// CUDA-aware) while it updates the points that read no exchanged ghost, then one boundary
// slab per exchanged face (distributed_step; --overlap off, or auto when every face moves
// GPU to GPU: exchange, then one update), each with the app's kernel. At the edges of the
// global domain the ghost layer keeps the global boundary values, so every point sees the
// same inputs as on one rank: the result is the single-rank result bit for bit (same
// kernel, same arithmetic), which the check compares on rank 0, as well as the host
// reference within the app's bound.
#include <array>
#include <climits>
#include <cstring>
#include <optional>
#include <vector>

#include <heat3d/heat3d.hpp>
#include <heat3d/reference.hpp>

#include "common.hpp"
#include "overlap_boxes.hpp"

namespace mpi_apps {
namespace {

template <class T>
struct FillInitial {
  heat3d::Grid<T, Memory> u;
  std::uint64_t o0, o1, o2, e1, e2;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t j, std::int64_t k) const {
    u(i, j, k) = T(heat3d::initial_value(o0 + i, o1 + j, o2 + k, e1, e2));
  }
};

/// Fills u, a block whose element (0, 0, 0) is global padded point (o0, o1, o2).
template <class T>
void fill(const heat3d::Grid<T, Memory>& u, std::size_t o0, std::size_t o1, std::size_t o2, std::size_t e1,
          std::size_t e2) {
  using Policy = Kokkos::MDRangePolicy<Space, Kokkos::Rank<3>, Kokkos::IndexType<std::int64_t>>;
  Kokkos::parallel_for(
      "mpi heat3d fill",
      Policy({0, 0, 0}, {std::int64_t(u.extent(0)), std::int64_t(u.extent(1)), std::int64_t(u.extent(2))}),
      FillInitial<T>{u, o0, o1, o2, e1, e2});
  Space().fence();
}

/// Starts out = one step from in at the padded points [lo, hi) of the block (nothing when
/// the box is empty), by the variant's own kernel on the sub-block that box and its
/// one-point rim span: each point computes the same expression from the same inputs as
/// over the whole block.
template <class Grid, class T>
std::optional<heat3d::StepInFlight<Space>> start_box(const std::string& variant, const Grid& in, const Grid& out,
                                                     T alpha, std::array<std::size_t, 3> lo,
                                                     std::array<std::size_t, 3> hi) {
  for (int d = 0; d < 3; ++d)
    if (lo[d] >= hi[d]) return std::nullopt;
  const auto box = [&](const Grid& g) {
    return Kokkos::subview(g, std::make_pair(lo[0] - 1, hi[0] + 1), std::make_pair(lo[1] - 1, hi[1] + 1),
                           std::make_pair(lo[2] - 1, hi[2] + 1));
  };
  return heat3d::start_step(variant, Space(), box(in), box(out), alpha);
}

/// One distributed step, out from in. With overlap, the halo exchange runs behind the
/// update of every point that reads no exchanged ghost: the faces are packed and posted,
/// that kernel is launched (asynchronous on a GPU), MPI completes the transfers meanwhile,
/// and once the ghosts are in, one slab per exchanged face follows (overlap_boxes.hpp).
/// Without overlap (or with nothing to exchange), the
/// exchange completes before one update of the whole interior.
template <class T, class Halo>
void distributed_step(const std::string& variant, Halo& halo, const heat3d::Grid<T, Memory>& in,
                      const heat3d::Grid<T, Memory>& out, T alpha, bool overlap) {
  if (!overlap || !halo.has_neighbours()) {
    halo.exchange(Space());
    heat3d::step(variant, Space(), in, out, alpha);
    return;
  }
  const std::size_t n[3] = {in.extent(0) - 2, in.extent(1) - 2, in.extent(2) - 2};
  const auto boxes = overlap_boxes(n, [&](int d, int side) { return halo.has_neighbour(d, side); });
  // The inner update must be in flight while MPI moves the faces (finish() waits in MPI):
  // a launch that returned only when done would serialise the two.
  halo.start(Space());
  auto inner_step = start_box(variant, in, out, alpha, boxes.inner[0], boxes.inner[1]);
  halo.finish(Space());
  if (inner_step) inner_step->wait();
  for (const Box& slab : boxes.slabs)
    if (auto s = start_box(variant, in, out, alpha, slab[0], slab[1])) s->wait();
}

/// --overlap auto: split the update around the exchange unless every face moves GPU to
/// GPU. Faces put into the neighbours' ghosts take less than the split's extra launches
/// and its less efficient slabs cost (results/cuda-hopper-h200x4-2026-11-28-mpi), while
/// faces staged through the host, or sent by MPI, take long enough to hide.
bool overlap_pays(const kapi::mpi::Communicator& comm) {
  return kapi::mpi::transport<Memory>(comm) != kapi::mpi::Transport::peer_copies;
}

template <class T>
bool run_type(const kapi::mpi::CartesianGrid<3>& grid, const std::size_t (&n)[3], int steps, T alpha, int repeats,
              const std::string& variant, bool overlap, const std::string& verify,
              std::vector<kapi_apps::JsonObject>& items, const char* type) {
  const auto& comm = grid.comm();
  kapi::mpi::Block b[3];
  for (int d = 0; d < 3; ++d) b[d] = grid.block_of(d, n[d]);
  using Grid = heat3d::Grid<T, Memory>;
  Grid u("u", b[0].size + 2, b[1].size + 2, b[2].size + 2), v("v", b[0].size + 2, b[1].size + 2, b[2].size + 2);
  // Global padded coordinates: the block's interior starts at global interior b.begin,
  // padded index b.begin + 1; its element 0 is padded index b.begin.
  const auto start = [&] {
    fill(u, b[0].begin, b[1].begin, b[2].begin, n[1] + 2, n[2] + 2);
    fill(v, b[0].begin, b[1].begin, b[2].begin, n[1] + 2, n[2] + 2);
  };
  kapi::mpi::HaloExchange<T, Memory> halo_u(grid, u), halo_v(grid, v);
  const auto advance = [&] {
    for (int s = 0; s < steps; ++s) {
      distributed_step(variant, s % 2 ? halo_v : halo_u, s % 2 ? v : u, s % 2 ? u : v, alpha, overlap);
    }
  };
  start();
  const auto time = time_collective(comm, repeats, advance);  // (steps from wherever the last run ended)

  bool pass = true, single_equal = true;
  double error = 0, bound = 0;
  if (verify != "none") {
    start();
    advance();
    const Grid& result = steps % 2 ? v : u;
    // Rank 0 gathers every interior, in rank order, into the global grid.
    using Host = Kokkos::View<T***, Kokkos::LayoutRight, Kokkos::HostSpace>;
    Host mine("mine", b[0].size, b[1].size, b[2].size);
    {
      auto interior =
          Kokkos::subview(result, std::make_pair(std::size_t(1), b[0].size + 1),
                          std::make_pair(std::size_t(1), b[1].size + 1), std::make_pair(std::size_t(1), b[2].size + 1));
      Kokkos::View<T***, Kokkos::LayoutRight, Memory> packed("packed", b[0].size, b[1].size, b[2].size);
      Kokkos::deep_copy(packed, interior);
      Kokkos::deep_copy(mine, packed);
    }
    const auto blocks = kapi::mpi::all_gather(
        comm, std::vector<unsigned long long>{b[0].begin, b[0].size, b[1].begin, b[1].size, b[2].begin, b[2].size});
    if (comm.rank() != 0) kapi::mpi::send(comm, mine, 0, 11);
    int ok = 1;
    if (comm.rank() == 0) {
      Host global("global", n[0], n[1], n[2]);
      for (int r = 0; r < comm.size(); ++r) {
        const auto* q = &blocks[std::size_t(6 * r)];
        Host part = r == 0 ? mine : Host("part", q[1], q[3], q[5]);
        if (r != 0) kapi::mpi::recv(comm, part, r, 11);
        for (std::size_t i = 0; i < q[1]; ++i)
          for (std::size_t j = 0; j < q[3]; ++j)
            for (std::size_t k = 0; k < q[5]; ++k) global(q[0] + i, q[2] + j, q[4] + k) = part(i, j, k);
      }
      const auto interior_of = [&](const auto& g) {
        return Kokkos::subview(g, std::make_pair(std::size_t(1), n[0] + 1), std::make_pair(std::size_t(1), n[1] + 1),
                               std::make_pair(std::size_t(1), n[2] + 1));
      };
      if (verify == "all") {
        // The single-rank result: the same kernel over the whole domain on rank 0 alone.
        Grid su("su", n[0] + 2, n[1] + 2, n[2] + 2), sv("sv", n[0] + 2, n[1] + 2, n[2] + 2);
        fill(su, 0, 0, 0, n[1] + 2, n[2] + 2);
        fill(sv, 0, 0, 0, n[1] + 2, n[2] + 2);
        const Grid single = heat3d::run(variant, Space(), su, sv, alpha, steps);
        auto hs = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), single);
        const auto hi = interior_of(hs);
        std::size_t differ = 0;
        for (std::size_t i = 0; i < n[0]; ++i)
          for (std::size_t j = 0; j < n[1]; ++j)
            for (std::size_t k = 0; k < n[2]; ++k) {
              const T a = global(i, j, k), s = hi(i, j, k);
              differ += std::memcmp(&a, &s, sizeof(T)) != 0;
            }
        single_equal = differ == 0;
        if (!single_equal)
          std::printf("heat3d %s %s: %zu points differ from the single-rank result\n", type, variant.c_str(), differ);
      }
      // The host reference, from the same start.
      Host r0("r0", n[0] + 2, n[1] + 2, n[2] + 2), r1("r1", n[0] + 2, n[1] + 2, n[2] + 2);
      heat3d::fill_initial(r0, 0, 0, 0, n[1] + 2, n[2] + 2);
      Kokkos::deep_copy(r1, r0);
      for (int s = 0; s < steps; ++s) heat3d::step_reference(s % 2 ? r1 : r0, s % 2 ? r0 : r1, alpha);
      const auto c = heat3d::compare<T>(global, interior_of(steps % 2 ? r1 : r0), steps);
      error = c.max_error;
      bound = c.bound;
      ok = c.wrong == 0 && single_equal;
    }
    KAPI_MPI_CHECK(MPI_Bcast, &ok, 1, MPI_INT, 0, comm.get());
    pass = ok != 0;
  }
  const double points = double(n[0]) * double(n[1]) * double(n[2]) * steps;
  say(comm, "%-7s %-10s %6zu x %6zu x %6zu %11.3g %11.3g %11.4f %12.3f %11.3g  %s\n", type, variant.c_str(), n[0], n[1],
      n[2], error, bound, time.median_s * 1e3, points / time.median_s * 1e-9, double(halo_u.bytes_sent()),
      verify == "none" ? "-"
      : pass           ? "PASS"
                       : "FAIL");
  items.push_back(kapi_apps::JsonObject()
                      .add("type", type)
                      .add("variant", variant)
                      .add("nx", n[0])
                      .add("ny", n[1])
                      .add("nz", n[2])
                      .add("steps", steps)
                      .add("overlap", overlap)
                      .add("pass", pass)
                      .add("verified", verify)
                      .add("error", error)
                      .add("bound", bound)
                      .add("halo_bytes_rank0", halo_u.bytes_sent())
                      .add("median_s", time.median_s)
                      .add("min_s", time.min_s)
                      .add("gpoints_per_s", points / time.median_s * 1e-9));
  return pass;
}

}  // namespace

int run_heat3d(const kapi::mpi::Communicator& world, kapi_apps::Args& args) {
  const std::size_t limit = std::size_t(1) << 20;
  const bool weak = args.has("n-per-rank");
  const std::size_t per_rank = weak ? args.count("n-per-rank", 64, 1, limit) : 0;
  const std::size_t cube = args.count("n", 128, 1, limit);
  std::size_t n[3] = {args.count("nx", cube, 1, limit), args.count("ny", cube, 1, limit),
                      args.count("nz", cube, 1, limit)};
  const int steps = int(args.count("steps", 10, 0, INT_MAX));
  const double alpha = args.real("alpha", heat3d::default_alpha);
  const auto types = element_types(args, "double");
  auto variants = args.list("variant");
  if (variants.empty()) variants = {"nd-range"};
  for (const auto& v : variants)
    if (!heat3d::variant_table.visit(v, [](const auto&) {}))
      throw kapi_apps::usage_error("--variant: unknown variant '" + v + "'");
  const bool no_overlap = args.flag("no-overlap");
  const std::string overlap_mode = args.text("overlap", no_overlap ? "off" : "auto");
  if (no_overlap && overlap_mode != "off")
    throw kapi_apps::usage_error("--no-overlap and --overlap " + overlap_mode + " contradict each other");
  if (overlap_mode != "auto" && overlap_mode != "on" && overlap_mode != "off")
    throw kapi_apps::usage_error("--overlap: expected auto, on or off, got '" + overlap_mode + "'");
  const int repeats = static_cast<int>(args.count("repeat", 10, 1, INT_MAX));
  const std::string verify = verify_option(args);
  args.expect_no_more();

  kapi::mpi::CartesianGrid<3> grid(world);
  const bool overlap = overlap_mode == "auto" ? overlap_pays(grid.comm()) : overlap_mode == "on";
  if (weak)
    for (int d = 0; d < 3; ++d) n[d] = per_rank * std::size_t(grid.dims()[d]);
  for (int d = 0; d < 3; ++d)
    if (n[d] < std::size_t(grid.dims()[d]))
      throw kapi_apps::usage_error("the grid's extent " + std::to_string(n[d]) + " along dimension " +
                                   std::to_string(d) + " is smaller than the " + std::to_string(grid.dims()[d]) +
                                   " ranks along it");
  say(world, "kapi-mpi heat3d: %d ranks as a %d x %d x %d grid, %s, %zu x %zu x %zu%s, %d steps, %d repeats, %s\n",
      world.size(), grid.dims()[0], grid.dims()[1], grid.dims()[2], Space::name(), n[0], n[1], n[2],
      weak ? " (n-per-rank per dimension)" : "", steps, repeats,
      overlap ? "halo exchange behind the inner update" : "halo exchange, then the update");
  say(world, "%-7s %-10s %24s %11s %11s %11s %12s %11s  %s\n", "type", "variant", "grid", "|error|", "bound",
      "median ms", "Gpoints/s", "halo bytes", "check");
  std::vector<kapi_apps::JsonObject> items;
  bool all = true;
  for (const auto& t : types)
    for (const auto& v : variants) {
      if (t == "float")
        all = run_type<float>(grid, n, steps, float(alpha), repeats, v, overlap, verify, items, "float") && all;
      if (t == "double")
        all = run_type<double>(grid, n, steps, alpha, repeats, v, overlap, verify, items, "double") && all;
    }
  if (world.rank() == 0) {
    kapi_apps::print_summary(summary(world, "mpi-heat3d")
                                 .add("scaling", weak ? "weak" : "strong")
                                 .add("grid", std::to_string(grid.dims()[0]) + "x" + std::to_string(grid.dims()[1]) +
                                                  "x" + std::to_string(grid.dims()[2]))
                                 .add("repeats", repeats)
                                 .add("results", items)
                                 .add("pass", all));
    std::printf("%s\n", all ? "PASS" : "FAIL");
  }
  return all ? 0 : 1;
}

}  // namespace mpi_apps
