// SPDX-License-Identifier: Apache-2.0
#pragma once
// SYCL 2020 group algorithms for flat nd-range kernels. Each is a collective over the
// calling work-group: every work-item of the group must call it, in converged control
// flow, with the same operator (and the same init, broadcast source or joint range).
// Each acts as a group barrier.
//   T sum   = kapi::reduce_over_group(g, x, kapi::plus<>());
//   T below = kapi::exclusive_scan_over_group(g, x, kapi::plus<>());
//   T first = kapi::group_broadcast(g, x);            // work-item 0's x
//   bool any = kapi::any_of_group(g, x < 0);
//   T total = kapi::joint_reduce(g, tile.get_pointer(), tile.get_pointer() + n, kapi::maximum<>());
// Values are arithmetic types (bool, integers, float, double).
//
// Results: integers are exact. Floating point depends on the combining order, which is
// fixed by the group size: on host backends scans are a left fold in local-id order (the
// serial loop's result) and reductions combine eight contiguous blocks of local ids, each
// folded left to right (host/detail/group_fold.hpp); on device backends reductions and
// scans combine in a tree. Either way results match a double-precision reference within
// n·ε·Σ|x| (ε of the value type, n the number of values), the standard bound for any
// summation order.
//
// Mapping (detail/group_ops.hpp): device code uses warp shuffles and block
// collectives (team/detail/group_algorithms.hpp); host backends run the group as host contexts and
// combine through the group's collective buffer (host/detail/group_algorithms.hpp).
#include <cstddef>
#include <type_traits>

#include <kapi/detail/group_ops.hpp>
#include <kapi/functional.hpp>
#include <kapi/group.hpp>
#include <kapi/sub_group_algorithms.hpp>  // the same algorithms over a sub-group

namespace kapi {

namespace detail {
template <class T>
KAPI_FUNCTION constexpr void check_group_value() {
  static_assert(std::is_arithmetic_v<T>,
                "kapi group algorithms take arithmetic values (bool, integers, float, double)");
}

template <class Ptr>
using pointee_t = std::remove_cv_t<std::remove_reference_t<decltype(*std::declval<Ptr>())>>;
}  // namespace detail

// ---------------------------------------------------------------------------- reduce

/// op over every work-item's x (in local-id order on host backends).
template <int N, class T, class Op>
KAPI_FUNCTION T reduce_over_group(const Group<N>& g, const T& x, const Op& op) {
  detail::check_group_value<T>();
  return detail::group_ops::reduce(g.impl_handle(), x, op);
}

/// op(init, reduce_over_group(g, x, op)).
template <int N, class V, class T, class Op>
KAPI_FUNCTION T reduce_over_group(const Group<N>& g, const V& x, const T& init, const Op& op) {
  return T(op(init, reduce_over_group(g, T(x), op)));
}

// ------------------------------------------------------------------------------ scans

/// op over work-items 0 … me.
template <int N, class T, class Op>
KAPI_FUNCTION T inclusive_scan_over_group(const Group<N>& g, const T& x, const Op& op) {
  detail::check_group_value<T>();
  return detail::group_ops::scan<true, false>(g.impl_handle(), x, op, x);
}

/// op(init, op over work-items 0 … me).
template <int N, class V, class Op, class T>
KAPI_FUNCTION T inclusive_scan_over_group(const Group<N>& g, const V& x, const Op& op, const T& init) {
  detail::check_group_value<T>();
  return detail::group_ops::scan<true, true>(g.impl_handle(), T(x), op, init);
}

/// op over work-items 0 … me-1; work-item 0 gets the operator's identity.
template <int N, class T, class Op>
KAPI_FUNCTION T exclusive_scan_over_group(const Group<N>& g, const T& x, const Op& op) {
  detail::check_group_value<T>();
  return detail::group_ops::scan<false, false>(g.impl_handle(), x, op, x);
}

/// op(init, op over work-items 0 … me-1); work-item 0 gets init.
template <int N, class V, class T, class Op>
KAPI_FUNCTION T exclusive_scan_over_group(const Group<N>& g, const V& x, const T& init, const Op& op) {
  detail::check_group_value<T>();
  return detail::group_ops::scan<false, true>(g.impl_handle(), T(x), op, init);
}

// -------------------------------------------------------------------------- broadcast

/// The x of the work-item with local linear id `from` (default 0), to every work-item.
/// `from` must be below the group's size. Host backends report any other as
/// kapi::launch_error after the launch (naming the id and the group size); device
/// backends abort the kernel with a message in debug builds (KOKKOS_ENABLE_DEBUG or
/// KAPI_DEBUG) and otherwise give each work-item its own x. Either way nothing past the
/// group is read, and the call is still a group barrier.
template <int N, class T>
KAPI_FUNCTION T group_broadcast(const Group<N>& g, const T& x, std::size_t from = 0) {
  detail::check_group_value<T>();
  return detail::group_ops::broadcast(g.impl_handle(), x, from);
}

// ------------------------------------------------------------------------- predicates

template <int N>
KAPI_FUNCTION bool any_of_group(const Group<N>& g, bool pred) {
  return detail::group_ops::any(g.impl_handle(), pred);
}

template <int N>
KAPI_FUNCTION bool all_of_group(const Group<N>& g, bool pred) {
  return detail::group_ops::all(g.impl_handle(), pred);
}

template <int N>
KAPI_FUNCTION bool none_of_group(const Group<N>& g, bool pred) {
  return !any_of_group(g, pred);
}

/// pred(x) for each work-item's x.
template <int N, class T, class Pred, class = std::enable_if_t<std::is_invocable_v<const Pred&, const T&>>>
KAPI_FUNCTION bool any_of_group(const Group<N>& g, const T& x, const Pred& pred) {
  return any_of_group(g, bool(pred(x)));
}
template <int N, class T, class Pred, class = std::enable_if_t<std::is_invocable_v<const Pred&, const T&>>>
KAPI_FUNCTION bool all_of_group(const Group<N>& g, const T& x, const Pred& pred) {
  return all_of_group(g, bool(pred(x)));
}
template <int N, class T, class Pred, class = std::enable_if_t<std::is_invocable_v<const Pred&, const T&>>>
KAPI_FUNCTION bool none_of_group(const Group<N>& g, const T& x, const Pred& pred) {
  return none_of_group(g, bool(pred(x)));
}

// ---------------------------------------------------------------- joint (over memory)
// first/last: pointers (or random-access iterators) into global memory (a View's data())
// or local memory (a LocalAccessor's get_pointer()); the same range for every work-item.
// On host backends one work-item does the whole pass (the thread runs the group anyway,
// and the result is the exact sequential one); on device backends the group shares it.

/// op over *first … *(last-1); an empty range gives the operator's identity.
template <int N, class Ptr, class Op>
KAPI_FUNCTION detail::pointee_t<Ptr> joint_reduce(const Group<N>& g, Ptr first, Ptr last, const Op& op) {
  using T = detail::pointee_t<Ptr>;
  detail::check_group_value<T>();
  return detail::group_ops::joint_reduce<false>(g.impl_handle(), first, static_cast<std::size_t>(last - first), op,
                                                T());
}

/// op(init, joint_reduce(g, first, last, op)); an empty range gives init.
template <int N, class Ptr, class T, class Op>
KAPI_FUNCTION T joint_reduce(const Group<N>& g, Ptr first, Ptr last, const T& init, const Op& op) {
  detail::check_group_value<T>();
  return detail::group_ops::joint_reduce<true>(g.impl_handle(), first, static_cast<std::size_t>(last - first), op,
                                               init);
}

namespace detail {
// The joint scans' shared front: result may equal first (in place).
template <bool Inclusive, bool HasInit, int N, class InPtr, class OutPtr, class T, class Op>
KAPI_FUNCTION OutPtr joint_scan(const Group<N>& g, InPtr first, InPtr last, OutPtr result, const Op& op,
                                const T& init) {
  check_group_value<T>();
  const std::size_t n = static_cast<std::size_t>(last - first);
  group_ops::joint_scan<Inclusive, HasInit>(g.impl_handle(), first, n, result, op, init);
  return result + n;
}
}  // namespace detail

/// result[i] = op over first[0 … i]; returns result + (last - first).
template <int N, class InPtr, class OutPtr, class Op>
KAPI_FUNCTION OutPtr joint_inclusive_scan(const Group<N>& g, InPtr first, InPtr last, OutPtr result, const Op& op) {
  using T = detail::pointee_t<OutPtr>;
  return detail::joint_scan<true, false>(g, first, last, result, op, T());
}

/// result[i] = op(init, op over first[0 … i]).
template <int N, class InPtr, class OutPtr, class Op, class T>
KAPI_FUNCTION OutPtr joint_inclusive_scan(const Group<N>& g, InPtr first, InPtr last, OutPtr result, const Op& op,
                                          const T& init) {
  return detail::joint_scan<true, true>(g, first, last, result, op, detail::pointee_t<OutPtr>(init));
}

/// result[i] = op over first[0 … i-1]; result[0] = the operator's identity.
template <int N, class InPtr, class OutPtr, class Op>
KAPI_FUNCTION OutPtr joint_exclusive_scan(const Group<N>& g, InPtr first, InPtr last, OutPtr result, const Op& op) {
  using T = detail::pointee_t<OutPtr>;
  return detail::joint_scan<false, false>(g, first, last, result, op, known_identity<Op, T>());
}

/// result[i] = op(init, op over first[0 … i-1]); result[0] = init.
template <int N, class InPtr, class OutPtr, class T, class Op>
KAPI_FUNCTION OutPtr joint_exclusive_scan(const Group<N>& g, InPtr first, InPtr last, OutPtr result, const T& init,
                                          const Op& op) {
  return detail::joint_scan<false, true>(g, first, last, result, op, detail::pointee_t<OutPtr>(init));
}

/// pred over the range, as the group-wide any/all/none.
template <int N, class Ptr, class Pred>
KAPI_FUNCTION bool joint_any_of(const Group<N>& g, Ptr first, Ptr last, const Pred& pred) {
  return detail::group_ops::joint_any(g.impl_handle(), first, static_cast<std::size_t>(last - first), pred);
}

template <int N, class Ptr, class Pred>
KAPI_FUNCTION bool joint_all_of(const Group<N>& g, Ptr first, Ptr last, const Pred& pred) {
  return !joint_any_of(g, first, last, [&pred](const auto& x) { return !pred(x); });
}

template <int N, class Ptr, class Pred>
KAPI_FUNCTION bool joint_none_of(const Group<N>& g, Ptr first, Ptr last, const Pred& pred) {
  return !joint_any_of(g, first, last, pred);
}

}  // namespace kapi
