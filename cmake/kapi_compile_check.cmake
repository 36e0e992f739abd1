# SPDX-License-Identifier: Apache-2.0
# KAPI_COMPILE_CHECK (./kapi test --compile-only; CI's CUDA and HIP stages) builds
# everything to prove that it compiles. Nothing built here runs, so nothing is optimised
# that the compilers check without optimising:
# - Host code at -O0. The level replaces the build type's (nvcc_wrapper takes one -O).
# - CUDA (Kokkos through nvcc_wrapper): device code goes through nvcc's front end and
#   NVVM unoptimised (-Xcicc -O0) to PTX for Kokkos' architecture, which is not assembled
#   (-arch=compute_XX instead of sm_XX). The assembler's own check is of inline PTX; the
#   targets that hold it ask for kapi_nvcc_full_device_check and are compiled as a GPU
#   build compiles them, assembly included.
# - HIP: device code at -O1 (at -O0 clang 15 keeps HIP's wavefront-size branches that
#   only optimisation removes, then cannot select their gfx10 intrinsics for gfx90a), host
#   code at -O0 (-Xarch_host).
# The configurations that run code compile it at -O3 with every optimisation-time warning.
if(NOT KAPI_COMPILE_CHECK)
  function(kapi_nvcc_full_device_check target)
  endfunction()
  return()
endif()

foreach(kapi_type "" _RELEASE _RELWITHDEBINFO _MINSIZEREL _DEBUG)
  string(REGEX REPLACE "(^| )-O[0-9sgz]*" "" CMAKE_CXX_FLAGS${kapi_type} "${CMAKE_CXX_FLAGS${kapi_type}}")
endforeach()
if(Kokkos_ENABLE_HIP)
  add_compile_options(-O1 -Xarch_host -O0)
else()
  add_compile_options(-O0)
endif()

set(kapi_check_cuda_arch)
if(Kokkos_ENABLE_CUDA AND CMAKE_CXX_COMPILER MATCHES "nvcc_wrapper" AND TARGET Kokkos::kokkoscore)
  get_target_property(kapi_kokkos_options Kokkos::kokkoscore INTERFACE_COMPILE_OPTIONS)
  if(kapi_kokkos_options MATCHES "-arch=sm_([0-9]+)")
    set(kapi_check_cuda_arch ${CMAKE_MATCH_1})
    string(REPLACE "-arch=sm_${kapi_check_cuda_arch}" "-arch=compute_${kapi_check_cuda_arch}" kapi_kokkos_options
                   "${kapi_kokkos_options}")
    set_property(TARGET Kokkos::kokkoscore PROPERTY INTERFACE_COMPILE_OPTIONS "${kapi_kokkos_options}")
    kapi_nvcc_launcher(CMAKE_CXX_COMPILER_LAUNCHER -Xcicc -O0)
    message(STATUS "kapi compile check: CUDA device code to unoptimised PTX for compute_${kapi_check_cuda_arch}, "
                   "assembled only in targets with inline PTX")
  endif()
endif()

# kapi_nvcc_full_device_check(<target>): the target holds inline PTX, which only the
# assembler checks: its device code is optimised and assembled for the architecture, as in
# a GPU build.
function(kapi_nvcc_full_device_check target)
  if(kapi_check_cuda_arch)
    kapi_nvcc_append_flags(${target} -gencode=arch=compute_${kapi_check_cuda_arch},code=sm_${kapi_check_cuda_arch})
  endif()
endfunction()
