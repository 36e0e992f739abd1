# SPDX-License-Identifier: Apache-2.0
# Injected into the Kokkos Kernels configure of CUDA configurations (CMAKE_PROJECT_INCLUDE):
# with CMake >= 3.27 Kokkos 3.4's exported targets name CUDA:: targets that only exist
# after find_package(CUDAToolkit), so find it before Kokkos Kernels looks for Kokkos.
find_package(CUDAToolkit REQUIRED)
