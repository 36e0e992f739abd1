# SPDX-License-Identifier: Apache-2.0
# kapi-test-cache: reads only its arguments (and the programs they name: scripts/test-cache.py)
# A CTest case that checks a command's exit status and its message together (CTest's
# PASS_REGULAR_EXPRESSION alone ignores the exit status): runs the NARGS arguments ARG0,
# ARG1, ... as one command (one -D each, so spaces and colons arrive as written) and
# passes when it exits with STATUS and its output (stdout and stderr) matches EXPECT.
set(command)
math(EXPR last "${NARGS} - 1")
foreach(i RANGE ${last})
  list(APPEND command "${ARG${i}}")
endforeach()
execute_process(COMMAND ${command} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(problems)
if(NOT status STREQUAL "${STATUS}")
  list(APPEND problems "exit status ${status}, expected ${STATUS}")
endif()
if(NOT "${out}${err}" MATCHES "${EXPECT}")
  list(APPEND problems "the output does not match '${EXPECT}'")
endif()
if(problems)
  string(REPLACE ";" "; " problems "${problems}")
  message(FATAL_ERROR "${problems}\nstdout:\n${out}\nstderr:\n${err}")
endif()
