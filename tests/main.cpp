// GoogleTest main with Kokkos initialised around the whole run (the kapi_test_main library:
// kapi_tests and the guide's typed tests link it).
//
// Listing the tests (--gtest_list_tests, as ctest's test discovery does) starts no Kokkos
// and prints nothing else, so that listing works on a machine without the build's device.
// With --kapi_plain_list as well, typed tests are listed without their "# TypeParam = ..."
// comments, so that CMake's gtest_discover_tests names each ctest entry as GoogleTest
// names the test ("ReduceApp/OpenMP.Int32"); the flag does nothing in a normal run.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

#include <cstdio>
#include <cstring>

#ifndef GTEST_FLAG_GET  // GoogleTest < 1.12
#define GTEST_FLAG_GET(name) ::testing::GTEST_FLAG(name)
#endif

namespace {

// Removes --kapi_plain_list from the command line; true when it was there.
bool take_plain_list_flag(int& argc, char** argv) {
  bool found = false;
  int out = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--kapi_plain_list") == 0) found = true;
    else argv[out++] = argv[i];
  }
  argc = out;
  argv[argc] = nullptr;
  return found;
}

void list_tests_plain() {
  const auto& unit = *::testing::UnitTest::GetInstance();
  for (int s = 0; s < unit.total_test_suite_count(); ++s) {
    const ::testing::TestSuite& suite = *unit.GetTestSuite(s);
    std::printf("%s.\n", suite.name());
    for (int t = 0; t < suite.total_test_count(); ++t) std::printf("  %s\n", suite.GetTestInfo(t)->name());
  }
}

}  // namespace

int main(int argc, char** argv) {
  const bool plain_list = take_plain_list_flag(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  if (GTEST_FLAG_GET(list_tests)) {
    if (!plain_list) return RUN_ALL_TESTS();  // GoogleTest's own listing
    list_tests_plain();
    return 0;
  }
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
