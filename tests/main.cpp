// GoogleTest main with Kokkos initialised around the whole run.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  Kokkos::initialize(argc, argv);
  int result = 0;
  {
    std::printf("kapi tests: Kokkos %d, default execution space %s, concurrency %d\n", KOKKOS_VERSION,
                Kokkos::DefaultExecutionSpace::name(), Kokkos::DefaultExecutionSpace().concurrency());
    result = RUN_ALL_TESTS();
  }
  Kokkos::finalize();
  return result;
}
