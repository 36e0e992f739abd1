// SPDX-License-Identifier: Apache-2.0
#pragma once
// What Group<N> (a work-item's view of its group) and WorkGroup<N> (a phased kernel's
// whole group) share: the group's ids and extents, and the handle to the group's machinery.
#include <climits>
#include <cstddef>

#include <kapi/config.hpp>
#include <kapi/detail/group_handle.hpp>
#include <kapi/detail/linearize.hpp>
#include <kapi/id.hpp>
#include <kapi/range.hpp>

namespace kapi::detail {

// The limits every launch checks: a device's work-group size (max_work_group_size) and
// the work-groups of one launch on any backend (validate_group_count). Device code tells
// them to the compiler through KAPI_DEVICE_ASSUME.
inline constexpr std::size_t device_max_group_size = 1024, max_group_count = INT_MAX;

template <int N>
class GroupGeometry {
 public:
  static constexpr int dimensions = N;

  GroupGeometry() = default;
  KAPI_FUNCTION GroupGeometry(const std::size_t (&group_id)[N], const std::size_t (&group_range)[N],
                              const std::size_t (&local_range)[N], GroupHandle handle)
      : handle_(handle) {
    for (int d = 0; d < N; ++d) {
      group_id_[d] = group_id[d];
      group_range_[d] = group_range[d];
      local_range_[d] = local_range[d];
    }
  }

  KAPI_FUNCTION std::size_t get_group_id(int d) const {
    KAPI_DEVICE_ASSUME(group_id_[d] < group_range_[d] && group_range_[d] <= max_group_count);
    return group_id_[d];
  }
  KAPI_FUNCTION std::size_t get_group_linear_id() const { return linearize(group_id_, group_range_); }
  KAPI_FUNCTION std::size_t get_group_range(int d) const {
    KAPI_DEVICE_ASSUME(group_range_[d] <= max_group_count);
    return group_range_[d];
  }
  KAPI_FUNCTION std::size_t get_group_linear_range() const { return product(group_range_); }
  KAPI_FUNCTION std::size_t get_local_range(int d) const {
    KAPI_DEVICE_ASSUME(local_range_[d] >= 1 && local_range_[d] <= device_max_group_size);
    return local_range_[d];
  }
  KAPI_FUNCTION std::size_t get_local_linear_range() const { return product(local_range_); }

  // The SYCL forms without a dimension: the group's id as Id<N>, extents as Range<N>.
  KAPI_FUNCTION Id<N> get_group_id() const {
    Id<N> r;
    for (int d = 0; d < N; ++d) r[d] = get_group_id(d);
    return r;
  }
  KAPI_FUNCTION std::size_t operator[](int d) const { return get_group_id(d); }
  KAPI_FUNCTION Range<N> get_group_range() const {
    Range<N> r;
    for (int d = 0; d < N; ++d) r.extent[d] = get_group_range(d);
    return r;
  }
  KAPI_FUNCTION Range<N> get_local_range() const {
    Range<N> r;
    for (int d = 0; d < N; ++d) r.extent[d] = get_local_range(d);
    return r;
  }
  /// Every group of a launch has the local range (no partial groups).
  KAPI_FUNCTION Range<N> get_max_local_range() const { return get_local_range(); }

  // For the framework's collectives: the group's machinery.
  KAPI_FUNCTION GroupHandle impl_handle() const { return handle_; }

 protected:
  std::size_t group_id_[N] = {};
  std::size_t group_range_[N] = {};
  std::size_t local_range_[N] = {};
  GroupHandle handle_;
};

}  // namespace kapi::detail
