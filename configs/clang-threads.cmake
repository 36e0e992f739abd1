# SPDX-License-Identifier: Apache-2.0
# Kokkos build options for the 'clang-threads' configuration: Threads + Serial compiled by
# Debian's clang 16 (CI's second compiler and sanitizer stage: tests on both spaces).
# Kokkos 3.x names the Threads backend PTHREAD; 4.x names it THREADS.
set(CMAKE_CXX_COMPILER clang++-16 CACHE STRING "")
set(Kokkos_ENABLE_SERIAL ON CACHE BOOL "")
set(Kokkos_ENABLE_PTHREAD ON CACHE BOOL "")
