# SPDX-License-Identifier: Apache-2.0
# Checks cmake/kapi_check_kokkos_view.cmake (run with cmake -P; -DKAPI_SOURCE_DIR, -DWORK,
# -DCXX, -DGENERATOR): it refuses a Kokkos whose View the check program finds broken, and
# lets the build go on where the check does not apply (Kokkos <= 4.6.1, the legacy View) or
# cannot run (exit status 127: a library it needs is missing on this machine).
file(REMOVE_RECURSE ${WORK})
file(WRITE ${WORK}/missing/missing.cpp "int kapi_missing() { return 0; }\n")
execute_process(COMMAND ${CXX} -shared -fPIC -Wl,-soname,libkapi_missing.so -o ${WORK}/missing/libkapi_missing.so
                        ${WORK}/missing/missing.cpp RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building the stand-in library failed: ${rc}")
endif()

# case name, expected configure result (0 or failure), text the output must hold, options
function(check_case name expect_ok text)
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${KAPI_SOURCE_DIR}/tests/kokkos_view_probe -B ${WORK}/${name}
                          -G ${GENERATOR} -DCMAKE_CXX_COMPILER=${CXX} -DKAPI_CMAKE_DIR=${KAPI_SOURCE_DIR}/cmake ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(expect_ok AND NOT rc EQUAL 0)
    message(FATAL_ERROR "${name}: configuring failed (${rc}), expected it to pass:\n${out}\n${err}")
  elseif(NOT expect_ok AND rc EQUAL 0)
    message(FATAL_ERROR "${name}: configuring passed, expected it to stop:\n${out}\n${err}")
  endif()
  string(REGEX REPLACE "[ \t\r\n]+" " " flat "${out}${err}")  # CMake wraps its messages
  string(FIND "${flat}" "${text}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${name}: the output lacks '${text}':\n${out}\n${err}")
  endif()
  message(STATUS "${name}: as expected")
endfunction()

check_case(broken_view OFF "breaks default-constructed Views" -DFAKE_KOKKOS_VERSION=4.99.1 -DFAKE_VIEW=broken_view)
check_case(good_view ON "Generating done" -DFAKE_KOKKOS_VERSION=4.99.1 -DFAKE_VIEW=good_view)
check_case(old_kokkos ON "Generating done" -DFAKE_KOKKOS_VERSION=4.6.1 -DFAKE_VIEW=broken_view)
check_case(legacy_view ON "Generating done" -DFAKE_KOKKOS_VERSION=4.99.1 -DFAKE_VIEW=broken_view
           -DFAKE_KOKKOS_OPTIONS=IMPL_VIEW_LEGACY)
check_case(cannot_run ON "could not start on this machine (exit status 127" -DFAKE_KOKKOS_VERSION=4.99.1 -DFAKE_VIEW=broken_view
           -DFAKE_MISSING_LIBRARY_DIR=${WORK}/missing)
