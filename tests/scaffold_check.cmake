# SPDX-License-Identifier: Apache-2.0
# Script mode: cmake -DSOURCE_DIR=… -DWORK_DIR=… -DKokkos_ROOT=… -DCXX=… -DGENERATOR=…
#                    -DBUILD_TYPE=… -DWITH_BENCHMARKS=ON|OFF -DCTEST=… -P this
# Checks that `./kapi new demo_app` gives an app that builds and passes straight away, and
# that the scaffold refuses names it cannot use. Works in a copy of the source tree (the
# real one must not get a generated app) and builds only the new app's targets.
set(app demo_app)
set(src ${WORK_DIR}/src)
set(build ${WORK_DIR}/build)

# run(<expected exit status> <output variable> <command>...): runs the command, fails the
# test unless it exits with the expected status, and returns its stdout and stderr.
function(run expected out_var)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT "${rc}" STREQUAL "${expected}")
    message(FATAL_ERROR "exit status ${rc} (expected ${expected}): ${ARGN}\n${out}\n${err}")
  endif()
  set(${out_var} "${out}${err}" PARENT_SCOPE)
endfunction()

# expect(<text> <regex> <what>): fails the test unless the text matches.
function(expect text regex what)
  if(NOT text MATCHES "${regex}")
    message(FATAL_ERROR "${what}: expected output matching '${regex}', got:\n${text}")
  endif()
endfunction()

# 1. A copy of the source tree: the files git knows, tracked or new, without build/ and
#    results/ (or every file outside those where there is no git checkout).
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND git -C ${SOURCE_DIR} ls-files --cached --others --exclude-standard
                RESULT_VARIABLE git_rc OUTPUT_VARIABLE files ERROR_QUIET)
if(git_rc EQUAL 0)
  string(REPLACE "\n" ";" files "${files}")
else()
  file(GLOB_RECURSE files RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/*)
endif()
foreach(f ${files})
  if(f MATCHES "^(build|results|\\.git)/" OR NOT EXISTS ${SOURCE_DIR}/${f} OR IS_DIRECTORY ${SOURCE_DIR}/${f})
    continue()
  endif()
  get_filename_component(dir ${f} DIRECTORY)
  file(COPY ${SOURCE_DIR}/${f} DESTINATION ${src}/${dir})
endforeach()

# 2. Scaffold the app through the driver, then the refusals: nothing may be written.
foreach(existing apps/${app} tests/test_app_${app}.cpp bench/bench_${app}.cpp)
  if(EXISTS ${src}/${existing})
    message(FATAL_ERROR "the source tree already has ${existing}: the check needs the name ${app} free")
  endif()
endforeach()
run(0 out ${src}/kapi new ${app})
foreach(f apps/${app}/CMakeLists.txt apps/${app}/include/${app}/${app}.hpp apps/${app}/main.cpp
          tests/test_app_${app}.cpp bench/bench_${app}.cpp)
  expect("${out}" "  ${f}\n" "kapi new lists what it created")
  if(NOT EXISTS ${src}/${f})
    message(FATAL_ERROR "kapi new did not create ${f}")
  endif()
endforeach()
expect("${out}" "./kapi test" "kapi new prints the next commands")
expect("${out}" "./kapi run --apps ${app}" "kapi new prints the next commands")
run(2 out ${src}/kapi new ${app})
expect("${out}" "'${app}' is taken: .*apps/${app} already exists" "an existing app")
run(2 out ${src}/scripts/new-app.sh launch --root ${src})
expect("${out}" "'launch' is taken: .*bench/bench_launch.cpp already exists" "an existing benchmark")
run(2 out ${src}/kapi new My-App)
expect("${out}" "'My-App' is not a valid app name" "a bad name")
run(2 out ${src}/kapi new 2d_stencil)
expect("${out}" "'2d_stencil' is not a valid app name" "a name starting with a digit")
run(2 out ${src}/kapi new namespace)
expect("${out}" "'namespace' is a C\\+\\+ keyword" "a keyword")
run(2 out ${src}/kapi new kapi_apps)
expect("${out}" "'kapi_apps' clashes with a name the framework" "a framework name")
find_program(host_cxx NAMES c++ g++ clang++)
if(host_cxx)  # the script asks a host compiler whether the C library has the name
  run(2 out ${CMAKE_COMMAND} -E env CXX=${host_cxx} ${src}/kapi new index)
  expect("${out}" "'index' is already declared at global scope" "a C library name")
endif()
file(GLOB left_behind ${src}/apps/My-App ${src}/apps/2d_stencil ${src}/apps/namespace ${src}/apps/kapi_apps
     ${src}/apps/index ${src}/tests/test_app_namespace.cpp ${src}/bench/bench_index.cpp)
if(left_behind)
  message(FATAL_ERROR "a refused name left files behind: ${left_behind}")
endif()

# 3. Build only the new app's targets: the copy's test binary gets the new app's tests
#    alone (the others are built and run by the build this check belongs to).
file(GLOB other_tests ${src}/tests/test_*.cpp)
list(REMOVE_ITEM other_tests ${src}/tests/test_app_${app}.cpp)
file(REMOVE ${other_tests})
run(0 out ${CMAKE_COMMAND} -S ${src} -B ${build} -G ${GENERATOR} -DCMAKE_BUILD_TYPE=${BUILD_TYPE}
    -DCMAKE_CXX_COMPILER=${CXX} -DKokkos_ROOT=${Kokkos_ROOT} -DKAPI_CONFIG=scaffold
    -DKAPI_ENABLE_BENCHMARKS=${WITH_BENCHMARKS})
set(targets kapi-${app} kapi_tests)
if(WITH_BENCHMARKS)
  list(APPEND targets bench_${app})
endif()
run(0 out ${CMAKE_COMMAND} --build ${build} --target ${targets})

# 4. Its tests (the apps area's executable of each tested space), its program (directly
#    and as registered with ctest) and its benchmark.
file(GLOB app_tests ${build}/tests/kapi_tests_apps_*)
list(FILTER app_tests INCLUDE REGEX "/kapi_tests_apps_[A-Za-z]+$")  # not GoogleTest's *_include.cmake
if(NOT app_tests)
  message(FATAL_ERROR "the build made no kapi_tests_apps_<Space> executable in ${build}/tests")
endif()
foreach(exe ${app_tests})
  run(0 out ${exe} --gtest_brief=1)
  expect("${out}" "PASSED  \\] [1-9][0-9]* test" "the new app's tests ran and passed (${exe})")
endforeach()
run(0 out ${build}/apps/${app}/kapi-${app} --n 1001 --group-size 64 --repeat 1)
foreach(variant range nd-range phased)
  expect("${out}" "\n${variant} [^\n]* PASS\n" "kapi-${app} verifies ${variant}")
endforeach()
expect("${out}" "KAPI_SUMMARY {\"app\":\"${app}\"[^\n]*\"pass\":true}" "kapi-${app}'s summary")
run(0 out ${CMAKE_COMMAND} -E chdir ${build} ${CTEST} -R "^kapi-${app}-cli" --output-on-failure)
expect("${out}" "100% tests passed(, 0 tests failed)? out of [1-9]" "the app's ctest runs")
if(WITH_BENCHMARKS)
  set(json ${WORK_DIR}/bench_${app}.json)
  run(0 out ${build}/bench/bench_${app} --kapi_sizes=4099 --benchmark_repetitions=1
      --benchmark_out=${json} --benchmark_out_format=json)
  file(READ ${json} results)
  foreach(variant raw-kokkos-range range nd-range phased)
    expect("${results}" "\"name\": \"${app}/f32/${variant}/n:4099[^\"]*\"" "bench_${app} ran ${variant}")
  endforeach()
  expect("${results}" "\"label\": \"anchor\"" "bench_${app} has an anchor")
  expect("${results}" "\"pct_of_anchor\": [0-9]" "bench_${app} reports ratios to the anchor")
  if(results MATCHES "\"error_occurred\": true|\"error_message\"")
    message(FATAL_ERROR "bench_${app} skipped a benchmark:\n${results}")
  endif()
endif()
message(STATUS "kapi new ${app}: created, refused bad names, built, tests, program and benchmark passed")
