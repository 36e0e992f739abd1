# SPDX-License-Identifier: Apache-2.0
# kapi_warnings: an INTERFACE target with the warning flags of the project's own targets
# (tests, apps, benchmarks, the guide's example); they link it PRIVATE. Internal: neither
# kapi::kapi nor the installed package carries it, so users keep their own warning flags.
# KAPI_WERROR (option, OFF by default) makes the warnings errors.
#
# C++ sources (g++, clang++, or Kokkos' nvcc_wrapper, which hands -W flags to the host
# compiler) get -Wall -Wextra; sources compiled as CUDA (Kokkos built with CUDA as a
# CMake language) give the same flags to the host compiler through -Xcompiler.
add_library(kapi_warnings INTERFACE)
target_compile_options(kapi_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>)
# GCC for aarch64 notes on every by-value argument of a class with an empty base that
# GCC 10.1 changed its passing of (-Wpsabi): a note about compatibility with objects built
# by GCC 9 or older, which kapi's builds never link.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64)$")
  target_compile_options(kapi_warnings INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-Wno-psabi>)
endif()
if(KAPI_WERROR)
  target_compile_options(kapi_warnings INTERFACE
    $<$<COMPILE_LANGUAGE:CXX>:-Werror>
    $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings -Xcompiler=-Werror>)
endif()
