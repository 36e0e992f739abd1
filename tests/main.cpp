// SPDX-License-Identifier: Apache-2.0
// GoogleTest main with Kokkos initialised around the whole run (the kapi_test_main library:
// the kapi_tests_* executables and the guide's typed tests link it).
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
#define GTEST_FLAG_SET(name, value) (void)(::testing::GTEST_FLAG(name) = value)
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

namespace kapi_test {
// The space whose typed tests alone this executable lists and runs (tests/CMakeLists.txt
// defines it for every space but the first, whose executables run the untyped tests too).
[[gnu::weak]] const char* only_typed_space = nullptr;
}  // namespace kapi_test

int main(int argc, char** argv) {
  if (kapi_test::only_typed_space) {  // a default: --gtest_filter still chooses
    const std::string space = kapi_test::only_typed_space;
    GTEST_FLAG_SET(filter, "*/" + space + ".*");
  }
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
