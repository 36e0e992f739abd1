# SPDX-License-Identifier: Apache-2.0
# CTest case: `./kapi test` skips exactly the cases that passed before on the same inputs
# (scripts/test-cache.py; tests/test_cache_check.py builds a small project in a scratch
# folder, changes its program, its environment and its place, and checks each selection).
if(NOT KAPI_CHECK_SOURCES)  # a source check (tests/CMakeLists.txt)
  return()
endif()
find_package(Python3 REQUIRED COMPONENTS Interpreter)
add_test(NAME test_cache_check COMMAND Python3::Interpreter ${CMAKE_CURRENT_LIST_DIR}/test_cache_check.py
                                       ${PROJECT_SOURCE_DIR})
set_tests_properties(test_cache_check PROPERTIES TIMEOUT 120 PROCESSORS 1)
