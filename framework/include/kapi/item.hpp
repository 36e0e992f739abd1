// SPDX-License-Identifier: Apache-2.0
#pragma once
// Item<N> (a work-item of a range kernel) and NdItem<N> (of an nd-range kernel).
#include <cstddef>

#include <kapi/group.hpp>
#include <kapi/sub_group.hpp>

namespace kapi {

template <int N>
class Item {
 public:
  static constexpr int dimensions = N;

  KAPI_FUNCTION Item(const std::size_t (&id)[N], const std::size_t (&range)[N]) {
    for (int d = 0; d < N; ++d) {
      id_[d] = id[d];
      range_[d] = range[d];
    }
  }

  KAPI_FUNCTION std::size_t get_id(int d) const { return id_[d]; }
  KAPI_FUNCTION std::size_t get_range(int d) const { return range_[d]; }
  KAPI_FUNCTION std::size_t get_linear_id() const { return detail::linearize(id_, range_); }
  KAPI_FUNCTION std::size_t get_linear_range() const { return detail::product(range_); }

 private:
  std::size_t id_[N];
  std::size_t range_[N];
};

template <int N>
class NdItem {
 public:
  static constexpr int dimensions = N;

  KAPI_FUNCTION NdItem(const Group<N>& group, const std::size_t (&local_id)[N]) : group_(group) {
    for (int d = 0; d < N; ++d) local_id_[d] = local_id[d];
  }

  KAPI_FUNCTION std::size_t get_global_id(int d) const {
    return group_.get_group_id(d) * group_.get_local_range(d) + get_local_id(d);
  }
  KAPI_FUNCTION std::size_t get_local_id(int d) const {
    const std::size_t range = group_.get_local_range(d);  // a call inside an assumption is ignored by clang
    KAPI_DEVICE_ASSUME(local_id_[d] < range);
    return local_id_[d];
  }
  KAPI_FUNCTION std::size_t get_global_range(int d) const {
    return group_.get_group_range(d) * group_.get_local_range(d);
  }
  KAPI_FUNCTION std::size_t get_local_range(int d) const { return group_.get_local_range(d); }
  KAPI_FUNCTION std::size_t get_global_linear_id() const {
    std::size_t linear = get_global_id(0);
    for (int d = 1; d < N; ++d) linear = linear * get_global_range(d) + get_global_id(d);
    return linear;
  }
  KAPI_FUNCTION std::size_t get_local_linear_id() const { return group_.impl_local_linear_id(); }
  KAPI_FUNCTION std::size_t get_global_linear_range() const {
    return group_.get_group_linear_range() * group_.get_local_linear_range();
  }
  KAPI_FUNCTION std::size_t get_local_linear_range() const { return group_.get_local_linear_range(); }
  KAPI_FUNCTION const Group<N>& get_group() const { return group_; }
  /// The work-item's sub-group (sub_group.hpp): consecutive local linear ids.
  KAPI_FUNCTION SubGroup get_sub_group() const {
    return SubGroup(group_.impl_local_linear_id(), group_.get_local_linear_range(), detail::compiled_sub_group_size,
                    group_.impl_handle());
  }

 private:
  Group<N> group_;
  std::size_t local_id_[N];
};

template <class T>
inline constexpr bool is_item_v = false;
template <int N>
inline constexpr bool is_item_v<Item<N>> = true;

}  // namespace kapi
