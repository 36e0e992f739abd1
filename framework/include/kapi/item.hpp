// SPDX-License-Identifier: Apache-2.0
#pragma once
// Item<N> (a work-item of a range kernel) and NdItem<N> (of an nd-range kernel).
#include <cstddef>
#include <type_traits>

#include <kapi/group.hpp>
#include <kapi/id.hpp>
#include <kapi/range.hpp>
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

  // SYCL's item as values: its id and range, item[d], and the conversions that let a range
  // kernel take Id<N> (or std::size_t for one dimension) instead of the Item.
  KAPI_FUNCTION Id<N> get_id() const { return Id<N>::from_array(id_); }
  KAPI_FUNCTION Range<N> get_range() const { return detail::to_range(range_); }
  KAPI_FUNCTION std::size_t operator[](int d) const { return id_[d]; }
  KAPI_FUNCTION operator Id<N>() const { return get_id(); }
  KAPI_FUNCTION operator std::conditional_t<N == 1, std::size_t, detail::IdNotOneDimensional>() const {
    return get_id();  // Id<1> to its size_t; nothing usable for N > 1
  }

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

  // The SYCL forms without a dimension: ids as Id<N>, extents as Range<N>.
  KAPI_FUNCTION Id<N> get_global_id() const {
    Id<N> r;
    for (int d = 0; d < N; ++d) r[d] = get_global_id(d);
    return r;
  }
  KAPI_FUNCTION Id<N> get_local_id() const {
    Id<N> r;
    for (int d = 0; d < N; ++d) r[d] = get_local_id(d);
    return r;
  }
  KAPI_FUNCTION Range<N> get_global_range() const {
    Range<N> r;
    for (int d = 0; d < N; ++d) r.extent[d] = get_global_range(d);
    return r;
  }
  KAPI_FUNCTION Range<N> get_local_range() const { return group_.get_local_range(); }
  KAPI_FUNCTION Range<N> get_group_range() const { return group_.get_group_range(); }
  KAPI_FUNCTION std::size_t get_group_range(int d) const { return group_.get_group_range(d); }
  KAPI_FUNCTION NdRange<N> get_nd_range() const { return NdRange<N>(get_global_range(), get_local_range()); }
  /// The work-group's id in dimension d (SYCL's nd_item::get_group(d)).
  KAPI_FUNCTION std::size_t get_group(int d) const { return group_.get_group_id(d); }
  KAPI_FUNCTION std::size_t get_group_linear_id() const { return group_.get_group_linear_id(); }

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

/// view(i0, i1, ...) for a work-item of a range kernel (SYCL's acc[item]).
template <class View, int N>
KAPI_FUNCTION decltype(auto) at(const View& view, const Item<N>& item) {
  return at(view, item.get_id());
}

template <class T>
inline constexpr bool is_item_v = false;
template <int N>
inline constexpr bool is_item_v<Item<N>> = true;

}  // namespace kapi
