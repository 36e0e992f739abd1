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
// Results: integers are exact. Floating point depends on the combining order: on host
// backends every algorithm is a sequential left fold in local-id order (exactly the
// serial loop's result); on device backends reductions and scans combine in a tree, so
// they match a double-precision reference within n·ε·Σ|x| (ε of the value type, n the
// number of values), the standard bound for any summation order.
//
// Mapping: device backends use Kokkos team collectives (detail/device_collectives.hpp);
// host backends run the group as host contexts and combine through the group's
// collective buffer (detail/host_collectives.hpp).
#include <cstddef>
#include <cstdio>
#include <type_traits>

#include "detail/device_collectives.hpp"
#include "functional.hpp"
#include "group.hpp"
#if !KAPI_DEVICE_PASS
#include "detail/host_collectives.hpp"
#endif

namespace kapi {

namespace detail {
template <class T>
KAPI_FUNCTION constexpr void check_group_value() {
  static_assert(std::is_arithmetic_v<T>, "kapi group algorithms take arithmetic values (bool, integers, float, double)");
}

template <class Ptr>
using pointee_t = std::remove_cv_t<std::remove_reference_t<decltype(*std::declval<Ptr>())>>;

template <int N, class T, class Op>
KAPI_FUNCTION ScanParts<T> scan_parts(const Group<N>& g, const T& x, const Op& op) {
#if KAPI_DEVICE_PASS
  return device_scan(g.impl_handle().team(), x, op);
#else
  (void)g, (void)x, (void)op;
  return ScanParts<T>{};  // not used on host (host_scan combines in one pass)
#endif
}
}  // namespace detail

// ---------------------------------------------------------------------------- reduce

/// op over every work-item's x (in local-id order on host backends).
template <int N, class T, class Op>
KAPI_FUNCTION T reduce_over_group(const Group<N>& g, const T& x, const Op& op) {
  detail::check_group_value<T>();
#if KAPI_DEVICE_PASS
  return detail::device_reduce(g.impl_handle().team(), x, op);
#else
  return detail::host_reduce(g.impl_handle().host(), x, op);
#endif
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
#if KAPI_DEVICE_PASS
  return detail::scan_parts(g, x, op).inclusive;
#else
  return detail::host_scan(g.impl_handle().host(), x, op, true, false, x, x);
#endif
}

/// op(init, op over work-items 0 … me).
template <int N, class V, class Op, class T>
KAPI_FUNCTION T inclusive_scan_over_group(const Group<N>& g, const V& x, const Op& op, const T& init) {
  detail::check_group_value<T>();
#if KAPI_DEVICE_PASS
  return T(op(init, detail::scan_parts(g, T(x), op).inclusive));
#else
  return detail::host_scan(g.impl_handle().host(), T(x), op, true, true, init, init);
#endif
}

/// op over work-items 0 … me-1; work-item 0 gets the operator's identity.
template <int N, class T, class Op>
KAPI_FUNCTION T exclusive_scan_over_group(const Group<N>& g, const T& x, const Op& op) {
  detail::check_group_value<T>();
  const T identity = known_identity<Op, T>();
#if KAPI_DEVICE_PASS
  const auto p = detail::scan_parts(g, x, op);
  return p.has_exclusive ? p.exclusive : identity;
#else
  return detail::host_scan(g.impl_handle().host(), x, op, false, false, identity, identity);
#endif
}

/// op(init, op over work-items 0 … me-1); work-item 0 gets init.
template <int N, class V, class T, class Op>
KAPI_FUNCTION T exclusive_scan_over_group(const Group<N>& g, const V& x, const T& init, const Op& op) {
  detail::check_group_value<T>();
#if KAPI_DEVICE_PASS
  const auto p = detail::scan_parts(g, T(x), op);
  return p.has_exclusive ? T(op(init, p.exclusive)) : init;
#else
  return detail::host_scan(g.impl_handle().host(), T(x), op, false, true, init, init);
#endif
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
#if KAPI_DEVICE_PASS
  const auto& team = g.impl_handle().team();
  if (from >= static_cast<std::size_t>(team.team_size())) {
#if defined(KOKKOS_ENABLE_DEBUG) || defined(KAPI_DEBUG)
    printf("kapi::group_broadcast: source local id %llu is outside the work-group of %d work-items\n",
           static_cast<unsigned long long>(from), team.team_size());
    Kokkos::abort("kapi::group_broadcast: source local id outside the work-group");
#endif
    team.team_barrier();
    return x;
  }
  return detail::device_broadcast(team, x, from);
#else
  return detail::host_broadcast(g.impl_handle().host(), x, from);
#endif
}

// ------------------------------------------------------------------------- predicates

template <int N>
KAPI_FUNCTION bool any_of_group(const Group<N>& g, bool pred) {
#if KAPI_DEVICE_PASS
  return detail::device_any(g.impl_handle().team(), pred);
#else
  return detail::host_reduce(g.impl_handle().host(), pred, logical_or<bool>());
#endif
}

template <int N>
KAPI_FUNCTION bool all_of_group(const Group<N>& g, bool pred) {
#if KAPI_DEVICE_PASS
  return detail::device_all(g.impl_handle().team(), pred);
#else
  return detail::host_reduce(g.impl_handle().host(), pred, logical_and<bool>());
#endif
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
  const std::size_t n = static_cast<std::size_t>(last - first);
#if KAPI_DEVICE_PASS
  const auto& team = g.impl_handle().team();
  T partial = known_identity<Op, T>();
  for (std::size_t i = team.team_rank(); i < n; i += team.team_size()) partial = T(op(partial, first[i]));
  return detail::device_reduce(team, partial, op);
#else
  return detail::host_once<T>(g.impl_handle().host(), [&] {
    if (n == 0) return known_identity<Op, T>();
    T acc = first[0];
    for (std::size_t i = 1; i < n; ++i) acc = T(op(acc, first[i]));
    return acc;
  });
#endif
}

/// op(init, joint_reduce(g, first, last, op)); an empty range gives init.
template <int N, class Ptr, class T, class Op>
KAPI_FUNCTION T joint_reduce(const Group<N>& g, Ptr first, Ptr last, const T& init, const Op& op) {
  detail::check_group_value<T>();
  const std::size_t n = static_cast<std::size_t>(last - first);
#if KAPI_DEVICE_PASS
  const auto& team = g.impl_handle().team();
  T partial = known_identity<Op, T>();
  for (std::size_t i = team.team_rank(); i < n; i += team.team_size()) partial = T(op(partial, T(first[i])));
  return T(op(init, detail::device_reduce(team, partial, op)));
#else
  return detail::host_once<T>(g.impl_handle().host(), [&] {
    T acc = init;
    for (std::size_t i = 0; i < n; ++i) acc = T(op(acc, T(first[i])));
    return acc;
  });
#endif
}

namespace detail {
// The joint scans' shared body. result may equal first (in place).
// Only an exclusive scan without init needs the operator's identity on host.
template <bool Inclusive, bool HasInit, class Op, class T>
KAPI_FUNCTION T empty_joint_scan_value(const T& init) {
  if constexpr (Inclusive || HasInit) {
    return init;
  } else {
    return known_identity<Op, T>();
  }
}

template <bool Inclusive, bool HasInit, int N, class InPtr, class OutPtr, class T, class Op>
KAPI_FUNCTION OutPtr joint_scan(const Group<N>& g, InPtr first, InPtr last, OutPtr result, const Op& op,
                                const T& init) {
  check_group_value<T>();
  const std::size_t n = static_cast<std::size_t>(last - first);
  const bool inclusive = Inclusive, has_init = HasInit;
#if KAPI_DEVICE_PASS
  // Block by block of group-size elements, one per work-item (coalesced), carrying the
  // running total from block to block.
  const auto& team = g.impl_handle().team();
  const std::size_t size = team.team_size(), me = team.team_rank();
  const T identity = known_identity<Op, T>();
  T carry = init;
  bool has_carry = has_init;
  for (std::size_t base = 0; base < n; base += size) {
    const std::size_t i = base + me;
    const T x = i < n ? T(first[i]) : identity;
    const ScanParts<T> p = device_scan(team, x, op);
    T out;
    if (inclusive) {
      out = has_carry ? T(op(carry, p.inclusive)) : p.inclusive;
    } else if (p.has_exclusive) {
      out = has_carry ? T(op(carry, p.exclusive)) : p.exclusive;
    } else {
      out = has_carry ? carry : identity;
    }
    if (i < n) result[i] = out;
    const T block_total = device_broadcast(team, p.inclusive, size - 1);
    carry = has_carry ? T(op(carry, block_total)) : block_total;
    has_carry = true;
  }
  team.team_barrier();  // every result visible to every work-item
#else
  host_once<char>(g.impl_handle().host(), [&] {
    bool any = has_init;
    T running = init;
    for (std::size_t i = 0; i < n; ++i) {
      const T v = T(first[i]);  // read before writing: result may be first
      const T next = any ? T(op(running, v)) : v;
      result[i] = inclusive ? next : (any ? running : empty_joint_scan_value<Inclusive, HasInit, Op>(init));
      running = next;
      any = true;
    }
    return char(0);
  });
#endif
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
  const std::size_t n = static_cast<std::size_t>(last - first);
#if KAPI_DEVICE_PASS
  const auto& team = g.impl_handle().team();
  bool found = false;
  for (std::size_t i = team.team_rank(); i < n && !found; i += team.team_size()) found = bool(pred(first[i]));
  return detail::device_any(team, found);
#else
  return detail::host_once<bool>(g.impl_handle().host(), [&] {
    for (std::size_t i = 0; i < n; ++i)
      if (pred(first[i])) return true;
    return false;
  });
#endif
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
