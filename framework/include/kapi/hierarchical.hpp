// SPDX-License-Identifier: Apache-2.0
#pragma once
// SYCL's hierarchical spelling (parallel_for_work_group), as a spelling of kapi's phased
// form (phased.hpp): the kernel is called once per work-group, each parallel_for_work_item
// is a phase over the group's work-items with a group barrier after it.
//
//   kapi::parallel_for_work_group(space, kapi::Range<1>{groups}, kapi::Range<1>{local},
//                                 KOKKOS_LAMBDA(kapi::HGroup<1> g) {
//     kapi::PrivateMemory<float, 1> x(g);                    // one value per work-item
//     g.parallel_for_work_item([&](kapi::HItem<1> it) { x(it) = in(it.get_global_id(0)); });
//     g.parallel_for_work_item([&](kapi::HItem<1> it) { out(it.get_global_id(0)) = 2 * x(it); });
//   });
//
// As in SYCL, the first range is the number of work-groups, the second their size.
// - g.parallel_for_work_item(f): f for every work-item of the group (its physical ids).
// - g.parallel_for_work_item(kapi::Range<N> logical, f): f for every id of `logical`, the
//   group's work-items sharing them round-robin; the HItem's local id is the logical one,
//   its global id group id × logical range + logical local id.
// - kapi::PrivateMemory<T, N>(g): a value per (physical) work-item, alive across phases.
// - Named by a type, parallel_for_work_group<class Name>(…), or a string first, as call_kernel.
// - Local memory: a LocalAccessor captured by the kernel (or declared outside and
//   captured) is the group's, as with call_kernel.
// Rule (the phased form's): code between phases runs once per group on host backends but
// once per work-item on devices, so a variable declared there is not shared by the group's
// work-items on a device as SYCL's work-group-scope variables are: keep it to values every
// work-item agrees on, and share data through a LocalAccessor.
#include <cstddef>
#include <string>
#include <type_traits>

#include <kapi/detail/kernel_names.hpp>
#include <kapi/detail/linearize.hpp>
#include <kapi/errors.hpp>
#include <kapi/id.hpp>
#include <kapi/item.hpp>
#include <kapi/launch.hpp>
#include <kapi/phased.hpp>
#include <kapi/range.hpp>
#include <kapi/work_group.hpp>

namespace kapi {

/// A work-item in a parallel_for_work_item phase (SYCL's h_item): its logical ids (those
/// of the phase's range) and the physical work-item running it.
template <int N>
class HItem {
 public:
  static constexpr int dimensions = N;

  KAPI_FUNCTION HItem(const NdItem<N>& physical, const std::size_t (&logical_id)[N],
                      const std::size_t (&logical_range)[N])
      : physical_(physical) {
    for (int d = 0; d < N; ++d) logical_id_[d] = logical_id[d], logical_range_[d] = logical_range[d];
  }

  KAPI_FUNCTION std::size_t get_global_id(int d) const {
    return physical_.get_group().get_group_id(d) * logical_range_[d] + logical_id_[d];
  }
  KAPI_FUNCTION Id<N> get_global_id() const {
    std::size_t id[N];
    for (int d = 0; d < N; ++d) id[d] = get_global_id(d);
    return Id<N>::from_array(id);
  }
  KAPI_FUNCTION std::size_t get_global_range(int d) const {
    return physical_.get_group().get_group_range(d) * logical_range_[d];
  }
  KAPI_FUNCTION Range<N> get_global_range() const {
    std::size_t r[N];
    for (int d = 0; d < N; ++d) r[d] = get_global_range(d);
    return detail::to_range(r);
  }
  /// The logical local id (the physical one without a logical range).
  KAPI_FUNCTION std::size_t get_local_id(int d) const { return logical_id_[d]; }
  KAPI_FUNCTION Id<N> get_local_id() const { return Id<N>::from_array(logical_id_); }
  KAPI_FUNCTION std::size_t get_local_range(int d) const { return logical_range_[d]; }
  KAPI_FUNCTION Range<N> get_local_range() const { return detail::to_range(logical_range_); }
  KAPI_FUNCTION std::size_t get_logical_local_id(int d) const { return logical_id_[d]; }
  KAPI_FUNCTION Id<N> get_logical_local_id() const { return get_local_id(); }
  KAPI_FUNCTION std::size_t get_logical_local_range(int d) const { return logical_range_[d]; }
  KAPI_FUNCTION Range<N> get_logical_local_range() const { return get_local_range(); }
  KAPI_FUNCTION std::size_t get_physical_local_id(int d) const { return physical_.get_local_id(d); }
  KAPI_FUNCTION Id<N> get_physical_local_id() const { return physical_.get_local_id(); }
  KAPI_FUNCTION std::size_t get_physical_local_range(int d) const { return physical_.get_local_range(d); }
  KAPI_FUNCTION Range<N> get_physical_local_range() const { return physical_.get_local_range(); }

  /// The physical work-item (an NdItem of the group).
  KAPI_FUNCTION const NdItem<N>& get_physical_item() const { return physical_; }

 private:
  NdItem<N> physical_;
  std::size_t logical_id_[N];
  std::size_t logical_range_[N];
};

/// The work-group a parallel_for_work_group kernel receives (SYCL's group in the
/// hierarchical form): its ids and the parallel_for_work_item phases.
template <int N>
class HGroup {
 public:
  static constexpr int dimensions = N;

  KAPI_FUNCTION explicit HGroup(const WorkGroup<N>& wg) : wg_(wg) {}

  KAPI_FUNCTION std::size_t get_group_id(int d) const { return wg_.get_group_id(d); }
  KAPI_FUNCTION Id<N> get_group_id() const { return wg_.get_group_id(); }
  KAPI_FUNCTION std::size_t operator[](int d) const { return wg_.get_group_id(d); }
  KAPI_FUNCTION std::size_t get_group_linear_id() const { return wg_.get_group_linear_id(); }
  KAPI_FUNCTION std::size_t get_group_range(int d) const { return wg_.get_group_range(d); }
  KAPI_FUNCTION Range<N> get_group_range() const { return wg_.get_group_range(); }
  KAPI_FUNCTION std::size_t get_group_linear_range() const { return wg_.get_group_linear_range(); }
  KAPI_FUNCTION std::size_t get_local_range(int d) const { return wg_.get_local_range(d); }
  KAPI_FUNCTION Range<N> get_local_range() const {
    std::size_t r[N];
    for (int d = 0; d < N; ++d) r[d] = wg_.get_local_range(d);
    return detail::to_range(r);
  }
  KAPI_FUNCTION std::size_t get_local_linear_range() const { return wg_.get_local_linear_range(); }
  KAPI_FUNCTION std::size_t get_global_range(int d) const { return wg_.get_global_range(d); }

  /// A phase: f(HItem) for every work-item of the group, then a group barrier.
  template <class F>
  KAPI_PHASE_FUNCTION void parallel_for_work_item(const F& f) const {
    for_each_work_item(wg_, [&](const NdItem<N>& it) {
      std::size_t id[N], range[N];
      for (int d = 0; d < N; ++d) id[d] = it.get_local_id(d), range[d] = it.get_local_range(d);
      f(HItem<N>(it, id, range));
    });
  }
  /// A phase over a logical range of any size: f(HItem) for each of its ids, which the
  /// group's work-items share round-robin, then a group barrier.
  template <class F>
  KAPI_PHASE_FUNCTION void parallel_for_work_item(const Range<N>& logical, const F& f) const {
    for_each_work_item(wg_, [&](const NdItem<N>& it) {
      const std::size_t total = logical.size(), stride = it.get_local_linear_range();
      for (std::size_t l = it.get_local_linear_id(); l < total; l += stride) {
        std::size_t id[N];
        detail::delinearize(l, logical.extent, id);
        f(HItem<N>(it, id, logical.extent));
      }
    });
  }

  /// The phased form's group (phased.hpp), for its *_over_work_items functions.
  KAPI_FUNCTION const WorkGroup<N>& get_work_group() const { return wg_; }

 private:
  const WorkGroup<N>& wg_;
};

/// A value of type T per work-item of the group, alive across phases (SYCL's
/// private_memory): pm(it) is the value of the physical work-item running `it`.
template <class T, int N = 1>
class PrivateMemory {
 public:
  KAPI_FUNCTION explicit PrivateMemory(const HGroup<N>& g) : values_(g.get_work_group()) {}
  PrivateMemory(const PrivateMemory&) = delete;
  PrivateMemory& operator=(const PrivateMemory&) = delete;

  KAPI_FUNCTION T& operator()(const HItem<N>& it) { return values_(it.get_physical_item()); }
  KAPI_FUNCTION const T& operator()(const HItem<N>& it) const { return values_(it.get_physical_item()); }

 private:
  PerWorkItem<T> values_;
};

namespace detail {

/// The phased kernel a parallel_for_work_group launches.
template <int N, class Kernel>
struct HierarchicalKernel {
  Kernel kernel;
  KAPI_FUNCTION void operator()(const WorkGroup<N>& wg) const {
    static_assert(std::is_invocable_v<const Kernel&, HGroup<N>>,
                  "kapi::parallel_for_work_group: the kernel takes a kapi::HGroup<N> (SYCL's group<N>), N being "
                  "the ranges' dimensions");
    kernel(HGroup<N>(wg));
  }
};

/// The nd-range of `groups` work-groups of `local` work-items; a global extent that
/// overflows is a launch_error.
template <int N>
NdRange<N> hierarchical_nd_range(const Range<N>& groups, const Range<N>& local) {
  std::size_t global[N];
  for (int d = 0; d < N; ++d)
    if (__builtin_mul_overflow(groups.extent[d], local.extent[d], &global[d]))
      throw launch_error("kapi::parallel_for_work_group: " + format_extents(groups.extent) + " work-groups of " +
                         format_extents(local.extent) + " work-items are more work-items than a size can count");
  return NdRange<N>(to_range(global), local);
}

template <class ExecSpace, int N, class Kernel>
void launch_hierarchical(const std::string* name, const ExecSpace& space, const Range<N>& groups, const Range<N>& local,
                         const Kernel& kernel) {
  const std::string& label = name ? *name : default_label<LaunchKind::phased, Kernel>();
  call_kernel(label, space, HierarchicalKernel<N, Kernel>{kernel}, hierarchical_nd_range(groups, local));
}

}  // namespace detail

/// Runs the kernel once per work-group of `groups` work-groups of `local` work-items each
/// (SYCL's parallel_for_work_group(numGroups, groupSize, kernel)) on `space`, and returns
/// when it is done. Kokkos Tools shows "kapi::phased <kernel type>".
template <class ExecSpace, int N, class Kernel, class = std::enable_if_t<detail::is_execution_space_v<ExecSpace>>>
void parallel_for_work_group(const ExecSpace& space, const Range<N>& groups, const Range<N>& local,
                             const Kernel& kernel) {
  detail::launch_hierarchical(nullptr, space, groups, local, kernel);
}

/// The same under a name of your own.
template <class ExecSpace, int N, class Kernel, class = std::enable_if_t<detail::is_execution_space_v<ExecSpace>>>
void parallel_for_work_group(const std::string& name, const ExecSpace& space, const Range<N>& groups,
                             const Range<N>& local, const Kernel& kernel) {
  detail::launch_hierarchical(&name, space, groups, local, kernel);
}

/// The same named by a type, as SYCL's parallel_for_work_group<class Name>.
template <class Name, class ExecSpace, int N, class Kernel,
          class = std::enable_if_t<!detail::is_execution_space_v<Name> && detail::is_execution_space_v<ExecSpace>>>
void parallel_for_work_group(const ExecSpace& space, const Range<N>& groups, const Range<N>& local,
                             const Kernel& kernel) {
  detail::launch_hierarchical(&detail::kernel_name_label<Name>(), space, groups, local, kernel);
}

/// On the default execution space.
template <int N, class Kernel>
void parallel_for_work_group(const Range<N>& groups, const Range<N>& local, const Kernel& kernel) {
  detail::launch_hierarchical(nullptr, Kokkos::DefaultExecutionSpace(), groups, local, kernel);
}

/// On the default execution space, named by a type.
template <class Name, int N, class Kernel>
void parallel_for_work_group(const Range<N>& groups, const Range<N>& local, const Kernel& kernel) {
  detail::launch_hierarchical(&detail::kernel_name_label<Name>(), Kokkos::DefaultExecutionSpace(), groups, local,
                              kernel);
}

/// SYCL's form without a work-group size (the implementation's choice): kapi needs it given.
template <class ExecSpace, int N, class Kernel, class = std::enable_if_t<detail::is_execution_space_v<ExecSpace>>>
void parallel_for_work_group(const ExecSpace&, const Range<N>&, const Kernel&) {
  static_assert(sizeof(Kernel) == 0,
                "kapi::parallel_for_work_group: give the work-group size, (space, groups, local, kernel); kapi does "
                "not choose one");
}

}  // namespace kapi
