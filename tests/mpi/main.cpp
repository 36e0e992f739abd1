// SPDX-License-Identifier: Apache-2.0
// GoogleTest main of the MPI tests (kapi_mpi_tests): MPI and Kokkos started by
// kapi::mpi::Environment, every rank running every test; only rank 0 prints the
// progress, every rank prints its failures (prefixed with its rank), and the exit
// status is 1 on every rank when any rank failed, so mpirun's status says it.
#include <gtest/gtest.h>

#include <kapi/mpi/environment.hpp>
#include <kapi/mpi/transfer.hpp>

#include <cstdio>

#ifndef GTEST_FLAG_GET  // GoogleTest < 1.12
#define GTEST_FLAG_GET(name) ::testing::GTEST_FLAG(name)
#endif

namespace {

/// Prints only failed assertions, each with the rank that saw it.
class RankFailures : public ::testing::EmptyTestEventListener {
 public:
  explicit RankFailures(int rank) : rank_(rank) {}
  void OnTestPartResult(const ::testing::TestPartResult& r) override {
    if (r.failed())
      std::fprintf(stderr, "[rank %d] %s:%d: failure\n%s\n", rank_, r.file_name() ? r.file_name() : "?",
                   r.line_number(), r.summary());
  }

 private:
  int rank_;
};

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (GTEST_FLAG_GET(list_tests)) return RUN_ALL_TESTS();  // no MPI, no Kokkos: just the names
  int status = 0;
  {
    kapi::mpi::Environment env(argc, argv);
    const auto& world = env.world();
    if (world.rank() != 0) {
      auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
      delete listeners.Release(listeners.default_result_printer());
      listeners.Append(new RankFailures(world.rank()));
    } else {
      std::printf("kapi MPI tests: %d ranks, default execution space %s, device %d, MPI device-aware: %s\n",
                  world.size(), Kokkos::DefaultExecutionSpace::name(), env.device_id(),
                  kapi::mpi::device_aware() ? "yes" : "no");
    }
    const int mine = RUN_ALL_TESTS();
    MPI_Allreduce(&mine, &status, 1, MPI_INT, MPI_MAX, world.get());
  }
  return status;
}
