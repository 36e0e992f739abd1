// SPDX-License-Identifier: Apache-2.0
#pragma once
// Whether the MPI library reads and writes device memory itself (CUDA-aware MPI), asked
// of the library at run time where its mpi-ext.h offers MPIX_Query_cuda_support; a library
// built without CUDA support (Debian's OpenMPI) says no, and device buffers are staged.
#include <mpi.h>
#if defined(OPEN_MPI) && defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif
#endif

#include <Kokkos_Core.hpp>

namespace kapi::mpi::detail {

inline bool library_is_cuda_aware() {
#if defined(KOKKOS_ENABLE_CUDA) && defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  static const bool aware = MPIX_Query_cuda_support() == 1;
  return aware;
#else
  return false;
#endif
}

}  // namespace kapi::mpi::detail
