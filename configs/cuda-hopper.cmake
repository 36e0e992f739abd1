# SPDX-License-Identifier: Apache-2.0
# Kokkos build options for the 'cuda-hopper' configuration: NVIDIA H100/H200 (sm_90).
# Kokkos_ARCH_HOPPER90 comes from the project's compatibility patch for Kokkos 3.4.01.
set(Kokkos_ENABLE_SERIAL ON CACHE BOOL "")
set(Kokkos_ENABLE_CUDA ON CACHE BOOL "")
set(Kokkos_ENABLE_CUDA_LAMBDA ON CACHE BOOL "")
set(Kokkos_ARCH_HOPPER90 ON CACHE BOOL "")
