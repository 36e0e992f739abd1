# SPDX-License-Identifier: Apache-2.0
# Finds what kapi::kapi needs in the build tree (the installed package does the same with
# find_dependency: framework/kapiConfig.cmake.in).
#
# Newer CMake on CUDA machines: Kokkos 3.4's exported targets name CUDA:: targets that
# exist only after find_package(CUDAToolkit), so look for it first (quietly: host-only
# builds need none).
find_package(CUDAToolkit QUIET)
find_package(Kokkos REQUIRED)  # no version here: 3.4's config rejects other majors
if(Kokkos_VERSION VERSION_LESS 3.4.1)
  message(FATAL_ERROR "kapi needs Kokkos >= 3.4.01; found ${Kokkos_VERSION} at ${Kokkos_DIR}")
endif()
include(${CMAKE_CURRENT_LIST_DIR}/kapi_check_kokkos_view.cmake)  # GCC 12 and the mdspan-based View
# hipcc asks rocm_agent_enumerator for the machine's GPU at every link that names no
# architecture, and where there is none (a build node) that prints a Python traceback per
# link. Kokkos 3.4 gives its architecture to the compile steps only: the links get it too.
if(Kokkos_ENABLE_HIP AND TARGET Kokkos::kokkoscore)
  get_target_property(kapi_kokkos_compile_options Kokkos::kokkoscore INTERFACE_COMPILE_OPTIONS)
  get_target_property(kapi_kokkos_link_options Kokkos::kokkoscore INTERFACE_LINK_OPTIONS)
  if(NOT "${kapi_kokkos_link_options}" MATCHES "(--amdgpu-target|--offload-arch)="
     AND "${kapi_kokkos_compile_options}" MATCHES "(--amdgpu-target|--offload-arch)=(gfx[0-9a-z]+)")
    set_property(TARGET Kokkos::kokkoscore APPEND PROPERTY INTERFACE_LINK_OPTIONS "--offload-arch=${CMAKE_MATCH_2}")
  endif()
endif()
# Boost.Context switches the host engine's work-item contexts where kapi has no switch of
# its own (framework/src/host/context.hpp: everything but x86-64 and aarch64 Linux), or where
# KAPI_HOST_CONTEXT_FCONTEXT asks for it; only the runtime uses it.
option(KAPI_HOST_CONTEXT_FCONTEXT "Switch host work-item contexts with Boost.Context's fcontext on x86-64 and aarch64 Linux too" OFF)
if(CMAKE_SYSTEM_NAME STREQUAL "Linux" AND CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64|aarch64|arm64)$"
   AND NOT KAPI_HOST_CONTEXT_FCONTEXT)
  set(KAPI_USE_BOOST_CONTEXT OFF)
else()
  set(KAPI_USE_BOOST_CONTEXT ON)
  find_package(Boost REQUIRED COMPONENTS context)
endif()
include(${CMAKE_CURRENT_LIST_DIR}/kapi_sources.cmake)
