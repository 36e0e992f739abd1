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

# Where kernels compile through the work-group loop pass, the same project with kapi built
# inside it (add_subdirectory), from an empty folder: its sources must wait for the pass'
# plugin, which the build tool does not see as an input of theirs (CMakeLists.txt).
if(TARGET kapi_work_group_loops)
  add_test(NAME outside_project_add_subdirectory
    COMMAND ${CMAKE_COMMAND}
      -DSOURCE_DIR=${PROJECT_SOURCE_DIR}/examples/outside-project
      -DWORK_DIR=${PROJECT_BINARY_DIR}/outside-project-subdirectory
      -DKAPI_SOURCE_DIR=${PROJECT_SOURCE_DIR}
      "-DGENERATOR=${CMAKE_GENERATOR}"
      -DPLUGIN=kapi_work_group_loops${CMAKE_SHARED_MODULE_SUFFIX}
      -DKokkos_ROOT=${Kokkos_DIR}/../../..
      -DCXX=${CMAKE_CXX_COMPILER}
      -P ${CMAKE_CURRENT_LIST_DIR}/outside_project_check.cmake)
  set_tests_properties(outside_project_add_subdirectory PROPERTIES TIMEOUT 900)
endif()
