# SPDX-License-Identifier: Apache-2.0
# CTest case: the rules on the source tree that no compiler checks (scripts/check-tree.sh):
# kapi's internals (the detail namespace, detail/ headers) named nowhere outside
# framework/ and tests/, and no CMake code that needs a newer CMake than the minimum
# without saying so. A failure lists each offending line as path:line.
if(NOT KAPI_CHECK_SOURCES)  # a source check (tests/CMakeLists.txt)
  return()
endif()
find_program(kapi_bash NAMES bash REQUIRED)
add_test(NAME tree_check COMMAND ${kapi_bash} ${PROJECT_SOURCE_DIR}/scripts/check-tree.sh ${PROJECT_SOURCE_DIR})
set_tests_properties(tree_check PROPERTIES TIMEOUT 120)
# The umbrella-header rule on a scratch tree: it fails, naming the test's line and not
# the example's (examples are written as users write them).
add_test(NAME tree_check_umbrella COMMAND ${CMAKE_COMMAND} -DNARGS=3 -DARG0=${kapi_bash}
  -DARG1=${CMAKE_CURRENT_SOURCE_DIR}/tree_check_umbrella.sh -DARG2=${PROJECT_SOURCE_DIR}/scripts/check-tree.sh
  -DSTATUS=1 "-DEXPECT=the kapi headers the file uses\\):\n  tests/test_demo.cpp:2: #include <kapi/kapi.hpp>\n$"
  -P ${PROJECT_SOURCE_DIR}/cmake/kapi_expect_exit.cmake)
set_tests_properties(tree_check_umbrella PROPERTIES TIMEOUT 60)
