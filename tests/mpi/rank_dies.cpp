// SPDX-License-Identifier: Apache-2.0
// A rank that dies in the middle of halo exchanges, killed (no exception, no MPI_Abort,
// nothing a survivor could be told): the job must end, not hang, with a message that
// names the rank. ctest runs it on 2 and 3 ranks (kapi_mpi_rank_dies_np*) and expects
// mpiexec's status and message; the survivors, waiting for the dead rank's faces, are
// ended by mpiexec.
#include <kapi/mpi/cartesian.hpp>
#include <kapi/mpi/environment.hpp>
#include <kapi/mpi/halo.hpp>

#include <csignal>
#include <cstdio>

int main(int argc, char** argv) {
  kapi::mpi::Environment env(argc, argv);
  const auto& world = env.world();
  using Space = Kokkos::DefaultExecutionSpace;
  kapi::mpi::CartesianGrid<3> grid(world, {}, {true, true, true});
  kapi::mpi::HaloExchange<double, Space::memory_space>::Block u("u", 18, 18, 18);
  kapi::mpi::HaloExchange<double, Space::memory_space> halo(grid, u);
  const int victim = world.size() - 1;
  for (long step = 0; step < 100000000; ++step) {
    if (step == 5 && world.rank() == victim) {
      std::fprintf(stderr, "rank %d: killed at step %ld\n", victim, step);
      std::fflush(stderr);
      std::raise(SIGKILL);
    }
    halo.exchange(Space());
  }
  std::printf("the exchanges went on without rank %d\n", victim);
  return 0;
}
