// SPDX-License-Identifier: Apache-2.0
#pragma once
// Group<N>: the work-group a work-item of an nd-range kernel belongs to.
#include <cstddef>

#include <kapi/detail/group_geometry.hpp>
#include <kapi/detail/linearize.hpp>
#include <kapi/id.hpp>
#include <kapi/range.hpp>

namespace kapi {

template <int N>
class Group : public detail::GroupGeometry<N> {
 public:
  Group() = default;
  KAPI_FUNCTION Group(const std::size_t (&group_id)[N], const std::size_t (&group_range)[N],
                      const std::size_t (&local_range)[N], std::size_t local_linear_id, detail::GroupHandle handle)
      : detail::GroupGeometry<N>(group_id, group_range, local_range, handle), local_linear_id_(local_linear_id) {}

  /// True for the work-item with local id 0 (the calling work-item's view of its group).
  KAPI_FUNCTION bool leader() const { return local_linear_id_ == 0; }

  /// The calling work-item's local id (SYCL's group::get_local_id()).
  KAPI_FUNCTION Id<N> get_local_id() const {
    std::size_t id[N];
    detail::delinearize(local_linear_id_, this->local_range_, id);
    return Id<N>::from_array(id);
  }
  KAPI_FUNCTION std::size_t get_local_id(int d) const { return get_local_id()[d]; }
  KAPI_FUNCTION std::size_t get_local_linear_id() const { return local_linear_id_; }

  // For the framework's collectives: the calling work-item.
  KAPI_FUNCTION std::size_t impl_local_linear_id() const { return local_linear_id_; }

 private:
  std::size_t local_linear_id_ = 0;
};

}  // namespace kapi
