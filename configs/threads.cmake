# SPDX-License-Identifier: Apache-2.0
# Kokkos build options for the 'threads' configuration (Serial is enabled beside it).
# Kokkos 3.x names the Threads backend PTHREAD; 4.x names it THREADS.
set(Kokkos_ENABLE_SERIAL ON CACHE BOOL "")
set(Kokkos_ENABLE_PTHREAD ON CACHE BOOL "")
