#pragma once
// The phased (hierarchical) work-group form: the kernel is written once per work-group
// and its work-item loops are phases, with a group barrier implied between them.
//
//   struct Kernel {
//     template <class In, class Out>
//     KOKKOS_INLINE_FUNCTION void operator()(const kapi::WorkGroup<1>& wg, const In& in, const Out& out,
//                                            const kapi::LocalAccessor<float>& tile) const {
//       kapi::PerWorkItem<float> x(wg);                 // one value per work-item, across phases
//       kapi::for_each_work_item(wg, [&](const kapi::NdItem<1>& it) {
//         x(it) = in(it.get_global_id(0));
//         tile[it.get_local_id(0)] = x(it);
//       });                                              // implicit group barrier
//       float sum = kapi::reduce_over_work_items(wg, [&](const kapi::NdItem<1>& it) { return x(it); },
//                                                kapi::plus<>());
//       kapi::for_each_work_item(wg, [&](const kapi::NdItem<1>& it) {
//         out(it.get_global_id(0)) = x(it) / sum + tile[0];
//       });
//     }
//   };
//   kapi::call_kernel(space, Kernel{}, kapi::NdRange<1>({n}, {256}), in, out, kapi::LocalAccessor<float>(256));
//
// Mapping. Device backends: the group is a Kokkos team of one thread per work-item;
// a phase is each thread running its own work-item (what TeamThreadRange over the local
// range is when the team has one thread per index), then team_barrier; a PerWorkItem is
// one register. Host backends: one thread runs the group (team of one); a phase is a
// plain loop over the work-items, which the compiler can vectorise; a PerWorkItem is an
// array on that thread's stack; no contexts and no context switches.
//
// Rules. Code outside phases (group scope) runs once per group on host and once per
// work-item on device: keep it to values every work-item agrees on (ids, sizes, results
// of the *_over_work_items functions) and put side effects (stores, atomics) in phases.
// Inside a phase, no group_barrier and no flat group algorithm (the host reports them
// as a launch_error). Work-items of one phase may run in any order or at once.
#include <cstddef>
#include <type_traits>

#include "detail/device_collectives.hpp"
#include "device_limits.hpp"
#include "functional.hpp"
#include "work_group.hpp"

namespace kapi {

namespace detail {
// Host: every work-item in local-id order as nested loops (no division per work-item).
template <int N, class F>
void host_for_each(const WorkGroup<N>& wg, const F& f) {
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
}  // namespace detail

/// One phase: f(item) for every work-item of the group, then a group barrier.
template <int N, class F>
KAPI_FUNCTION void for_each_work_item(const WorkGroup<N>& wg, const F& f) {
#if KAPI_DEVICE_PASS
  const auto& team = wg.impl_handle().team();
  f(wg.impl_item(static_cast<std::size_t>(team.team_rank())));
  team.team_barrier();
#else
  detail::host_for_each(wg, f);
#endif
}

/// A phase run by one work-item (local id 0): f(), then a group barrier.
template <int N, class F>
KAPI_FUNCTION void single_work_item(const WorkGroup<N>& wg, const F& f) {
#if KAPI_DEVICE_PASS
  const auto& team = wg.impl_handle().team();
  if (team.team_rank() == 0) f();
  team.team_barrier();
#else
  (void)wg;
  f();
#endif
}

/// One value of type T per work-item of the group, alive across phases; acc(it) is the
/// value of work-item `it`, to be used inside phases only. Uninitialised unless given
/// an initial value. On host backends it holds host_max_work_group_size values on the
/// running thread's stack (8 KiB for a double); on device backends one register.
template <class T>
class PerWorkItem {
 public:
  using value_type = T;

  template <int N>
  KAPI_FUNCTION explicit PerWorkItem(const WorkGroup<N>&) {}
  template <int N>
  KAPI_FUNCTION PerWorkItem(const WorkGroup<N>& wg, const T& init) {
#if KAPI_DEVICE_PASS
    (void)wg;
    value_ = init;
#else
    for (std::size_t i = 0, n = wg.get_local_linear_range(); i < n; ++i) values_[i] = init;
#endif
  }
  PerWorkItem(const PerWorkItem&) = delete;  // a value per work-item is not a value to copy
  PerWorkItem& operator=(const PerWorkItem&) = delete;

  template <int N>
  KAPI_FUNCTION T& operator()(const NdItem<N>& it) {
    return *impl_data(it.get_local_linear_id());
  }
  template <int N>
  KAPI_FUNCTION const T& operator()(const NdItem<N>& it) const {
    return *const_cast<PerWorkItem*>(this)->impl_data(it.get_local_linear_id());
  }

  // The value of local linear id i (device: the calling thread's own).
  KAPI_FUNCTION T* impl_data(std::size_t i) {
#if KAPI_DEVICE_PASS
    (void)i;
    return &value_;
#else
    return values_ + i;
#endif
  }

 private:
#if KAPI_DEVICE_PASS
  T value_;
#else
  T values_[host_max_work_group_size];
#endif
};

/// A phase that returns op over f(item) of every work-item (local-id order on host),
/// the same value to the whole group.
template <int N, class F, class Op>
KAPI_FUNCTION auto reduce_over_work_items(const WorkGroup<N>& wg, const F& f, const Op& op) {
  using T = std::decay_t<std::invoke_result_t<const F&, const NdItem<N>&>>;
#if KAPI_DEVICE_PASS
  const auto& team = wg.impl_handle().team();
  const T mine = f(wg.impl_item(static_cast<std::size_t>(team.team_rank())));
  return detail::device_reduce(team, mine, op);  // starts with a barrier: f's stores are visible after
#else
  T acc{};
  bool first = true;
  detail::host_for_each(wg, [&](const NdItem<N>& it) {
    const T v = f(it);
    acc = first ? v : T(op(acc, v));
    first = false;
  });
  return acc;
#endif
}

namespace detail {
// Only an exclusive scan without init needs the operator's identity.
template <bool Inclusive, bool HasInit, class Op, class T>
KAPI_FUNCTION T empty_scan_value(const T& init) {
  if constexpr (Inclusive || HasInit) {
    return init;
  } else {
    return known_identity<Op, T>();
  }
}

template <bool Inclusive, bool HasInit, int N, class T, class Op>
KAPI_FUNCTION T scan_work_items(const WorkGroup<N>& wg, PerWorkItem<T>& values, const Op& op, const T& init) {
  const T empty = empty_scan_value<Inclusive, HasInit, Op>(init);
#if KAPI_DEVICE_PASS
  const auto& team = wg.impl_handle().team();
  T& v = *values.impl_data(0);
  const ScanParts<T> p = device_scan(team, v, op);
  const T incl = HasInit ? T(op(init, p.inclusive)) : p.inclusive;
  if (Inclusive) {
    v = incl;
  } else if (p.has_exclusive) {
    v = HasInit ? T(op(init, p.exclusive)) : p.exclusive;
  } else {
    v = empty;
  }
  return device_broadcast(team, incl, static_cast<std::size_t>(team.team_size() - 1));
#else
  bool any = HasInit;
  T running = init;
  for (std::size_t i = 0, n = wg.get_local_linear_range(); i < n; ++i) {
    T& v = *values.impl_data(i);
    const T next = any ? T(op(running, v)) : v;
    v = Inclusive ? next : (any ? running : empty);
    running = next;
    any = true;
  }
  return running;
#endif
}
}  // namespace detail

/// A phase that replaces each work-item's value by op over the values of work-items
/// 0 … me (local-id order), optionally after init; returns the group's total.
template <int N, class T, class Op>
KAPI_FUNCTION T inclusive_scan_over_work_items(const WorkGroup<N>& wg, PerWorkItem<T>& values, const Op& op) {
  return detail::scan_work_items<true, false>(wg, values, op, T());
}
template <int N, class T, class Op>
KAPI_FUNCTION T inclusive_scan_over_work_items(const WorkGroup<N>& wg, PerWorkItem<T>& values, const Op& op,
                                               const T& init) {
  return detail::scan_work_items<true, true>(wg, values, op, init);
}

/// As inclusive, over work-items 0 … me-1: work-item 0 gets init, or the identity.
template <int N, class T, class Op>
KAPI_FUNCTION T exclusive_scan_over_work_items(const WorkGroup<N>& wg, PerWorkItem<T>& values, const Op& op) {
  return detail::scan_work_items<false, false>(wg, values, op, T());
}
template <int N, class T, class Op>
KAPI_FUNCTION T exclusive_scan_over_work_items(const WorkGroup<N>& wg, PerWorkItem<T>& values, const T& init,
                                               const Op& op) {
  return detail::scan_work_items<false, true>(wg, values, op, init);
}

}  // namespace kapi
