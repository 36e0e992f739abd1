# SPDX-License-Identifier: Apache-2.0
# CTest case: cmake/kapi_check_kokkos_view.cmake against stand-ins for a Kokkos
# (tests/kokkos_view_probe_check.cmake says which). The check applies to GCC 12 only.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 12
   AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  add_test(NAME kokkos_view_probe_check
    COMMAND ${CMAKE_COMMAND} -DKAPI_SOURCE_DIR=${PROJECT_SOURCE_DIR} -DWORK=${PROJECT_BINARY_DIR}/kokkos-view-probe
      -DCXX=${CMAKE_CXX_COMPILER} -DGENERATOR=${CMAKE_GENERATOR} -P ${CMAKE_CURRENT_LIST_DIR}/kokkos_view_probe_check.cmake)
  set_tests_properties(kokkos_view_probe_check PROPERTIES TIMEOUT 300)
endif()
