# SPDX-License-Identifier: Apache-2.0
# Kokkos build options for the 'openmp-aarch64' configuration: OpenMP (+ Serial) for aarch64
# Linux, built by Debian's cross compiler (cmake/toolchains/aarch64-linux-gnu.cmake), its
# tests run under qemu-user. No Kokkos Kernels and no benchmarks: an emulator times nothing.
set(CMAKE_TOOLCHAIN_FILE ${CMAKE_CURRENT_LIST_DIR}/../cmake/toolchains/aarch64-linux-gnu.cmake CACHE FILEPATH "")
set(Kokkos_ENABLE_SERIAL ON CACHE BOOL "")
set(Kokkos_ENABLE_OPENMP ON CACHE BOOL "")
