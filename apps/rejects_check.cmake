# SPDX-License-Identifier: Apache-2.0
# kapi-test-cache: reads only its arguments (and the programs they name: scripts/test-cache.py)
# A CTest case for a command line an app must reject (kapi_add_app_rejects in
# CMakeLists.txt): runs EXE with the NARGS arguments ARG0, ARG1, ... (one -D each, so
# spaces, carets and leading minus signs arrive as written) and passes when the program
# exits with status 2 and prints one line on stderr that matches the regular
# expression EXPECT, and nothing on stdout (it stopped before starting Kokkos).
set(args)
if(NARGS GREATER 0)
  math(EXPR last "${NARGS} - 1")
  foreach(i RANGE ${last})
    list(APPEND args "${ARG${i}}")
  endforeach()
endif()
# EMULATOR: how a cross-compiled program runs here (CMAKE_CROSSCOMPILING_EMULATOR), or empty.
execute_process(COMMAND ${EMULATOR} "${EXE}" ${args} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(REGEX MATCHALL "\n" newlines "${err}")
list(LENGTH newlines lines)
set(problems)
if(NOT status STREQUAL "2")
  list(APPEND problems "exit status ${status}, expected 2")
endif()
if(NOT lines EQUAL 1)
  list(APPEND problems "${lines} lines on stderr, expected one")
endif()
if(NOT err MATCHES "${EXPECT}")
  list(APPEND problems "stderr does not match '${EXPECT}'")
endif()
if(NOT out STREQUAL "")
  list(APPEND problems "output on stdout")
endif()
if(problems)
  string(REPLACE ";" "; " problems "${problems}")
  message(FATAL_ERROR "${EXE} ${args}: ${problems}\nstdout: ${out}\nstderr: ${err}")
endif()
message(STATUS "rejected as expected: ${err}")
