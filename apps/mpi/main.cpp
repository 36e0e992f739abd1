// SPDX-License-Identifier: Apache-2.0
// kapi-mpi: the distributed apps, one rank per GPU (or per host process), run under mpirun.
//   mpirun -np 4 kapi-mpi reduce --n 2^28
//   mpirun -np 4 kapi-mpi matmul --n 4096
//   mpirun -np 4 kapi-mpi heat3d --n 256 --steps 20
// Each verifies its result against the single-rank one (rank 0 computing it alone) and a
// reference, times the work across ranks (each repeat as slow as the slowest rank),
// prints a table on rank 0 and the KAPI_SUMMARY line the suite reads.
#include <cstdio>
#include <cstring>
#include <exception>
#include <optional>
#include <string>

#include "common.hpp"

namespace {

const char* const usage =
    "kapi-mpi: the distributed apps over MPI ranks (one GPU per rank, picked from the node-local rank).\n"
    "\n"
    "usage: mpirun -np P kapi-mpi APP [options] [--kokkos-... options]\n"
    "  reduce   the sum of an n-element array; bitwise the single-rank result\n"
    "           --n N | --n-per-rank N (weak scaling)   elements (default 2^24)\n"
    "           --type float,double   --chunks C (global chunks, default 64)\n"
    "           --chunk-sums tiles|per-chunk (a rank's chunks in two launches, the GPU default,\n"
    "           or one kapi::reduce each, the host default)\n"
    "  matmul   C = A.B by SUMMA on a 2-d process grid, panels broadcast on row and column\n"
    "           communicators while the previous panel's product runs\n"
    "           --n N (square) or --m M --k K --n N   --n-per-rank N (weak: n = N*sqrt(P))\n"
    "           --type float,double   --panel W|auto (auto: all of K on one rank; else an owner's\n"
    "           block, or 256 where panels are staged through host memory)\n"
    "           --grid PRxPC (default: balanced)\n"
    "  heat3d   7-point Jacobi steps on a 3-d decomposition with halo exchange; bitwise the\n"
    "           single-rank result\n"
    "           --n N (cube) or --nx --ny --nz   --n-per-rank N (weak: an N^3 block per rank)\n"
    "           --steps S (default 10)   --variant nd-range|phased|range (default nd-range)\n"
    "           --overlap auto|on|off (on: the update of the inner points hides the halo\n"
    "           exchange; off, or --no-overlap: the exchange completes first; auto: off where\n"
    "           every face moves GPU to GPU, else on)\n"
    "common:    --repeat R (timed runs after a warm-up, default 10; median reported)\n"
    "           --verify all|reference|none (default all: the reference bound and the\n"
    "                    single-rank result; sweeps at large sizes use none)\n"
    "Exit status: 0 verified, 1 a verification failed, 2 bad arguments or an error (named, with its rank).\n";

}  // namespace

int main(int argc, char** argv) {
  const std::string program = argc > 0 ? argv[0] : "kapi-mpi";
  std::optional<kapi::mpi::Environment> env;
  try {
    env.emplace(argc, argv);
  } catch (const std::exception& e) {  // thrown on every rank (a collective check), MPI ended
    std::fprintf(stderr, "%s: error: %s\n", program.c_str(), e.what());
    return 2;
  }
  const auto& world = env->world();
  try {
    mpi_apps::check_same_arguments(world, argc, argv);
    if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
      mpi_apps::say(world, "%s", usage);
      return argc < 2 ? 2 : 0;
    }
    const std::string app = argv[1];
    kapi_apps::Args args(argc - 1, argv + 1);
    if (app == "reduce") return mpi_apps::run_reduce(world, args);
    if (app == "matmul") return mpi_apps::run_summa(world, args);
    if (app == "heat3d") return mpi_apps::run_heat3d(world, args);
    throw kapi_apps::usage_error("unknown app '" + app + "' (reduce, matmul or heat3d; see --help)");
  } catch (const kapi_apps::usage_error& e) {
    // Every rank parsed the same command line: rank 0 says it once, all exit with 2.
    if (world.rank() == 0) std::fprintf(stderr, "%s: %s\n", program.c_str(), e.what());
    return 2;
  } catch (const std::exception& e) {
    // One rank's error: the others may wait for it in a collective, so end the job.
    std::fprintf(stderr, "%s: rank %d: error: %s\n", program.c_str(), world.rank(), e.what());
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  return 2;
}
