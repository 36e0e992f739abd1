# SPDX-License-Identifier: Apache-2.0
# kapi_kokkos_sources(<target> [<source>...]): marks a target's sources (all of them, or
# the ones named) for Kokkos' compiler. Kokkos >= 3.6 built with CUDA as a CMake language
# compiles every source that includes Kokkos as CUDA; Kokkos 3.4 (nvcc_wrapper as the C++
# compiler) needs nothing.
function(kapi_kokkos_sources target)
  if(DEFINED Kokkos_COMPILE_LANGUAGE AND NOT Kokkos_COMPILE_LANGUAGE STREQUAL "CXX")
    enable_language(${Kokkos_COMPILE_LANGUAGE})
    set(sources ${ARGN})
    if(NOT sources)
      get_target_property(sources ${target} SOURCES)
    endif()
    set_source_files_properties(${sources} TARGET_DIRECTORY ${target} PROPERTIES LANGUAGE ${Kokkos_COMPILE_LANGUAGE})
  endif()
endfunction()
