#pragma once
// Compile-time switches shared by every kapi header.
#include <Kokkos_Core.hpp>

// True while compiling code that runs on an accelerator (the device pass of nvcc, hipcc
// or a SYCL compiler). Host passes, including the host pass of a CUDA build, see 0.
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__) || defined(__SYCL_DEVICE_ONLY__)
#define KAPI_DEVICE_PASS 1
#else
#define KAPI_DEVICE_PASS 0
#endif

// Everything callable from a kernel.
#define KAPI_FUNCTION KOKKOS_INLINE_FUNCTION

namespace kapi {
namespace detail {
// An execution space whose work runs on host threads: there a work-group is run by one
// thread (see detail/host_group.hpp); elsewhere it is a Kokkos team.
template <class ExecSpace>
inline constexpr bool runs_on_host =
    Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible
#if defined(KOKKOS_ENABLE_CUDA)
    && !std::is_same_v<ExecSpace, Kokkos::Cuda>
#endif
    ;
}  // namespace detail
}  // namespace kapi
