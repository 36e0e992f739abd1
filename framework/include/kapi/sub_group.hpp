// SPDX-License-Identifier: Apache-2.0
#pragma once
// SubGroup: the sub-group (SYCL 2020 sub_group) a work-item of an nd-range kernel belongs
// to, from NdItem::get_sub_group(). A work-group is cut into sub-groups of
// get_max_local_range() consecutive local linear ids; the last one is partial when the
// group's size is not a multiple of it (its get_local_range() is smaller).
//   const kapi::SubGroup sg = it.get_sub_group();
//   T sum = kapi::reduce_over_group(sg, x, kapi::plus<>());
//   T right = kapi::shift_group_left(sg, x);        // the next work-item's x
//   kapi::group_barrier(sg);
// Sizes (max_sub_group_size<ExecSpace>(), from space_traits.hpp): CUDA 32 (a warp;
// shuffles and votes are warp intrinsics), HIP 64 (a wavefront), host backends 1 (every
// work-item is its own sub-group: host work-items are separate contexts, so a wider
// sub-group would need a sub-group scheduler and buy nothing the phased form does not),
// other Kokkos backends 1 (the generic team path: no warp intrinsics assumed).
// Every query returns std::size_t (1-d, as SYCL's sub_group is); the algorithms are in
// sub_group_algorithms.hpp, group_barrier(SubGroup) in barrier.hpp.
#include <cstddef>
#include <type_traits>

#include <kapi/config.hpp>
#include <kapi/detail/group_handle.hpp>
#include <kapi/execution_space.hpp>
#include <kapi/space_traits.hpp>

namespace kapi {

/// Work-items per sub-group (the last one of a group may have fewer) for kernels on ExecSpace.
template <class ExecSpace>
constexpr std::size_t max_sub_group_size() {
  return space_traits<std::remove_cv_t<ExecSpace>>::sub_group_size;
}

namespace detail {
/// The sub-group size of the code this pass compiles (device pass: the device's; host
/// pass: the host engine's), the one NdItem::get_sub_group() cuts groups by. It equals
/// space_traits' sub_group_size of every space whose kernels this pass compiles.
#if KAPI_COMPILING_CUDA_DEVICE_CODE
inline constexpr std::size_t compiled_sub_group_size = cuda_warp_size;
#elif KAPI_COMPILING_HIP_DEVICE_CODE
inline constexpr std::size_t compiled_sub_group_size = hip_wavefront_size;
#else
inline constexpr std::size_t compiled_sub_group_size = 1;
#endif
}  // namespace detail

class SubGroup {
 public:
  static constexpr int dimensions = 1;

  /// The sub-group of the work-item with local linear id `local_linear_id` in a group of
  /// `group_size` work-items cut into sub-groups of `max_size`.
  KAPI_FUNCTION SubGroup(std::size_t local_linear_id, std::size_t group_size, std::size_t max_size,
                         detail::GroupHandle handle)
      : local_id_(local_linear_id % max_size),
        group_id_(local_linear_id / max_size),
        group_range_((group_size + max_size - 1) / max_size),
        max_range_(max_size),
        handle_(handle) {
    const std::size_t first = group_id_ * max_size;
    local_range_ = group_size - first < max_size ? group_size - first : max_size;
  }

  /// The work-item's id within its sub-group: 0 … get_local_range()-1.
  KAPI_FUNCTION std::size_t get_local_id() const { return local_id_; }
  KAPI_FUNCTION std::size_t get_local_linear_id() const { return local_id_; }
  /// Work-items in this sub-group (less than get_max_local_range() in a partial last one).
  KAPI_FUNCTION std::size_t get_local_range() const { return local_range_; }
  KAPI_FUNCTION std::size_t get_local_linear_range() const { return local_range_; }
  /// Work-items in a full sub-group of this kernel.
  KAPI_FUNCTION std::size_t get_max_local_range() const { return max_range_; }
  /// This sub-group's index within the work-group: 0 … get_group_range()-1.
  KAPI_FUNCTION std::size_t get_group_id() const { return group_id_; }
  KAPI_FUNCTION std::size_t get_group_linear_id() const { return group_id_; }
  /// Sub-groups in the work-group.
  KAPI_FUNCTION std::size_t get_group_range() const { return group_range_; }
  KAPI_FUNCTION std::size_t get_group_linear_range() const { return group_range_; }
  /// True for the sub-group's work-item 0.
  KAPI_FUNCTION bool leader() const { return local_id_ == 0; }

  // For the framework's collectives: the work-group's machinery.
  KAPI_FUNCTION detail::GroupHandle impl_handle() const { return handle_; }

 private:
  std::size_t local_id_;
  std::size_t group_id_;
  std::size_t group_range_;
  std::size_t max_range_;
  std::size_t local_range_ = 0;
  detail::GroupHandle handle_;
};

}  // namespace kapi
