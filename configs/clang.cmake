# SPDX-License-Identifier: Apache-2.0
# Kokkos build options for the 'clang' configuration: OpenMP (+ Serial) compiled by Debian's
# clang 16 with LLVM's OpenMP runtime (libomp), the compiler of most vendors' toolchains.
set(CMAKE_CXX_COMPILER clang++-16 CACHE STRING "")
set(Kokkos_ENABLE_SERIAL ON CACHE BOOL "")
set(Kokkos_ENABLE_OPENMP ON CACHE BOOL "")
