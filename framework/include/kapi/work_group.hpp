#pragma once
// WorkGroup<N>: what a phased kernel receives instead of an NdItem — one whole work-group,
// whose work-items it visits in phases (phased.hpp).
#include <cstddef>

#include "detail/group_handle.hpp"
#include "detail/linearize.hpp"
#include "item.hpp"

namespace kapi {

template <int N>
class WorkGroup {
 public:
  static constexpr int dimensions = N;

  KAPI_FUNCTION WorkGroup(const std::size_t (&group_id)[N], const std::size_t (&group_range)[N],
                          const std::size_t (&local_range)[N], detail::GroupHandle handle)
      : handle_(handle) {
    for (int d = 0; d < N; ++d) {
      group_id_[d] = group_id[d];
      group_range_[d] = group_range[d];
      local_range_[d] = local_range[d];
    }
  }

  KAPI_FUNCTION std::size_t get_group_id(int d) const { return group_id_[d]; }
  KAPI_FUNCTION std::size_t get_group_linear_id() const { return detail::linearize(group_id_, group_range_); }
  KAPI_FUNCTION std::size_t get_group_range(int d) const { return group_range_[d]; }
  KAPI_FUNCTION std::size_t get_group_linear_range() const { return detail::product(group_range_); }
  KAPI_FUNCTION std::size_t get_local_range(int d) const { return local_range_[d]; }
  KAPI_FUNCTION std::size_t get_local_linear_range() const { return detail::product(local_range_); }
  KAPI_FUNCTION std::size_t get_global_range(int d) const { return group_range_[d] * local_range_[d]; }

  // For the framework: the work-item with these local ids, and the group's machinery.
  KAPI_FUNCTION NdItem<N> impl_item(std::size_t local_linear, const std::size_t (&local_id)[N]) const {
    return NdItem<N>(Group<N>(group_id_, group_range_, local_range_, local_linear, handle_), local_id);
  }
  KAPI_FUNCTION NdItem<N> impl_item(std::size_t local_linear) const {
    std::size_t local_id[N];
    detail::delinearize(local_linear, local_range_, local_id);
    return impl_item(local_linear, local_id);
  }
  KAPI_FUNCTION detail::GroupHandle impl_handle() const { return handle_; }

 private:
  std::size_t group_id_[N] = {};
  std::size_t group_range_[N] = {};
  std::size_t local_range_[N] = {};
  detail::GroupHandle handle_;
};

}  // namespace kapi
