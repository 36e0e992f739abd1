# SPDX-License-Identifier: Apache-2.0
# Kokkos build options for the 'hip' configuration: AMD Instinct MI200 series (MI210,
# MI250, MI250X: gfx90a), compiled with Debian's hipcc (ROCm 5.2.3, clang 15).
# Kokkos_ARCH_VEGA90A comes from the project's patch for Kokkos 3.4.01.
set(Kokkos_ENABLE_SERIAL ON CACHE BOOL "")
set(Kokkos_ENABLE_HIP ON CACHE BOOL "")
set(Kokkos_ARCH_VEGA90A ON CACHE BOOL "")
