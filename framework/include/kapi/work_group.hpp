// SPDX-License-Identifier: Apache-2.0
#pragma once
// WorkGroup<N>: what a phased kernel receives instead of an NdItem — one whole work-group,
// whose work-items it visits in phases (phased.hpp).
#include <cstddef>

#include <kapi/detail/group_geometry.hpp>
#include <kapi/item.hpp>

namespace kapi {

template <int N>
class WorkGroup : public detail::GroupGeometry<N> {
 public:
  KAPI_FUNCTION WorkGroup(const std::size_t (&group_id)[N], const std::size_t (&group_range)[N],
                          const std::size_t (&local_range)[N], detail::GroupHandle handle)
      : detail::GroupGeometry<N>(group_id, group_range, local_range, handle) {}
  /// On a device backend every work-item runs the group's call: `local_id` is the calling
  /// one's, split once per group, so that phases do not divide again.
  KAPI_FUNCTION WorkGroup(const std::size_t (&group_id)[N], const std::size_t (&group_range)[N],
                          const std::size_t (&local_range)[N], detail::GroupHandle handle, std::size_t local_linear,
                          const std::size_t (&local_id)[N])
      : detail::GroupGeometry<N>(group_id, group_range, local_range, handle), own_linear_(local_linear) {
    for (int d = 0; d < N; ++d) own_id_[d] = local_id[d];
  }

  KAPI_FUNCTION std::size_t get_global_range(int d) const { return this->group_range_[d] * this->local_range_[d]; }

  // For the framework: the work-item with these local ids.
  KAPI_FUNCTION NdItem<N> impl_item(std::size_t local_linear, const std::size_t (&local_id)[N]) const {
    return NdItem<N>(Group<N>(this->group_id_, this->group_range_, this->local_range_, local_linear, this->handle_),
                     local_id);
  }
  /// Device backends: the calling work-item.
  KAPI_FUNCTION NdItem<N> impl_own_item() const { return impl_item(own_linear_, own_id_); }

 private:
  std::size_t own_linear_ = 0;
  std::size_t own_id_[N] = {};
};

}  // namespace kapi
