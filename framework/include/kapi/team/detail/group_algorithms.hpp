// SPDX-License-Identifier: Apache-2.0
#pragma once
// The group algorithms (group_algorithms.hpp) and phases (phased.hpp) in the team
// backend's device code, where a work-group is a block with one thread per work-item (a
// Kokkos team, or kapi's own CUDA launch): flat collectives are the block collectives of
// collectives.hpp, joint algorithms share the pass across the group,
// a phase is each thread running its own work-item, then a team barrier.
#include <cstddef>
#include <cstdio>

#include <kapi/detail/group_handle.hpp>
#include <kapi/detail/sequential_scan.hpp>
#include <kapi/team/detail/collectives.hpp>
#include <kapi/functional.hpp>
#include <kapi/work_group.hpp>

#if KAPI_COMPILING_DEVICE_CODE
namespace kapi::detail::device_group_ops {

// -------------------------------------------------------------- flat nd-range kernels

template <class T, class Op>
KAPI_FUNCTION T reduce(GroupHandle g, const T& x, const Op& op) {
  return device_reduce(g.team(), x, op);
}

template <bool Inclusive, bool HasInit, class T, class Op>
KAPI_FUNCTION T scan(GroupHandle g, const T& x, const Op& op, const T& init) {
  const ScanParts<T> p = device_scan(g.team(), x, op);
  if (Inclusive) return HasInit ? T(op(init, p.inclusive)) : p.inclusive;
  if (p.has_exclusive) return HasInit ? T(op(init, p.exclusive)) : p.exclusive;
  return scan_first_value<Inclusive, HasInit, Op>(init);
}

/// An out-of-range `from` aborts the kernel with a message in debug builds
/// (KOKKOS_ENABLE_DEBUG or KAPI_DEBUG); otherwise each work-item keeps its own x. Either
/// way nothing past the group is read, and the call is still a group barrier.
template <class T>
KAPI_FUNCTION T broadcast(GroupHandle g, const T& x, std::size_t from) {
  const auto& team = g.team();
  if (from >= static_cast<std::size_t>(team.team_size())) {
#if defined(KOKKOS_ENABLE_DEBUG) || defined(KAPI_DEBUG)
    printf("kapi::group_broadcast: source local id %llu is outside the work-group of %d work-items\n",
           static_cast<unsigned long long>(from), team.team_size());
    Kokkos::abort("kapi::group_broadcast: source local id outside the work-group");
#endif
    team.team_barrier();
    return x;
  }
  return device_broadcast(team, x, from);
}

KAPI_FUNCTION bool any(GroupHandle g, bool pred) { return device_any(g.team(), pred); }
KAPI_FUNCTION bool all(GroupHandle g, bool pred) { return device_all(g.team(), pred); }

// Joint algorithms: each work-item takes every group-size-th element (coalesced).
template <bool HasInit, class T, class Ptr, class Op>
KAPI_FUNCTION T joint_reduce(GroupHandle g, Ptr first, std::size_t n, const Op& op, const T& init) {
  const auto& team = g.team();
  T partial = known_identity<Op, T>();
  for (std::size_t i = team.team_rank(); i < n; i += team.team_size()) partial = T(op(partial, T(first[i])));
  const T total = device_reduce(team, partial, op);
  return HasInit ? T(op(init, total)) : total;
}

/// Block by block of group-size elements, one per work-item, carrying the running total.
template <bool Inclusive, bool HasInit, class T, class InPtr, class OutPtr, class Op>
KAPI_FUNCTION void joint_scan(GroupHandle g, InPtr first, std::size_t n, OutPtr result, const Op& op, const T& init) {
  const auto& team = g.team();
  const std::size_t size = team.team_size(), me = team.team_rank();
  const T identity = known_identity<Op, T>();
  T carry = init;
  bool has_carry = HasInit;
  for (std::size_t base = 0; base < n; base += size) {
    const std::size_t i = base + me;
    const T x = i < n ? T(first[i]) : identity;
    const ScanParts<T> p = device_scan(team, x, op);
    T out;
    if (Inclusive) {
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
}

template <class Ptr, class Pred>
KAPI_FUNCTION bool joint_any(GroupHandle g, Ptr first, std::size_t n, const Pred& pred) {
  const auto& team = g.team();
  bool found = false;
  for (std::size_t i = team.team_rank(); i < n && !found; i += team.team_size()) found = bool(pred(first[i]));
  return device_any(team, found);
}

// ------------------------------------------------------------------- phased kernels

template <int N, class F>
KAPI_FUNCTION void for_each_work_item(const WorkGroup<N>& wg, const F& f) {
  f(wg.impl_own_item());
  wg.impl_handle().team().team_barrier();
}

template <int N, class F>
KAPI_FUNCTION void single_work_item(const WorkGroup<N>& wg, const F& f) {
  const auto& team = wg.impl_handle().team();
  if (team.team_rank() == 0) f();
  team.team_barrier();
}

template <class T, int N, class F, class Op>
KAPI_FUNCTION T reduce_over_work_items(const WorkGroup<N>& wg, const F& f, const Op& op) {
  const T mine = f(wg.impl_own_item());
  return device_reduce(wg.impl_handle().team(), mine, op);  // starts with a barrier: f's stores are visible after
}

/// A PerWorkItem's values: the calling thread's own, in a register.
template <class T>
struct PerWorkItemStorage {
  T value;
  template <int N>
  KAPI_FUNCTION void fill(const WorkGroup<N>&, const T& init) {
    value = init;
  }
  KAPI_FUNCTION T* at(std::size_t) { return &value; }
};

template <bool Inclusive, bool HasInit, int N, class T, class Op>
KAPI_FUNCTION T scan_work_items(const WorkGroup<N>& wg, PerWorkItemStorage<T>& values, const Op& op, const T& init) {
  const auto& team = wg.impl_handle().team();
  T& v = values.value;
  const ScanParts<T> p = device_scan(team, v, op);
  const T inclusive = HasInit ? T(op(init, p.inclusive)) : p.inclusive;
  if (Inclusive) {
    v = inclusive;
  } else if (p.has_exclusive) {
    v = HasInit ? T(op(init, p.exclusive)) : p.exclusive;
  } else {
    v = scan_first_value<Inclusive, HasInit, Op>(init);
  }
  return device_broadcast(team, inclusive, static_cast<std::size_t>(team.team_size() - 1));
}

}  // namespace kapi::detail::device_group_ops
#endif  // KAPI_COMPILING_DEVICE_CODE
