# SPDX-License-Identifier: Apache-2.0
# CTest case: install this build's kapi into a scratch prefix, then configure, build and
# run examples/outside-project against it with find_package(kapi), as a user would.
add_test(NAME outside_project_find_package
  COMMAND ${CMAKE_COMMAND}
    -DBUILD_DIR=${PROJECT_BINARY_DIR}
    -DSOURCE_DIR=${PROJECT_SOURCE_DIR}/examples/outside-project
    -DWORK_DIR=${PROJECT_BINARY_DIR}/outside-project
    -DKokkos_ROOT=${Kokkos_DIR}/../../..
    -DCXX=${CMAKE_CXX_COMPILER}
    -P ${CMAKE_CURRENT_LIST_DIR}/outside_project_check.cmake)
set_tests_properties(outside_project_find_package PROPERTIES TIMEOUT 900)
