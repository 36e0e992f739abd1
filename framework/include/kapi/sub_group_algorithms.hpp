// SPDX-License-Identifier: Apache-2.0
#pragma once
// SYCL 2020 group algorithms over a sub-group (sub_group.hpp): shuffles, broadcast,
// reductions, scans and votes. Each is a collective over the calling work-item's
// sub-group: every work-item of the sub-group calls it, in converged control flow, with
// the same operator (init, broadcast source, shift or xor mask).
//   const kapi::SubGroup sg = it.get_sub_group();
//   T next  = kapi::shift_group_left(sg, x);           // x of local id + 1
//   T other = kapi::permute_group_by_xor(sg, x, 1);    // x of local id ^ 1
//   T sum   = kapi::reduce_over_group(sg, x, kapi::plus<>());
//   T below = kapi::exclusive_scan_over_group(sg, x, kapi::plus<>());
//   bool any = kapi::any_of_group(sg, x < 0);
// Shuffles move any trivially copyable value; reductions and scans take arithmetic values
// (as the work-group algorithms do) and every kapi operator.
//
// A source outside the sub-group (a shift past either end, an xor or a select or
// broadcast id at or past get_local_range()) is left unspecified by SYCL; kapi gives the
// calling work-item its own x, on every backend. It is not an error: sub-group sizes
// differ between backends and the last sub-group of a group may be partial, so an id one
// sub-group has is often missing in another of the same kernel.
//
// Results: integers are exact. Floating point: host sub-groups are single work-items (the
// value itself); device reductions combine in a fixed pairwise tree in local-id order and
// scans in a Hillis-Steele tree, both the same for every work-item of the sub-group.
#include <cstddef>
#include <type_traits>

#include <kapi/detail/group_ops.hpp>
#include <kapi/functional.hpp>
#include <kapi/sub_group.hpp>

namespace kapi {

namespace detail {
template <class T>
KAPI_FUNCTION constexpr void check_sub_group_value() {
  static_assert(std::is_arithmetic_v<T>,
                "kapi sub-group reductions and scans take arithmetic values (bool, integers, float, double)");
}
template <class T>
KAPI_FUNCTION constexpr void check_shuffle_value() {
  static_assert(std::is_trivially_copyable_v<T>, "kapi sub-group shuffles move trivially copyable values");
}
/// Work-item `src`'s x when src is in the sub-group, else the caller's own.
template <class T>
KAPI_FUNCTION T sub_group_shuffle(const SubGroup& sg, const T& x, std::size_t src, bool valid) {
  check_shuffle_value<T>();
  return sub_group_ops::shuffle(sg, x, valid ? src : sg.get_local_id());
}
}  // namespace detail

// ------------------------------------------------------------------------- shuffles

/// x of the work-item with local id `remote_local_id`.
template <class T>
KAPI_FUNCTION T select_from_group(const SubGroup& sg, const T& x, std::size_t remote_local_id) {
  return detail::sub_group_shuffle(sg, x, remote_local_id, remote_local_id < sg.get_local_range());
}

/// x of local id + delta.
template <class T>
KAPI_FUNCTION T shift_group_left(const SubGroup& sg, const T& x, std::size_t delta = 1) {
  const std::size_t me = sg.get_local_id();
  return detail::sub_group_shuffle(sg, x, me + delta, delta < sg.get_local_range() - me);
}

/// x of local id - delta.
template <class T>
KAPI_FUNCTION T shift_group_right(const SubGroup& sg, const T& x, std::size_t delta = 1) {
  const std::size_t me = sg.get_local_id();
  return detail::sub_group_shuffle(sg, x, me - delta, delta <= me);
}

/// x of local id ^ mask.
template <class T>
KAPI_FUNCTION T permute_group_by_xor(const SubGroup& sg, const T& x, std::size_t mask) {
  const std::size_t src = sg.get_local_id() ^ mask;
  return detail::sub_group_shuffle(sg, x, src, src < sg.get_local_range());
}

/// x of the work-item with local id `from` (default 0, the leader).
template <class T>
KAPI_FUNCTION T group_broadcast(const SubGroup& sg, const T& x, std::size_t from = 0) {
  return select_from_group(sg, x, from);
}

// --------------------------------------------------------------------------- reduce

/// op over the sub-group's x, in local-id order.
template <class T, class Op>
KAPI_FUNCTION T reduce_over_group(const SubGroup& sg, const T& x, const Op& op) {
  detail::check_sub_group_value<T>();
  return detail::sub_group_ops::reduce(sg, x, op);
}

/// op(init, reduce_over_group(sg, x, op)).
template <class V, class T, class Op>
KAPI_FUNCTION T reduce_over_group(const SubGroup& sg, const V& x, const T& init, const Op& op) {
  return T(op(init, reduce_over_group(sg, T(x), op)));
}

// ----------------------------------------------------------------------------- scans

/// op over local ids 0 … me.
template <class T, class Op>
KAPI_FUNCTION T inclusive_scan_over_group(const SubGroup& sg, const T& x, const Op& op) {
  detail::check_sub_group_value<T>();
  return detail::sub_group_ops::scan<true, false>(sg, x, op, x);
}

/// op(init, op over local ids 0 … me).
template <class V, class Op, class T>
KAPI_FUNCTION T inclusive_scan_over_group(const SubGroup& sg, const V& x, const Op& op, const T& init) {
  detail::check_sub_group_value<T>();
  return detail::sub_group_ops::scan<true, true>(sg, T(x), op, init);
}

/// op over local ids 0 … me-1; local id 0 gets the operator's identity.
template <class T, class Op>
KAPI_FUNCTION T exclusive_scan_over_group(const SubGroup& sg, const T& x, const Op& op) {
  detail::check_sub_group_value<T>();
  return detail::sub_group_ops::scan<false, false>(sg, x, op, x);
}

/// op(init, op over local ids 0 … me-1); local id 0 gets init.
template <class V, class T, class Op>
KAPI_FUNCTION T exclusive_scan_over_group(const SubGroup& sg, const V& x, const T& init, const Op& op) {
  detail::check_sub_group_value<T>();
  return detail::sub_group_ops::scan<false, true>(sg, T(x), op, init);
}

// ------------------------------------------------------------------------ predicates

KAPI_FUNCTION bool any_of_group(const SubGroup& sg, bool pred) { return detail::sub_group_ops::any(sg, pred); }
KAPI_FUNCTION bool all_of_group(const SubGroup& sg, bool pred) { return detail::sub_group_ops::all(sg, pred); }
KAPI_FUNCTION bool none_of_group(const SubGroup& sg, bool pred) { return !any_of_group(sg, pred); }

/// pred(x) for each work-item's x.
template <class T, class Pred, class = std::enable_if_t<std::is_invocable_v<const Pred&, const T&>>>
KAPI_FUNCTION bool any_of_group(const SubGroup& sg, const T& x, const Pred& pred) {
  return any_of_group(sg, bool(pred(x)));
}
template <class T, class Pred, class = std::enable_if_t<std::is_invocable_v<const Pred&, const T&>>>
KAPI_FUNCTION bool all_of_group(const SubGroup& sg, const T& x, const Pred& pred) {
  return all_of_group(sg, bool(pred(x)));
}
template <class T, class Pred, class = std::enable_if_t<std::is_invocable_v<const Pred&, const T&>>>
KAPI_FUNCTION bool none_of_group(const SubGroup& sg, const T& x, const Pred& pred) {
  return none_of_group(sg, bool(pred(x)));
}

}  // namespace kapi
