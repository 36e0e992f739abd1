#pragma once
// Group<N>: the work-group a work-item of an nd-range kernel belongs to.
#include <cstddef>

#include "detail/group_handle.hpp"
#include "detail/linearize.hpp"
#include "range.hpp"

namespace kapi {

template <int N>
class Group {
 public:
  static constexpr int dimensions = N;

  Group() = default;
  KAPI_FUNCTION Group(const std::size_t (&group_id)[N], const std::size_t (&group_range)[N],
                      const std::size_t (&local_range)[N], std::size_t local_linear_id,
                      detail::GroupHandle handle)
      : local_linear_id_(local_linear_id), handle_(handle) {
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
  /// True for the work-item with local id 0 (the calling work-item's view of its group).
  KAPI_FUNCTION bool leader() const { return local_linear_id_ == 0; }

  // For the framework's collectives: the calling work-item and the group's machinery.
  KAPI_FUNCTION std::size_t impl_local_linear_id() const { return local_linear_id_; }
  KAPI_FUNCTION detail::GroupHandle impl_handle() const { return handle_; }

 private:
  std::size_t group_id_[N] = {};
  std::size_t group_range_[N] = {};
  std::size_t local_range_[N] = {};
  std::size_t local_linear_id_ = 0;
  detail::GroupHandle handle_;
};

}  // namespace kapi
