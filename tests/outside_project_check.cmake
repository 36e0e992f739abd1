# SPDX-License-Identifier: Apache-2.0
# Script mode: cmake -DBUILD_DIR=… -DSOURCE_DIR=… -DWORK_DIR=… -DKokkos_ROOT=… -DCXX=… -P this
# With -DKAPI_SOURCE_DIR=… the project builds kapi inside itself (add_subdirectory), from
# an empty build folder, instead of installing this build's, with -DGENERATOR=… (Ninja
# starts a target's compiles before the targets it links are built) and -DPLUGIN=<the
# pass' file name>: the project's compiles must depend on it.
function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGV}\n${out}\n${err}")
  endif()
  message(STATUS "${out}")
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
if(KAPI_SOURCE_DIR)
  run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build -G ${GENERATOR} -DCMAKE_BUILD_TYPE=Release
      -DCMAKE_CXX_COMPILER=${CXX} -DKAPI_SOURCE_DIR=${KAPI_SOURCE_DIR} -DKokkos_ROOT=${Kokkos_ROOT})
  if(PLUGIN AND GENERATOR STREQUAL "Ninja")  # whether a build starts it too early is a race: ask the graph
    execute_process(COMMAND ninja -C ${WORK_DIR}/build -t query CMakeFiles/outside_matmul.dir/main.cpp.o
                    OUTPUT_VARIABLE inputs RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0 OR NOT inputs MATCHES "${PLUGIN}")
      message(FATAL_ERROR "the project's main.cpp does not wait for the work-group loop pass' plugin ${PLUGIN}, "
                          "which its compile loads (-fpass-plugin):\n${inputs}")
    endif()
  endif()
else()
  run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix)
  run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build -DCMAKE_BUILD_TYPE=Release
      -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DKokkos_ROOT=${Kokkos_ROOT})
endif()
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${WORK_DIR}/build/outside_matmul)
