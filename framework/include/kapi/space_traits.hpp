// SPDX-License-Identifier: Apache-2.0
#pragma once
// kapi::space_traits<Space>: what kapi needs to know about a Kokkos execution space, in
// one place. Every backend decision keyed on the space type reads it; nothing else lists
// spaces.
//   is_host             the space runs its work on host threads: a work-group is run by
//                       one thread (the host engine), not as a Kokkos team
//   is_cuda, is_hip     the space is Kokkos' CUDA or HIP one (kapi's own launches,
//                       vendor API calls)
//   sub_group_size      work-items per sub-group (max_sub_group_size, sub_group.hpp)
//   reduce_result_space host memory a device reduction's result is copied into
//                       (kapi::reduce, reduce/device_reduce.hpp)
// A space kapi has not been taught about gets the primary template: its work-groups are
// Kokkos teams (the generic team path) and nothing backend-specific is assumed.
// Teaching kapi a new backend starts with a specialization here.
#include <cstddef>

#include <kapi/config.hpp>

namespace kapi {

namespace detail {
// The hardware sub-group widths, also used where the compiler pass rather than a space
// decides (sub_group.hpp, cuda/detail/warp.hpp, hip/detail/wavefront.hpp).
inline constexpr std::size_t cuda_warp_size = 32;
inline constexpr std::size_t hip_wavefront_size = 64;

#if defined(KOKKOS_ENABLE_HIP)
// Kokkos 4 moved HIP out of Experimental (the old name is deprecated code there).
#if KOKKOS_VERSION >= 40000
using HipExecutionSpace = Kokkos::HIP;
#else
using HipExecutionSpace = Kokkos::Experimental::HIP;
#endif
#endif

struct HostSpaceTraits {
  static constexpr bool is_host = true;
  static constexpr bool is_cuda = false;
  static constexpr bool is_hip = false;
  static constexpr std::size_t sub_group_size = 1;  // a work-item is its own sub-group (sub_group.hpp)
  using reduce_result_space = Kokkos::HostSpace;
};
}  // namespace detail

/// Defaults: the generic Kokkos-team path. Sub-groups of one work-item, because a pass
/// that is not CUDA's or HIP's device pass compiles sub-groups that way
/// (detail::compiled_sub_group_size); Kokkos::deep_copy brings the reduction result back.
template <class Space>
struct space_traits {
  static constexpr bool is_host = false;
  static constexpr bool is_cuda = false;
  static constexpr bool is_hip = false;
  static constexpr std::size_t sub_group_size = 1;
  using reduce_result_space = Kokkos::HostSpace;
};

/// A const space is the same space.
template <class Space>
struct space_traits<const Space> : space_traits<Space> {};

#if defined(KOKKOS_ENABLE_SERIAL)
template <>
struct space_traits<Kokkos::Serial> : detail::HostSpaceTraits {};
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
template <>
struct space_traits<Kokkos::OpenMP> : detail::HostSpaceTraits {};
#endif
#if defined(KOKKOS_ENABLE_THREADS)
template <>
struct space_traits<Kokkos::Threads> : detail::HostSpaceTraits {};
#endif
#if defined(KOKKOS_ENABLE_HPX)
template <>
struct space_traits<Kokkos::Experimental::HPX> : detail::HostSpaceTraits {};
#endif

#if defined(KOKKOS_ENABLE_CUDA)
template <>
struct space_traits<Kokkos::Cuda> {
  static constexpr bool is_host = false;
  static constexpr bool is_cuda = true;
  static constexpr bool is_hip = false;
  static constexpr std::size_t sub_group_size = detail::cuda_warp_size;
  // Pinned, so that the copy back is a plain asynchronous one on the space's stream.
  using reduce_result_space = Kokkos::CudaHostPinnedSpace;
};
#endif

#if defined(KOKKOS_ENABLE_HIP)
template <>
struct space_traits<detail::HipExecutionSpace> {
  static constexpr bool is_host = false;
  static constexpr bool is_cuda = false;
  static constexpr bool is_hip = true;
  static constexpr std::size_t sub_group_size = detail::hip_wavefront_size;
  using reduce_result_space = Kokkos::HostSpace;
};
#endif

}  // namespace kapi
