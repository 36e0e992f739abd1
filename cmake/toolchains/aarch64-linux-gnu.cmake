# SPDX-License-Identifier: Apache-2.0
# Cross-compiling for aarch64 Linux (Grace, Graviton, Ampere) with Debian's
# g++-aarch64-linux-gnu; programs run under qemu-user (run-under-qemu.sh), so ctest runs
# the tests here. The target's system libraries come from the cross toolchain's sysroot;
# packages (Kokkos, GoogleTest built for aarch64) from CMAKE_PREFIX_PATH and Kokkos_ROOT.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_CROSSCOMPILING_EMULATOR ${CMAKE_CURRENT_LIST_DIR}/run-under-qemu.sh)
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
