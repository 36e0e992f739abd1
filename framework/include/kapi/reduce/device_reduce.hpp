// SPDX-License-Identifier: Apache-2.0
#pragma once
// Device-wide reductions of a 1-d View, built from kapi nd-range kernels:
//
//   kapi::ReduceWorkspace<float, Space> ws(space, n);       // allocates once per size
//   float s  = kapi::reduce(space, x, kapi::plus<>(), ws);   // the value, on the host
//   float lo = kapi::reduce(space, x, kapi::minimum<>(), ws, {kapi::ReduceAlgorithm::single_pass});
//   T v      = kapi::reduce(space, x, identity, my_op, ws);  // an op without a known identity
//   auto ev  = kapi::reduce_async(space, x, kapi::plus<>(), ws);  ...  float s2 = ev.get();
//
// Every work-item first reduces a chunk of the array (chunk_reduce.hpp: SIMD lanes on
// host backends, 16-byte vector loads on devices), then each group combines its
// work-items; ReduceAlgorithm picks how the groups' results are combined (recursive
// passes, or one launch whose last group finishes). Launch shapes: reduce_tuning.hpp.
//
// The workspace holds the partial results, the single-pass counter and, on a device,
// the pinned host word the result is copied into: a call with a reserved workspace
// allocates nothing and ends with one 4- or 8-byte copy and one stream synchronisation.
// Op must be associative and commutative. An empty view gives the identity.
//
// Accuracy of a floating-point sum: |computed - exact| <= reduce_depth(...) * eps * sum|x|
// (reduce_depth: the depth of the summation tree the launch shapes make).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include <kapi/reduce/chunk_reduce.hpp>
#include <kapi/reduce/detail/kernels.hpp>
#include <kapi/device_limits.hpp>
#include <kapi/detail/kernel_names.hpp>
#include <kapi/errors.hpp>
#include <kapi/execution_space.hpp>
#include <kapi/integer_math.hpp>
#include <kapi/sub_group.hpp>
#include <kapi/functional.hpp>
#include <kapi/launch.hpp>
#include <kapi/reduce/tuning.hpp>
#include <kapi/space_traits.hpp>

namespace kapi {

namespace detail {
template <class ExecSpace>
// Can the host read the result where the kernel wrote it (no copy back)? A memory
// question, unlike is_host_execution_space_v.
inline constexpr bool host_reads_result_directly =
    Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;

template <class ExecSpace>
void validate_reduce_options(const ReduceOptions& options) {
  const std::size_t group = options.group_size;
  if (group == 0)
    throw launch_error(
        "kapi::reduce: work-group size 0; a group needs at least one work-item "
        "(or ReduceOptions::automatic)");
  if (group != ReduceOptions::automatic)
    validate_group_size(group, max_work_group_size<ExecSpace>(), ExecSpace::name(), "");
  const std::size_t per_item = options.per_item, most = std::size_t(1) << 31;
  if (per_item == 0)
    throw launch_error(
        "kapi::reduce: per_item 0; a work-item reduces at least one element "
        "(or ReduceOptions::automatic)");
  if (per_item != ReduceOptions::automatic && per_item > most)
    throw launch_error("kapi::reduce: per_item " + std::to_string(per_item) + " is more than " + std::to_string(most) +
                       " elements per work-item");
}
}  // namespace detail

/// The memory a reduction works in, for one value type and execution space.
template <class T, class ExecSpace>
class ReduceWorkspace {
 public:
  using memory_space = typename ExecSpace::memory_space;

  ReduceWorkspace() = default;
  /// Allocates what both algorithms need, with default shapes, for up to n elements.
  ReduceWorkspace(const ExecSpace& space, std::size_t n) : space_(space) { reserve(n); }

  /// Allocates what `options` needs for up to n elements (both algorithms when the
  /// options are the defaults). A reduction on a larger array, or with other options,
  /// grows the workspace itself.
  void reserve(std::size_t n, const ReduceOptions& options = {}) {
    detail::validate_reduce_options<ExecSpace>(options);
    ReduceOptions recursive = options, single = options;
    recursive.algorithm = ReduceAlgorithm::recursive;
    single.algorithm = ReduceAlgorithm::single_pass;
    const auto plan = detail::reduce_plan<T>(space_, n ? n : 1, recursive);
    impl_partials(0, plan.pass[0].groups);
    if (plan.count > 1) impl_partials(1, plan.pass[1].groups);
    if constexpr (detail::atomic_value_v<T>) {
      impl_partials(0, detail::reduce_pass<T>(space_, n ? n : 1, single).groups + 1);
      impl_counter();
    }
    if constexpr (!detail::host_reads_result_directly<ExecSpace>) impl_host_result();
    events_.reserve(detail::ReducePlan::max_passes);
  }
  const ExecSpace& space() const { return space_; }

  // For the reductions: partial-result buffer 0 or 1 with at least `size` elements, the
  // single-pass counter (0 between calls), the host word, the launches in flight.
  T* impl_partials(int which, std::size_t size) {
    auto& b = partials_[which];
    if (b.extent(0) < size)
      b = Kokkos::View<T*, memory_space>(
          Kokkos::view_alloc(space_, std::string("kapi::reduce partials ") + char('0' + which),
                             Kokkos::WithoutInitializing),
          size);
    return b.data();
  }
  unsigned* impl_counter() {
    if (!counter_.is_allocated())
      counter_ = Kokkos::View<unsigned, memory_space>(Kokkos::view_alloc(space_, std::string("kapi::reduce counter")));
    return counter_.data();
  }
  T* impl_host_result() {
    if (!host_result_.is_allocated()) host_result_ = HostResult(Kokkos::view_alloc(std::string("kapi::reduce result")));
    return host_result_.data();
  }
  std::vector<KernelEvent<ExecSpace>>& impl_events() { return events_; }

 private:
  // Where a device reduction's result lands on the host (space_traits.hpp).
  using HostResult = Kokkos::View<T, typename space_traits<ExecSpace>::reduce_result_space>;
  ExecSpace space_;
  Kokkos::View<T*, memory_space> partials_[2];
  Kokkos::View<unsigned, memory_space> counter_;
  HostResult host_result_;
  std::vector<KernelEvent<ExecSpace>> events_;
};

/// A reduction in flight (from reduce_async); get() waits for it and returns the value.
/// Valid until the next reduction that uses the same workspace.
template <class T, class ExecSpace>
class ReduceEvent {
 public:
  /// An empty reduction: the value is known.
  explicit ReduceEvent(const T& value) : value_(value) {}
  /// Kernels queued on `space`, whose result will be at `result` in the workspace's memory;
  /// on a device this queues the copy of the result to the host.
  ReduceEvent(const ExecSpace& space, ReduceWorkspace<T, ExecSpace>& ws, const T* result)
      : space_(space), ws_(&ws), result_(result) {
    if constexpr (!detail::host_reads_result_directly<ExecSpace>) queue_copy_to_host();
  }

  T get() const {
    if (!ws_) return value_;
    if constexpr (detail::host_reads_result_directly<ExecSpace>) {
      for (const auto& e : ws_->impl_events()) e.wait();  // reports a launch that broke the model
      return *result_;
    } else {
      space_.fence();  // device launches report nothing after the fact: one wait covers them all
      return *ws_->impl_host_result();
    }
  }

 private:
  void queue_copy_to_host() const {
#if defined(KOKKOS_ENABLE_CUDA)
    if constexpr (space_traits<ExecSpace>::is_cuda) {
      // One pinned word, without deep_copy's View machinery; still shown to Kokkos Tools.
      const detail::ToolsDeepCopy copy(Kokkos::CudaHostPinnedSpace::name(), "kapi::reduce result",
                                       ws_->impl_host_result(), Kokkos::CudaSpace::name(), "kapi::reduce partials",
                                       result_, sizeof(T));
      const cudaError_t e =
          cudaMemcpyAsync(ws_->impl_host_result(), result_, sizeof(T), cudaMemcpyDeviceToHost, space_.cuda_stream());
      if (e != cudaSuccess)
        throw launch_error(std::string("kapi::reduce: copying the result to the host failed: ") +
                           cudaGetErrorString(e));
      return;
    } else
#endif
    {
      using Unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
      Kokkos::deep_copy(space_, Kokkos::View<T, Kokkos::HostSpace, Unmanaged>(ws_->impl_host_result()),
                        Kokkos::View<const T, typename ExecSpace::memory_space, Unmanaged>(result_));
    }
  }

  ExecSpace space_;
  ReduceWorkspace<T, ExecSpace>* ws_ = nullptr;
  const T* result_ = nullptr;
  T value_{};
};

namespace detail {

template <class View>
void validate_reduce_view(const View& x) {
  static_assert(Kokkos::is_view<View>::value && View::rank == 1, "kapi::reduce takes a 1-d Kokkos::View");
  if (x.extent(0) > 1 && x.stride(0) != 1)
    throw launch_error("kapi::reduce: the view's elements must be contiguous (stride 1), got stride " +
                       std::to_string(x.stride(0)));
}

template <class ExecSpace, class T, class Op>
ReduceEvent<T, ExecSpace> start_reduce(const ExecSpace& space, const T* x, std::size_t n, const T& identity,
                                       const Op& op, ReduceWorkspace<T, ExecSpace>& ws, const ReduceOptions& options) {
  validate_reduce_options<ExecSpace>(options);
  if (n == 0) return ReduceEvent<T, ExecSpace>(identity);
  using Share = GroupShare<typename ReduceTuning<T, ExecSpace>::Chunk>;
  auto& events = ws.impl_events();
  events.clear();
  const ReducePlan plan = reduce_plan<T>(space, n, options);
  if (options.algorithm == ReduceAlgorithm::single_pass) {
    // Groups combine with reduce_over_group (which needs the operator's own identity)
    // and the last group reads the partials with atomic loads.
    if constexpr (has_identity_v<Op, T> && atomic_value_v<T>) {
      const ReducePass& p = plan.pass[0];
      T* partial = ws.impl_partials(0, p.groups + 1);  // the total goes after the partials
      const SinglePassReduce<T, Share, Op> kernel{Share::make(x, n, p.per_item), identity, op};
      static const std::string label = "kapi::reduce single_pass " + type_name<T>();
      events.push_back(call_kernel_async(label, space, kernel, NdRange<1>(p.groups * p.group_size, p.group_size), x,
                                         partial, ws.impl_counter()));
      return ReduceEvent<T, ExecSpace>(space, ws, partial + p.groups);
    } else {
      const char* needs = atomic_value_v<T> ? "an operator with a known identity (kapi::known_identity)"
                                            : "a value type with atomic loads (32- or 64-bit integers, float, double)";
      throw launch_error(std::string("kapi::reduce: single_pass needs ") + needs + "; use ReduceAlgorithm::recursive");
    }
  }
  // Recursive: the passes queue back to back on the space (no wait between them),
  // alternating between the two partial buffers.
  const T* in = x;
  for (int k = 0; k < plan.count; ++k) {
    const ReducePass& p = plan.pass[k];
    T* out = ws.impl_partials(k % 2, p.groups);
    const RecursiveReducePass<T, Share, Op> kernel{Share::make(in, p.n, p.per_item), identity, op};
    static const std::string label = "kapi::reduce recursive_pass " + type_name<T>();
    events.push_back(call_kernel_async(label, space, kernel, NdRange<1>(p.groups * p.group_size, p.group_size), in, out,
                                       LocalAccessor<T, 1>(p.group_size)));
    in = out;
  }
  return ReduceEvent<T, ExecSpace>(space, ws, in);
}

template <class View>
using reduce_value_t = typename View::non_const_value_type;

}  // namespace detail

/// Starts op over x on `space`; the returned event's get() gives the value.
template <class ExecSpace, class View, class Op>
ReduceEvent<detail::reduce_value_t<View>, ExecSpace> reduce_async(
    const ExecSpace& space, const View& x, const detail::reduce_value_t<View>& identity, const Op& op,
    ReduceWorkspace<detail::reduce_value_t<View>, ExecSpace>& ws, const ReduceOptions& options = {}) {
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename View::memory_space>::accessible,
                "kapi::reduce: the view's memory is not accessible from the execution space");
  detail::validate_reduce_view(x);
  return detail::start_reduce(space, x.data(), x.extent(0), identity, op, ws, options);
}

template <class ExecSpace, class View, class Op>
ReduceEvent<detail::reduce_value_t<View>, ExecSpace> reduce_async(
    const ExecSpace& space, const View& x, const Op& op, ReduceWorkspace<detail::reduce_value_t<View>, ExecSpace>& ws,
    const ReduceOptions& options = {}) {
  return reduce_async(space, x, known_identity<Op, detail::reduce_value_t<View>>(), op, ws, options);
}

/// op over x, computed on `space`, returned on the host.
template <class ExecSpace, class View, class Op>
detail::reduce_value_t<View> reduce(const ExecSpace& space, const View& x, const detail::reduce_value_t<View>& identity,
                                    const Op& op, ReduceWorkspace<detail::reduce_value_t<View>, ExecSpace>& ws,
                                    const ReduceOptions& options = {}) {
  return reduce_async(space, x, identity, op, ws, options).get();
}

template <class ExecSpace, class View, class Op>
detail::reduce_value_t<View> reduce(const ExecSpace& space, const View& x, const Op& op,
                                    ReduceWorkspace<detail::reduce_value_t<View>, ExecSpace>& ws,
                                    const ReduceOptions& options = {}) {
  return reduce_async(space, x, op, ws, options).get();
}

/// Depth d of the summation tree of a reduction of n elements of T on `space`: a
/// floating-point sum is within d * eps * sum|x| of the exact one. Work-items' chunks
/// (chunk_reduce.hpp), then per group a local-memory tree (recursive, every pass) or
/// reduce_over_group (single pass: on host backends eight blocks of local ids, each a left
/// fold, then the blocks (host/detail/group_fold.hpp); on
/// devices a warp tree, then the warps' totals in order, or Kokkos' tree: at most 2
/// log2(size) levels) before and after the last group's run over the partials.
template <class T, class ExecSpace>
std::size_t reduce_depth(const ExecSpace& space, std::size_t n, const ReduceOptions& options = {}) {
  detail::validate_reduce_options<ExecSpace>(options);
  using Share = detail::GroupShare<typename ReduceTuning<T, ExecSpace>::Chunk>;
  const auto plan = detail::reduce_plan<T>(space, n ? n : 1, options);
  std::size_t depth = 0;
  if (options.algorithm == ReduceAlgorithm::recursive) {
    for (int k = 0; k < plan.count; ++k)
      depth += Share::depth(plan.pass[k].per_item) + kapi::ceil_log2(plan.pass[k].group_size);
  } else {
    const auto& p = plan.pass[0];
    const std::size_t sub = max_sub_group_size<ExecSpace>(), warps = kapi::ceil_div(p.group_size, sub);
    const std::size_t group = kapi::is_host_execution_space_v<ExecSpace>
                                  ? p.group_size
                                  : std::max<std::size_t>(2 * kapi::ceil_log2(p.group_size),
                                                          kapi::ceil_log2(std::min(p.group_size, sub)) + warps - 1);
    depth = Share::depth(p.per_item) + group + (p.groups + p.group_size - 1) / p.group_size + group;
  }
  return depth;
}

}  // namespace kapi
