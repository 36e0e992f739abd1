# SPDX-License-Identifier: Apache-2.0
# CTest case: `./kapi new` makes an app that builds and passes at once. In a copy of the
# source tree it scaffolds demo_app, builds only that app's targets against this build's
# Kokkos and compiler, runs its tests, program and benchmark, and checks the refusals
# (scaffold_check.cmake).
if(NOT KAPI_CHECK_SOURCES)  # a source check (tests/CMakeLists.txt)
  return()
endif()
get_filename_component(kapi_scaffold_kokkos_root "${Kokkos_DIR}/../../.." ABSOLUTE)
add_test(NAME scaffold_new_app
  COMMAND ${CMAKE_COMMAND}
    -DSOURCE_DIR=${PROJECT_SOURCE_DIR}
    -DWORK_DIR=${PROJECT_BINARY_DIR}/scaffold
    -DKokkos_ROOT=${kapi_scaffold_kokkos_root}
    -DCXX=${CMAKE_CXX_COMPILER}
    -DGENERATOR=${CMAKE_GENERATOR}
    -DBUILD_TYPE=${CMAKE_BUILD_TYPE}
    -DWITH_BENCHMARKS=${KAPI_ENABLE_BENCHMARKS}
    -DCTEST=${CMAKE_CTEST_COMMAND}
    -P ${CMAKE_CURRENT_LIST_DIR}/scaffold_check.cmake)
set_tests_properties(scaffold_new_app PROPERTIES TIMEOUT 900)
