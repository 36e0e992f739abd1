// SPDX-License-Identifier: Apache-2.0
#pragma once
// call_kernel: runs a range or nd-range kernel on a Kokkos execution space.
//   kapi::call_kernel(kernel, kapi::Range<1>{n}, a, b, c);
//   kapi::call_kernel(space, kernel, kapi::NdRange<2>({64, 64}, {16, 16}), A, B, C, tileA, tileB);
//   kapi::call_kernel("my-blur", space, kernel, range, in, out);   // named for Kokkos Tools
//   kapi::call_kernel<class Blur>(space, kernel, range, in, out);  // named by a type, as SYCL's parallel_for<Blur>
//   kapi::call_kernel(kernel, range, kapi::reduction(sum, kapi::plus<>()), x);  // reduction.hpp
// The kernel's first parameter is the Item/NdItem (or, for a phased kernel launched with
// an NdRange, the WorkGroup: phased.hpp); the rest are the arguments in order.
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include <kapi/detail/kernel_names.hpp>
#include <kapi/detail/launch_plan.hpp>
#include <kapi/detail/launch_status.hpp>
#include <kapi/detail/launcher.hpp>
#include <kapi/item.hpp>
#include <kapi/reduction.hpp>
#include <kapi/work_group.hpp>

namespace kapi {

namespace detail {

/// Whether T is an execution space, for an explicit first template argument that may be
/// either: call_kernel<Space>(…) names the space, call_kernel<Name>(…) the kernel. SYCL's
/// kernel names are usually incomplete (`class Name` declared in the call), and Kokkos'
/// is_execution_space needs a complete type from Kokkos 4 on (std::is_base_of): an
/// incomplete type is no execution space.
template <class T, class = void>
struct is_execution_space : std::false_type {};
template <class T>
struct is_execution_space<T, std::enable_if_t<(sizeof(T) > 0)>>
    : std::bool_constant<Kokkos::is_execution_space<T>::value> {};
template <class T>
inline constexpr bool is_execution_space_v = is_execution_space<T>::value;

/// A launch: plan it (every check, the same on every backend), then hand the plan to the
/// backend's launcher. Returns the launch's status, or nullptr when nothing can fail later.
template <class ExecSpace, class Kernel, int N, class... Args>
std::shared_ptr<LaunchStatus> launch(const ExecSpace& space, const std::string* label, const Kernel& kernel,
                                     const Range<N>& range, const Args&... args) {
  const std::string& name = label ? *label : default_label<LaunchKind::range, Kernel>();
  const auto plan = plan_range(space, name, kernel, range, args...);
  if constexpr (is_launchable_range_kernel<N, Kernel, Args...>) {
    if (plan.items != 0) return Launcher<ExecSpace>::run(space, plan);
    finish_empty_reductions(space, args...);
  }
  return nullptr;
}

template <class ExecSpace, class Kernel, int N, class... Args>
std::shared_ptr<LaunchStatus> launch(const ExecSpace& space, const std::string* label, const Kernel& kernel,
                                     const NdRange<N>& range, const Args&... args) {
  constexpr LaunchKind kind = is_phased_kernel<N, Kernel, Args...> ? LaunchKind::phased : LaunchKind::nd_range;
  const std::string& name = label ? *label : default_label<kind, Kernel>();
  const auto plan = plan_nd_range(space, name, kernel, range, args...);
  if constexpr (is_launchable_nd_range_kernel<N, Kernel, Args...>) {
    if (plan.groups != 0) return Launcher<ExecSpace>::run(space, plan);
    finish_empty_reductions(space, args...);
  }
  return nullptr;
}

/// Throws the launch's failure, else the first failure of a launch whose event was
/// dropped without a wait.
inline void report(const std::shared_ptr<LaunchStatus>& status) {
  if (status) status->raise();
  auto unreported = UnreportedLaunches::take();
  if (!unreported.empty()) {
    for (std::size_t i = 1; i < unreported.size(); ++i) UnreportedLaunches::keep_if_failed(unreported[i]);
    unreported.front()->reported = true;
    throw launch_error("an earlier launch whose event was never waited on failed: " + unreported.front()->message());
  }
}

}  // namespace detail

/// How a launch's work-groups with barriers ran on a host backend (README, "How
/// work-groups run"): as loops over their work-items (the Clang pass) or on fibers (one
/// context per work-item). Both false: no group reached a barrier, or a device backend.
struct WorkGroupEngines {
  bool loops = false;
  bool fibers = false;
};

/// A launch in flight on an execution-space instance (from call_kernel_async).
template <class ExecSpace>
class KernelEvent {
 public:
  KernelEvent(ExecSpace space, std::shared_ptr<detail::LaunchStatus> status)
      : space_(std::move(space)), status_(std::move(status)) {}
  KernelEvent(const KernelEvent&) = default;
  KernelEvent(KernelEvent&&) noexcept = default;
  KernelEvent& operator=(const KernelEvent&) = default;
  KernelEvent& operator=(KernelEvent&&) noexcept = default;
  /// A failure nobody waited for is thrown at the next wait, or printed at finalize.
  ~KernelEvent() {
    if (status_.use_count() == 1) detail::UnreportedLaunches::keep_if_failed(status_);
  }
  /// Blocks until the kernel is done; throws launch_error if it broke the model.
  void wait() const {
    space_.fence();
    detail::report(status_);
  }
  const ExecSpace& execution_space() const { return space_; }
  /// Which host engines ran the kernel's groups (after wait()).
  WorkGroupEngines work_group_engines() const {
    const unsigned e = status_ ? status_->host_engines.load() : 0u;
    return {(e & detail::LaunchStatus::host_engine_loops) != 0, (e & detail::LaunchStatus::host_engine_fibers) != 0};
  }

 private:
  ExecSpace space_;
  std::shared_ptr<detail::LaunchStatus> status_;
};

/// Starts the kernel on `space` and returns without waiting for it. Kokkos Tools and
/// profilers show it as "kapi::range <kernel type>" (or kapi::nd_range, kapi::phased).
template <class ExecSpace, class Kernel, class R, class... Args,
          class = std::enable_if_t<detail::is_execution_space_v<ExecSpace>>>
KernelEvent<ExecSpace> call_kernel_async(const ExecSpace& space, const Kernel& kernel, const R& range,
                                         const Args&... args) {
  static_assert(is_range_v<R> || is_nd_range_v<R>, "kapi::call_kernel: the second argument must be a Range or NdRange");
  return KernelEvent<ExecSpace>(space, detail::launch(space, nullptr, kernel, range, args...));
}

/// The same under a name of your own, as Kokkos::parallel_for takes a label:
///   kapi::call_kernel_async("blur", space, BlurKernel{}, range, in, out);
template <class ExecSpace, class Kernel, class R, class... Args,
          class = std::enable_if_t<detail::is_execution_space_v<ExecSpace>>>
KernelEvent<ExecSpace> call_kernel_async(const std::string& name, const ExecSpace& space, const Kernel& kernel,
                                         const R& range, const Args&... args) {
  static_assert(is_range_v<R> || is_nd_range_v<R>, "kapi::call_kernel: the third argument must be a Range or NdRange");
  return KernelEvent<ExecSpace>(space, detail::launch(space, &name, kernel, range, args...));
}

/// The same named by a type, as SYCL's parallel_for<class Name>:
///   kapi::call_kernel_async<class Blur>(space, kernel, range, in, out);   // Kokkos Tools shows "Blur"
template <class Name, class ExecSpace, class Kernel, class R, class... Args,
          class = std::enable_if_t<!detail::is_execution_space_v<Name> && detail::is_execution_space_v<ExecSpace>>>
KernelEvent<ExecSpace> call_kernel_async(const ExecSpace& space, const Kernel& kernel, const R& range,
                                         const Args&... args) {
  return call_kernel_async(detail::kernel_name_label<Name>(), space, kernel, range, args...);
}

/// Runs the kernel on `space` and returns when it is done.
template <class ExecSpace, class Kernel, class R, class... Args,
          class = std::enable_if_t<detail::is_execution_space_v<ExecSpace>>>
void call_kernel(const ExecSpace& space, const Kernel& kernel, const R& range, const Args&... args) {
  call_kernel_async(space, kernel, range, args...).wait();
}

/// Runs the kernel on `space` under a name of your own and returns when it is done.
template <class ExecSpace, class Kernel, class R, class... Args,
          class = std::enable_if_t<detail::is_execution_space_v<ExecSpace>>>
void call_kernel(const std::string& name, const ExecSpace& space, const Kernel& kernel, const R& range,
                 const Args&... args) {
  call_kernel_async(name, space, kernel, range, args...).wait();
}

/// Runs the kernel on `space`, named by a type (SYCL's parallel_for<class Name>), and
/// returns when it is done.
template <class Name, class ExecSpace, class Kernel, class R, class... Args,
          class = std::enable_if_t<!detail::is_execution_space_v<Name> && detail::is_execution_space_v<ExecSpace>>>
void call_kernel(const ExecSpace& space, const Kernel& kernel, const R& range, const Args&... args) {
  call_kernel_async(detail::kernel_name_label<Name>(), space, kernel, range, args...).wait();
}

/// Runs the kernel on the default execution space and returns when it is done.
template <class Kernel, class R, class... Args,
          class = std::enable_if_t<!detail::is_execution_space_v<Kernel> && (is_range_v<R> || is_nd_range_v<R>)>>
void call_kernel(const Kernel& kernel, const R& range, const Args&... args) {
  call_kernel(Kokkos::DefaultExecutionSpace(), kernel, range, args...);
}

/// Runs the kernel on the default execution space under a name of your own.
template <class Kernel, class R, class... Args,
          class = std::enable_if_t<!detail::is_execution_space_v<Kernel> && (is_range_v<R> || is_nd_range_v<R>)>>
void call_kernel(const std::string& name, const Kernel& kernel, const R& range, const Args&... args) {
  call_kernel(name, Kokkos::DefaultExecutionSpace(), kernel, range, args...);
}

/// Runs the kernel on the default execution space, named by a type.
template <class Name, class Kernel, class R, class... Args,
          class = std::enable_if_t<!detail::is_execution_space_v<Name> && !detail::is_execution_space_v<Kernel> &&
                                   (is_range_v<R> || is_nd_range_v<R>)>>
void call_kernel(const Kernel& kernel, const R& range, const Args&... args) {
  call_kernel(detail::kernel_name_label<Name>(), Kokkos::DefaultExecutionSpace(), kernel, range, args...);
}

}  // namespace kapi
