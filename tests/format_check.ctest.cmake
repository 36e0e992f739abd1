# SPDX-License-Identifier: Apache-2.0
# CTest case: the C++ sources are formatted as .clang-format says (scripts/check-format.sh,
# clang-format 14: Debian 12's, which the setup installs). Skipped when clang-format is
# missing or of another major version (they format differently). A failure names each
# file and its first differing lines; `scripts/check-format.sh --fix` rewrites them.
if(NOT KAPI_CHECK_SOURCES)  # a source check (tests/CMakeLists.txt)
  return()
endif()
find_program(kapi_bash NAMES bash REQUIRED)
add_test(NAME format_check COMMAND ${kapi_bash} ${PROJECT_SOURCE_DIR}/scripts/check-format.sh ${PROJECT_SOURCE_DIR})
set_tests_properties(format_check PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77)
