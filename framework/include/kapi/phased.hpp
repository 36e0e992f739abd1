// SPDX-License-Identifier: Apache-2.0
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

#include <kapi/detail/group_ops.hpp>
#include <kapi/device_limits.hpp>
#include <kapi/functional.hpp>
#include <kapi/work_group.hpp>

namespace kapi {

/// One phase: f(item) for every work-item of the group, then a group barrier.
template <int N, class F>
KAPI_PHASE_FUNCTION void for_each_work_item(const WorkGroup<N>& wg, const F& f) {
  detail::group_ops::for_each_work_item(wg, f);
}

/// A phase run by one work-item (local id 0): f(), then a group barrier.
template <int N, class F>
KAPI_PHASE_FUNCTION void single_work_item(const WorkGroup<N>& wg, const F& f) {
  detail::group_ops::single_work_item(wg, f);
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
    values_.fill(wg, init);
  }
  PerWorkItem(const PerWorkItem&) = delete;  // a value per work-item is not a value to copy
  PerWorkItem& operator=(const PerWorkItem&) = delete;

  template <int N>
  KAPI_FUNCTION T& operator()(const NdItem<N>& it) {
    return *values_.at(it.get_local_linear_id());
  }
  template <int N>
  KAPI_FUNCTION const T& operator()(const NdItem<N>& it) const {
    return *const_cast<PerWorkItem*>(this)->values_.at(it.get_local_linear_id());
  }

  // For the framework's phased scans.
  KAPI_FUNCTION detail::group_ops::PerWorkItemStorage<T>& impl_values() { return values_; }

 private:
  detail::group_ops::PerWorkItemStorage<T> values_;
};

/// A phase that returns op over f(item) of every work-item (on host: f called in local-id
/// order, the values combined as reduce_over_group combines them),
/// the same value to the whole group.
template <int N, class F, class Op>
KAPI_FUNCTION auto reduce_over_work_items(const WorkGroup<N>& wg, const F& f, const Op& op) {
  using T = std::decay_t<std::invoke_result_t<const F&, const NdItem<N>&>>;
  return detail::group_ops::reduce_over_work_items<T>(wg, f, op);
}

/// A phase that replaces each work-item's value by op over the values of work-items
/// 0 … me (local-id order), optionally after init; returns the group's total.
template <int N, class T, class Op>
KAPI_FUNCTION T inclusive_scan_over_work_items(const WorkGroup<N>& wg, PerWorkItem<T>& values, const Op& op) {
  return detail::group_ops::scan_work_items<true, false>(wg, values.impl_values(), op, T());
}
template <int N, class T, class Op>
KAPI_FUNCTION T inclusive_scan_over_work_items(const WorkGroup<N>& wg, PerWorkItem<T>& values, const Op& op,
                                               const T& init) {
  return detail::group_ops::scan_work_items<true, true>(wg, values.impl_values(), op, init);
}

/// As inclusive, over work-items 0 … me-1: work-item 0 gets init, or the identity.
template <int N, class T, class Op>
KAPI_FUNCTION T exclusive_scan_over_work_items(const WorkGroup<N>& wg, PerWorkItem<T>& values, const Op& op) {
  return detail::group_ops::scan_work_items<false, false>(wg, values.impl_values(), op, T());
}
template <int N, class T, class Op>
KAPI_FUNCTION T exclusive_scan_over_work_items(const WorkGroup<N>& wg, PerWorkItem<T>& values, const T& init,
                                               const Op& op) {
  return detail::group_ops::scan_work_items<false, true>(wg, values.impl_values(), op, init);
}

}  // namespace kapi
