// SPDX-License-Identifier: Apache-2.0
#pragma once
// The group algorithms (group_algorithms.hpp) and phases (phased.hpp) on host backends,
// where one host thread runs the whole work-group: flat collectives go through the
// group's collective buffer (collectives.hpp), joint algorithms and phases are sequential
// loops in local-id order; reductions combine in group_fold.hpp's order.
#include <cstddef>

#include <kapi/config.hpp>
#include <kapi/detail/group_handle.hpp>
#include <kapi/detail/sequential_scan.hpp>
#include <kapi/device_limits.hpp>
#include <kapi/functional.hpp>
#include <kapi/host/detail/collectives.hpp>
#include <kapi/host/detail/group_fold.hpp>
#include <kapi/work_group.hpp>

namespace kapi::detail::host_group_ops {

// -------------------------------------------------------------- flat nd-range kernels

template <class T, class Op>
T reduce(GroupHandle g, const T& x, const Op& op) {
  return host_reduce(g.host(), x, op);
}

template <bool Inclusive, bool HasInit, class T, class Op>
T scan(GroupHandle g, const T& x, const Op& op, const T& init) {
  return host_scan<Inclusive, HasInit>(g.host(), x, op, init);
}

template <class T>
T broadcast(GroupHandle g, const T& x, std::size_t from) {
  return host_broadcast(g.host(), x, from);
}

inline bool any(GroupHandle g, bool pred) { return host_reduce(g.host(), pred, logical_or<bool>()); }
inline bool all(GroupHandle g, bool pred) { return host_reduce(g.host(), pred, logical_and<bool>()); }

// One work-item does the whole pass over memory: the thread runs the group anyway, and
// the result is the exact sequential one.
template <bool HasInit, class T, class Ptr, class Op>
T joint_reduce(GroupHandle g, Ptr first, std::size_t n, const Op& op, const T& init) {
  return host_once<T>(g.host(), [&] {
    if (!HasInit && n == 0) return known_identity<Op, T>();
    T acc = HasInit ? init : T(first[0]);
    for (std::size_t i = HasInit ? 0 : 1; i < n; ++i) acc = T(op(acc, T(first[i])));
    return acc;
  });
}

template <bool Inclusive, bool HasInit, class T, class InPtr, class OutPtr, class Op>
void joint_scan(GroupHandle g, InPtr first, std::size_t n, OutPtr result, const Op& op, const T& init) {
  host_once<char>(g.host(), [&] {
    sequential_scan<Inclusive, HasInit>(
        n, [&](std::size_t i) { return T(first[i]); }, [&](std::size_t i, const T& v) { result[i] = v; }, op, init);
    return char(0);
  });
}

template <class Ptr, class Pred>
bool joint_any(GroupHandle g, Ptr first, std::size_t n, const Pred& pred) {
  return host_once<bool>(g.host(), [&] {
    for (std::size_t i = 0; i < n; ++i)
      if (pred(first[i])) return true;
    return false;
  });
}

// ------------------------------------------------------------------- phased kernels
// A phase is a plain loop over the work-items (the compiler can vectorise it); no
// contexts, no switches.

/// Every work-item in local-id order as nested loops (no division per work-item).
template <int N, class F>
KAPI_INLINE_HOST_LOOP void for_each_work_item(const WorkGroup<N>& wg, const F& f) {
  if constexpr (N == 1) {
    const std::size_t n0 = wg.get_local_range(0);
    for (std::size_t i = 0; i < n0; ++i) {
      const std::size_t id[1] = {i};
      f(wg.impl_item(i, id));
    }
  } else if constexpr (N == 2) {
    const std::size_t n0 = wg.get_local_range(0), n1 = wg.get_local_range(1);
    for (std::size_t i = 0; i < n0; ++i)
      for (std::size_t j = 0; j < n1; ++j) {
        const std::size_t id[2] = {i, j};
        f(wg.impl_item(i * n1 + j, id));
      }
  } else {
    const std::size_t n0 = wg.get_local_range(0), n1 = wg.get_local_range(1), n2 = wg.get_local_range(2);
    for (std::size_t i = 0; i < n0; ++i)
      for (std::size_t j = 0; j < n1; ++j)
        for (std::size_t k = 0; k < n2; ++k) {
          const std::size_t id[3] = {i, j, k};
          f(wg.impl_item((i * n1 + j) * n2 + k, id));
        }
  }
}

template <int N, class F>
void single_work_item(const WorkGroup<N>&, const F& f) {
  f();
}

/// The work-items' values taken in local-id order, then combined as reduce_over_group
/// combines them (group_fold.hpp), so the phased and the flat form agree bit for bit.
/// Values wider than a flat collective carries fold left to right (not kept on the stack).
template <class T, int N, class F, class Op>
T reduce_over_work_items(const WorkGroup<N>& wg, const F& f, const Op& op) {
  const std::size_t n = wg.get_local_linear_range();
  if (n < host_fold_min_blocked || sizeof(T) > host_collective_slot_bytes) {
    T acc{};
    bool first = true;
    host_group_ops::for_each_work_item(wg, [&](const NdItem<N>& it) {
      const T v = f(it);
      acc = first ? v : T(op(acc, v));
      first = false;
    });
    return acc;
  }
  T values[host_max_work_group_size];
  host_group_ops::for_each_work_item(wg, [&](const NdItem<N>& it) { values[it.get_local_linear_id()] = f(it); });
  return host_group_fold<T>(n, values, op);
}

/// A PerWorkItem's values: one per work-item on the running thread's stack.
template <class T>
struct PerWorkItemStorage {
  T values[host_max_work_group_size];
  template <int N>
  void fill(const WorkGroup<N>& wg, const T& init) {
    for (std::size_t i = 0, n = wg.get_local_linear_range(); i < n; ++i) values[i] = init;
  }
  T* at(std::size_t local_linear) { return values + local_linear; }
};

template <bool Inclusive, bool HasInit, int N, class T, class Op>
T scan_work_items(const WorkGroup<N>& wg, PerWorkItemStorage<T>& values, const Op& op, const T& init) {
  return sequential_scan<Inclusive, HasInit>(
      wg.get_local_linear_range(), [&](std::size_t i) { return *values.at(i); },
      [&](std::size_t i, const T& v) { *values.at(i) = v; }, op, init);
}

}  // namespace kapi::detail::host_group_ops
