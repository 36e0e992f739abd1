# SPDX-License-Identifier: Apache-2.0
# CTest case: the project configures with its tests and benchmarks switched off (a user
# who builds the apps only). With MPI on it once failed there: apps/mpi set properties of
# tests it had not added.
get_filename_component(kapi_apps_only_kokkos_root "${Kokkos_DIR}/../../.." ABSOLUTE)
add_test(NAME configure_apps_only
  COMMAND ${CMAKE_COMMAND} -S ${PROJECT_SOURCE_DIR} -B ${PROJECT_BINARY_DIR}/apps-only
    -G ${CMAKE_GENERATOR} -DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER} -DCMAKE_BUILD_TYPE=${CMAKE_BUILD_TYPE}
    -DKokkos_ROOT=${kapi_apps_only_kokkos_root} -DKAPI_ENABLE_MPI=${KAPI_ENABLE_MPI}
    -DKAPI_ENABLE_TESTS=OFF -DKAPI_ENABLE_BENCHMARKS=OFF)
set_tests_properties(configure_apps_only PROPERTIES TIMEOUT 300)
