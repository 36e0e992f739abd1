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
