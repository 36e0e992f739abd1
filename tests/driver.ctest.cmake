# SPDX-License-Identifier: Apache-2.0
# CTest case: the driver and its scripts against hostile input (tests/driver_checks.sh):
# a missing or broken KAPI_OFFLINE pack, helper files taken for configurations, flags a
# command does not take, missing or corrupt results for report and compare, app names the
# build cannot use. Each must end in one clear line, exit status 2 and nothing
# half-written. Runs in scratch copies under a mktemp folder with stubs for apt-get and
# cmake: offline, seconds, and safe beside the same test of another configuration.
if(NOT KAPI_CHECK_SOURCES)  # a source check (tests/CMakeLists.txt)
  return()
endif()
find_program(kapi_bash NAMES bash REQUIRED)
add_test(NAME driver_checks COMMAND ${kapi_bash} ${CMAKE_CURRENT_LIST_DIR}/driver_checks.sh ${PROJECT_SOURCE_DIR})
set_tests_properties(driver_checks PROPERTIES TIMEOUT 300)
