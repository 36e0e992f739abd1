// SPDX-License-Identifier: Apache-2.0
// kapi-mpi matmul: C = A·B by SUMMA (van de Geijn and Watts) on a 2-d process grid.
//
// Rank (r, c) of a PR×PC grid owns block (r, c) of A (m×k), B (k×n) and C (m×n): rows
// and columns split by kapi::mpi::block, so no extent needs to divide. K is walked in
// panels of at most `panel` columns that never straddle an owner's boundary (in A's
// column split over PC or B's row split over PR). For each panel the owning column of
// ranks broadcasts its columns of A along its grid row, the owning row its rows of B
// down its grid column, and every rank adds the product of the two panels into its block
// of C in place, by the tuned kernel's accumulating form (apps/matmul tuned.hpp).
//
// Panel width: --panel W, or auto (auto_panel_width: all of K on one rank, an owner's
// block where panels move without the host, 256 where they are staged through it).
//
// Overlap: panels are double-buffered. Panel p + 1's broadcasts are posted before panel
// p's product is launched (asynchronously: kapi::call_kernel_async), and the host waits
// for them — driving MPI's progress — while the device multiplies; panel p + 1 is then
// unstaged, and its product queued behind p's.
//
// Check: rank 0 gathers C and compares it with the product of the whole matrices by the
// same tuned kernel on rank 0 alone (the sums run in another order — panels of other
// widths — so within 2·K·eps·(|A|·|B|)_ij of it, each being within K·eps of the exact
// product) and with a double-precision host reference (matmul/reference.hpp), both on
// sampled rows (every row up to 64 rows, else 64 spread over C and the last).
#include <climits>
#include <cmath>

#include <matmul/reference.hpp>
#include <matmul/tuned.hpp>

#include "common.hpp"

namespace mpi_apps {
namespace {

template <class T>
using Matrix = Kokkos::View<T**, Kokkos::LayoutRight, Memory>;

/// Entry (i, j) of A (which = 0) or B (which = 1): deterministic, in [-0.5, 0.5).
KOKKOS_INLINE_FUNCTION double entry(int which, std::uint64_t i, std::uint64_t j, std::uint64_t cols) {
  return unit_hash((std::uint64_t(which) << 60) + i * cols + j) - 0.5;
}

template <class T>
struct FillBlock {
  Matrix<T> x;
  int which;
  std::uint64_t row0, col0, cols;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t j) const {
    x(i, j) = T(entry(which, row0 + i, col0 + j, cols));
  }
};

template <class T>
Matrix<T> make_block(const char* label, int which, kapi::mpi::Block rows, kapi::mpi::Block cols,
                     std::size_t total_cols) {
  Matrix<T> x(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), rows.size, cols.size);
  using Policy = Kokkos::MDRangePolicy<Space, Kokkos::Rank<2>, Kokkos::IndexType<std::int64_t>>;
  if (rows.size && cols.size)
    Kokkos::parallel_for("mpi summa fill", Policy({0, 0}, {std::int64_t(rows.size), std::int64_t(cols.size)}),
                         FillBlock<T>{x, which, rows.begin, cols.begin, total_cols});
  Space().fence();
  return x;
}

/// Which part of `parts` holds element e of n (block()'s split).
int owner(std::size_t n, int parts, std::size_t e) {
  for (int p = 0; p < parts; ++p) {
    const auto b = kapi::mpi::block(n, parts, p);
    if (e < b.begin + b.size) return p;
  }
  return parts - 1;
}

struct Panel {
  std::size_t begin, width;
  int a_owner, b_owner;  // grid column that holds A's columns, grid row that holds B's rows
};

std::vector<Panel> panels(std::size_t k, int pr, int pc, std::size_t width) {
  std::vector<Panel> out;
  for (std::size_t s = 0; s < k;) {
    const int ao = owner(k, pc, s), bo = owner(k, pr, s);
    const auto ab = kapi::mpi::block(k, pc, ao), bb = kapi::mpi::block(k, pr, bo);
    const std::size_t e = std::min({s + width, ab.begin + ab.size, bb.begin + bb.size});
    out.push_back({s, e - s, ao, bo});
    s = e;
  }
  return out;
}

/// --panel auto. One rank: all of K (one call of the tuned kernel on A and B). Where
/// panels move without the host (host memory, device-aware MPI, peer copies), an owner's
/// whole block: few long products at the tuned kernel's speed, each hiding the next
/// block's broadcast. Staged through pinned host memory, a broadcast is slow enough that
/// the first one, which nothing hides, must be short: 256.
std::size_t auto_panel_width(const kapi::mpi::CartesianGrid<2>& grid, std::size_t k) {
  if (grid.comm().size() == 1) return k;
  if (kapi::mpi::transport<Memory>(grid.comm()) == kapi::mpi::Transport::staged) return 256;
  const std::size_t parts = std::size_t(std::max(grid.dims()[0], grid.dims()[1]));
  return (k + parts - 1) / parts;
}

template <class T>
struct Summa {
  const kapi::mpi::CartesianGrid<2>& grid;
  kapi::mpi::Communicator row, column;
  std::size_t m, n, k, width;
  kapi::mpi::Block my_rows, my_cols, my_k_cols, my_k_rows;  // C's rows and columns; A's columns; B's rows
  Matrix<T> a, b, c;
  Kokkos::View<T*, Memory> a_store[2], b_store[2];
  std::vector<kapi::mpi::Buffer<Kokkos::View<T*, Memory>>> a_buf, b_buf;
  std::vector<Panel> plan;

  Summa(const kapi::mpi::CartesianGrid<2>& g, std::size_t m_, std::size_t n_, std::size_t k_, std::size_t w)
      : grid(g), row(g.along(1)), column(g.along(0)), m(m_), n(n_), k(k_), width(w) {
    my_rows = g.block_of(0, m);
    my_cols = g.block_of(1, n);
    my_k_cols = g.block_of(1, k);
    my_k_rows = g.block_of(0, k);
    a = make_block<T>("A", 0, my_rows, my_k_cols, k);
    b = make_block<T>("B", 1, my_k_rows, my_cols, n);
    c = Matrix<T>("C", my_rows.size, my_cols.size);
    plan = panels(k, g.dims()[0], g.dims()[1], width);
    bool a_copied = false, b_copied = false;
    for (const Panel& p : plan) a_copied = a_copied || !a_direct(p), b_copied = b_copied || !b_direct(p);
    for (int i = 0; i < 2; ++i) {
      a_store[i] = Kokkos::View<T*, Memory>("A panel", a_copied ? std::max<std::size_t>(1, my_rows.size * width) : 1);
      b_store[i] = Kokkos::View<T*, Memory>("B panel", b_copied ? std::max<std::size_t>(1, width * my_cols.size) : 1);
      a_buf.emplace_back(a_store[i]);
      b_buf.emplace_back(b_store[i]);
    }
  }

  // A panel that is this rank's whole block of A (B), needed by no other rank (a grid row
  // (column) of one rank), is the block itself: no copy, no broadcast.
  bool a_direct(const Panel& p) const {
    return row.size() == 1 && p.begin == my_k_cols.begin && p.width == my_k_cols.size;
  }
  bool b_direct(const Panel& p) const {
    return column.size() == 1 && p.begin == my_k_rows.begin && p.width == my_k_rows.size;
  }
  Matrix<T> a_panel(int i, const Panel& p) const {
    return a_direct(p) ? a : Matrix<T>(a_store[i].data(), my_rows.size, p.width);
  }
  Matrix<T> b_panel(int i, const Panel& p) const {
    return b_direct(p) ? b : Matrix<T>(b_store[i].data(), p.width, my_cols.size);
  }

  /// Packs (on the owners) and posts the broadcasts of panel `p` into buffers `i`.
  void post(int i, const Panel& p, std::vector<kapi::mpi::Request>& requests) {
    if (grid.coords()[1] == p.a_owner && !a_direct(p)) {
      const std::size_t c0 = p.begin - my_k_cols.begin;
      Kokkos::deep_copy(Space(), a_panel(i, p), Kokkos::subview(a, Kokkos::ALL, std::make_pair(c0, c0 + p.width)));
    }
    if (grid.coords()[0] == p.b_owner && !b_direct(p)) {
      const std::size_t r0 = p.begin - my_k_rows.begin;
      Kokkos::deep_copy(Space(), b_panel(i, p), Kokkos::subview(b, std::make_pair(r0, r0 + p.width), Kokkos::ALL));
    }
    Space().fence();
    if (row.size() > 1) requests.push_back(a_buf[std::size_t(i)].ibroadcast(row, p.a_owner, my_rows.size * p.width));
    if (column.size() > 1)
      requests.push_back(b_buf[std::size_t(i)].ibroadcast(column, p.b_owner, p.width * my_cols.size));
  }

  void multiply() {
    Kokkos::deep_copy(c, T(0));
    std::vector<kapi::mpi::Request> next;
    if (!plan.empty()) post(0, plan[0], next);
    // C += the panels' product, in place (accumulating tuned kernel).
    using Kernel = matmul::Tuned<T, matmul::TunedShape<T, kapi::is_host_execution_space_v<Space>>,
                                 kapi::is_host_execution_space_v<Space>, true>;
    for (std::size_t q = 0; q < plan.size(); ++q) {
      const int i = int(q % 2);
      kapi::mpi::wait_all(next);  // panel q is here, on the device (panel 0; later ones are waited for below)
      if (q + 1 < plan.size()) post(1 - i, plan[q + 1], next);
      // Panel q's product, queued on the device while the host drives panel q + 1's
      // broadcasts below.
      if (my_rows.size && my_cols.size) {
        kapi::LocalAccessor<T, 1> at(Kernel::buffers * Kernel::a_tile_size), bt(Kernel::buffers * Kernel::b_tile_size);
        auto event = kapi::call_kernel_async(Space(), Kernel{}, Kernel::range(my_rows.size, my_cols.size),
                                             a_panel(i, plan[q]), b_panel(i, plan[q]), c, at, bt);
        kapi::mpi::wait_all(next);  // (unstaging copies wait for the product: they follow it on the device)
        event.wait();
      }
      kapi::mpi::wait_all(next);
      Space().fence();
    }
  }
};

template <class T>
bool run_type(const kapi::mpi::CartesianGrid<2>& grid, std::size_t m, std::size_t n, std::size_t k, std::size_t width,
              int repeats, const std::string& verify, std::vector<kapi_apps::JsonObject>& items, const char* type) {
  const auto& comm = grid.comm();
  Summa<T> summa(grid, m, n, k, width);
  const auto time = time_collective(comm, repeats, [&] { summa.multiply(); });

  bool pass = true;
  double worst = 0, worst_single = 0;
  if (verify != "none") {
    summa.multiply();
    using Host = Kokkos::View<T**, Kokkos::LayoutRight, Kokkos::HostSpace>;
    Host mine = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), summa.c);
    const auto blocks =
        kapi::mpi::all_gather(comm, std::vector<unsigned long long>{summa.my_rows.begin, summa.my_rows.size,
                                                                    summa.my_cols.begin, summa.my_cols.size});
    if (comm.rank() != 0 && mine.span()) kapi::mpi::send(comm, mine, 0, 12);
    int ok = 1;
    if (comm.rank() == 0) {
      Host global("C", m, n);
      for (int r = 0; r < comm.size(); ++r) {
        const auto* q = &blocks[std::size_t(4 * r)];
        Host part = r == 0 ? mine : Host("part", q[1], q[3]);
        if (r != 0 && part.span()) kapi::mpi::recv(comm, part, r, 12);
        for (std::size_t i = 0; i < q[1]; ++i)
          for (std::size_t j = 0; j < q[3]; ++j) global(q[0] + i, q[2] + j) = part(i, j);
      }
      const kapi::mpi::Block whole_m{0, m}, whole_n{0, n}, whole_k{0, k};
      Host ha =
          Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), make_block<T>("A whole", 0, whole_m, whole_k, k));
      Host hb =
          Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), make_block<T>("B whole", 1, whole_k, whole_n, n));
      std::vector<std::size_t> rows;
      const std::size_t stride = std::max<std::size_t>(1, m / 64);
      for (std::size_t i = 0; i < m; i += stride) rows.push_back(i);
      if (m && rows.back() != m - 1) rows.push_back(m - 1);
      const matmul::ProductReference reference(ha, hb, rows);
      const auto check = reference.check<T>(global);
      worst = check.worst;
      ok = check.wrong == 0;
      if (verify == "all") {
        // The single-rank product by the same kernel, within twice the bound of it (on the
        // sampled rows: the bound's |A|·|B| costs a product of its own).
        Matrix<T> a1("A1", m, k), b1("B1", k, n), c1("C1", m, n);
        Kokkos::deep_copy(a1, ha);
        Kokkos::deep_copy(b1, hb);
        matmul::multiply_tuned(Space(), a1, b1, c1);
        Host single = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c1);
        const double eps = double(std::numeric_limits<T>::epsilon());
        std::size_t wrong = 0;
        for (std::size_t i : rows)
          for (std::size_t j = 0; j < n; ++j) {
            double mag = 0;
            for (std::size_t p = 0; p < k; ++p) mag += std::fabs(double(ha(i, p))) * std::fabs(double(hb(p, j)));
            const double bound = 2.0 * double(k) * eps * mag + double(std::numeric_limits<T>::denorm_min());
            const double e = std::fabs(double(global(i, j)) - double(single(i, j)));
            worst_single = std::fmax(worst_single, e / bound);
            if (!(e <= bound)) ++wrong;
          }
        if (wrong)
          std::printf("matmul %s: %zu elements beyond 2 K eps |A||B| of the single-rank product\n", type, wrong);
        ok = ok && wrong == 0;
      }
    }
    KAPI_MPI_CHECK(MPI_Bcast, &ok, 1, MPI_INT, 0, comm.get());
    pass = ok != 0;
  }
  const double gflops = 2.0 * double(m) * double(n) * double(k) / time.median_s * 1e-9;
  say(comm, "%-7s %7zu %7zu %7zu %6zu %7zu %12.3g %12.3g %11.4f %10.1f  %s\n", type, m, n, k, width, summa.plan.size(),
      worst, worst_single, time.median_s * 1e3, gflops,
      verify == "none" ? "-"
      : pass           ? "PASS"
                       : "FAIL");
  items.push_back(kapi_apps::JsonObject()
                      .add("type", type)
                      .add("variant", "summa-tuned")
                      .add("m", m)
                      .add("n", n)
                      .add("k", k)
                      .add("panel", width)
                      .add("panels", summa.plan.size())
                      .add("pass", pass)
                      .add("verified", verify)
                      .add("worst_vs_reference", worst)
                      .add("worst_vs_single_rank", worst_single)
                      .add("median_s", time.median_s)
                      .add("min_s", time.min_s)
                      .add("gflops", gflops));
  return pass;
}

}  // namespace

int run_summa(const kapi::mpi::Communicator& world, kapi_apps::Args& args) {
  const std::size_t limit = std::size_t(1) << 20;
  const std::size_t square = args.count("n", 1024, 1, limit);
  const std::size_t m = args.count("m", square, 1, limit), k = args.count("k", square, 1, limit), n = square;
  const std::string panel = args.text("panel", "auto");
  const std::size_t asked = panel == "auto" ? 0 : kapi_apps::Args::parse_count(panel, "panel");
  if (panel != "auto" && (asked < 1 || asked > limit))
    throw kapi_apps::usage_error("--panel: " + panel + " is outside 1.." + std::to_string(limit));
  const auto types = element_types(args, "float");
  std::array<int, 2> dims{0, 0};
  const std::string g = args.text("grid", "");
  if (!g.empty()) {
    const auto x = g.find('x');
    if (x == std::string::npos || x == 0 || x + 1 == g.size())
      throw kapi_apps::usage_error("--grid: expected PRxPC (e.g. 2x2), got '" + g + "'");
    dims = {int(kapi_apps::Args::parse_count(g.substr(0, x), "grid")),
            int(kapi_apps::Args::parse_count(g.substr(x + 1), "grid"))};
    if (long(dims[0]) * dims[1] != world.size())
      throw kapi_apps::usage_error("--grid " + g + ": " + std::to_string(long(dims[0]) * dims[1]) + " ranks, but " +
                                   std::to_string(world.size()) + " run");
  }
  const int repeats = static_cast<int>(args.count("repeat", 10, 1, INT_MAX));
  const std::string verify = verify_option(args);
  args.expect_no_more();
  kapi::mpi::CartesianGrid<2> grid(world, dims);
  const std::size_t width = asked ? asked : auto_panel_width(grid, k);
  if (m < std::size_t(grid.dims()[0]) || n < std::size_t(grid.dims()[1]))
    throw kapi_apps::usage_error("C (" + std::to_string(m) + " x " + std::to_string(n) +
                                 ") has fewer rows or columns than the " + std::to_string(grid.dims()[0]) + " x " +
                                 std::to_string(grid.dims()[1]) + " grid");
  say(world,
      "kapi-mpi matmul (SUMMA): %d ranks as a %d x %d grid, %s, C = A.B with A %zu x %zu, B %zu x %zu, %d repeats\n",
      world.size(), grid.dims()[0], grid.dims()[1], Space::name(), m, k, k, n, repeats);
  say(world, "%-7s %7s %7s %7s %6s %7s %12s %12s %11s %10s  %s\n", "type", "m", "n", "k", "panel", "panels",
      "err/bound", "vs 1 rank", "median ms", "GFLOP/s", "check");
  std::vector<kapi_apps::JsonObject> items;
  bool all = true;
  for (const auto& t : types) {
    if (t == "float") all = run_type<float>(grid, m, n, k, width, repeats, verify, items, "float") && all;
    if (t == "double") all = run_type<double>(grid, m, n, k, width, repeats, verify, items, "double") && all;
  }
  if (world.rank() == 0) {
    kapi_apps::print_summary(summary(world, "mpi-matmul")
                                 .add("scaling", "strong")
                                 .add("grid", std::to_string(grid.dims()[0]) + "x" + std::to_string(grid.dims()[1]))
                                 .add("repeats", repeats)
                                 .add("results", items)
                                 .add("pass", all));
    std::printf("%s\n", all ? "PASS" : "FAIL");
  }
  return all ? 0 : 1;
}

}  // namespace mpi_apps
