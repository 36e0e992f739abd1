// GoogleTest main with Kokkos initialised around the whole run (the kapi_test_main library:
// kapi_tests and the guide's typed tests link it).
//
// Listing the tests (--gtest_list_tests, as ctest's test discovery does) starts no Kokkos
// and prints nothing but the list, so that it works on a machine without the build's
// device, and lists typed tests without GoogleTest's "# TypeParam = ..." comments: the
// space is in the suite's name already ("ReduceApp/OpenMP."), and CMake's
// gtest_discover_tests would fold the comment into the ctest names.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

#include <cstdio>
#include <sstream>
#include <string>

#ifndef GTEST_FLAG_GET  // GoogleTest < 1.12
#define GTEST_FLAG_GET(name) ::testing::GTEST_FLAG(name)
#endif

namespace {

int list_tests() {
  ::testing::internal::CaptureStdout();
  const int result = RUN_ALL_TESTS();
  std::istringstream listing(::testing::internal::GetCapturedStdout());
  for (std::string line; std::getline(listing, line);) {
    const auto comment = line.find("  # ");
    if (comment != std::string::npos) line.erase(comment);
    std::printf("%s\n", line.c_str());
  }
  return result;
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (GTEST_FLAG_GET(list_tests)) return list_tests();
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
