# SPDX-License-Identifier: Apache-2.0
# nvcc flags that nvcc_wrapper refuses or hands to the host compiler (a second GPU
# architecture, -Xcicc) reach nvcc through NVCC_APPEND_FLAGS, set by the compiler launcher.
#
# kapi_nvcc_launcher_flags: flags for every target (the compile check's). They go into
#   CMAKE_CXX_COMPILER_LAUNCHER ahead of the launcher kapi_ccache.cmake chose.
# kapi_nvcc_append_flags(<target> <flag>...): flags for one target, which then gets these
#   instead of kapi_nvcc_launcher_flags: a target with flags of its own needs its device
#   code compiled as they say (an architecture's assembly, say), in every build.
set(kapi_plain_launcher ${CMAKE_CXX_COMPILER_LAUNCHER})
function(kapi_nvcc_launcher out)
  list(JOIN ARGN " " flags)
  set(${out} ${CMAKE_COMMAND} -E env "NVCC_APPEND_FLAGS=$ENV{NVCC_APPEND_FLAGS} ${flags}" ${kapi_plain_launcher}
      PARENT_SCOPE)
endfunction()
function(kapi_nvcc_append_flags target)
  kapi_nvcc_launcher(launcher ${ARGN})
  set_property(TARGET ${target} PROPERTY CXX_COMPILER_LAUNCHER ${launcher})
endfunction()
