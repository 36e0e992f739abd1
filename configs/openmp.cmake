# SPDX-License-Identifier: Apache-2.0
# Kokkos build options for the 'openmp' configuration (Serial is enabled beside it).
set(Kokkos_ENABLE_SERIAL ON CACHE BOOL "")
set(Kokkos_ENABLE_OPENMP ON CACHE BOOL "")
