# SPDX-License-Identifier: Apache-2.0
# Kokkos build options for the 'clang-threads' configuration: the 'threads' configuration's
# backends (Threads + Serial) compiled by Debian's clang 16 (CI's second compiler and
# sanitizer stage: tests on both spaces).
set(CMAKE_CXX_COMPILER clang++-16 CACHE STRING "")
include(${CMAKE_CURRENT_LIST_DIR}/threads.cmake)
