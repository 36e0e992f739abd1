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

  KAPI_FUNCTION std::size_t get_global_range(int d) const { return this->group_range_[d] * this->local_range_[d]; }

  // For the framework: the work-item with these local ids.
  KAPI_FUNCTION NdItem<N> impl_item(std::size_t local_linear, const std::size_t (&local_id)[N]) const {
    return NdItem<N>(Group<N>(this->group_id_, this->group_range_, this->local_range_, local_linear, this->handle_),
                     local_id);
  }
  KAPI_FUNCTION NdItem<N> impl_item(std::size_t local_linear) const {
    std::size_t local_id[N];
    detail::delinearize(local_linear, this->local_range_, local_id);
    return impl_item(local_linear, local_id);
  }
};

}  // namespace kapi
