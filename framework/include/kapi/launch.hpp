#pragma once
// call_kernel: runs a range or nd-range kernel on a Kokkos execution space.
//   kapi::call_kernel(kernel, kapi::Range<1>{n}, a, b, c);
//   kapi::call_kernel(space, kernel, kapi::NdRange<2>({64, 64}, {16, 16}), A, B, C, tileA, tileB);
// The kernel's first parameter is the Item/NdItem (or, for a phased kernel launched with
// an NdRange, the WorkGroup: phased.hpp); the rest are the arguments in order.
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "barrier.hpp"
#include "detail/cuda_range_launch.hpp"
#include "detail/host_launch_rules.hpp"
#include "detail/host_stack_bytes.hpp"
#include "detail/kernel_args.hpp"
#include "detail/launch_status.hpp"
#include "detail/validate.hpp"
#include "device_limits.hpp"
#include "detail/device_collectives.hpp"
#include "item.hpp"
#include "launch_bounds.hpp"
#include "work_group.hpp"
#if !KAPI_DEVICE_PASS
#include "detail/host_launch.hpp"
#endif

namespace kapi {

namespace detail {

// Tile shapes for 2-d and 3-d range kernels on devices without kapi's own range launch
// (host backends run rows: detail/host_launch.hpp): the last (contiguous) dimension is
// the long side, so GPU lanes touch consecutive elements.
template <int N>
Kokkos::Array<std::int64_t, N> range_tiles(const Range<N>& r) {
  Kokkos::Array<std::int64_t, N> t;
  const std::int64_t inner = 32, middle = 8;
  for (int d = 0; d < N; ++d) t[d] = 1;
  t[N - 1] = inner;
  if (N > 1) t[N - 2] = middle;
  for (int d = 0; d < N; ++d) t[d] = std::max<std::int64_t>(1, std::min<std::int64_t>(t[d], r.extent[d]));
  return t;
}

template <class Kernel, int N, class... Args>
struct RangeFunctor {
  Kernel kernel;
  ArgPack<Args...> args;
  Range<N> range;

  template <class... I>
  KAPI_FUNCTION void operator()(I... i) const {
    const std::size_t id[N] = {static_cast<std::size_t>(i)...};
    call(Item<N>(id, range.extent), std::index_sequence_for<Args...>{});
  }
  template <std::size_t... A>
  KAPI_FUNCTION void call(const Item<N>& item, std::index_sequence<A...>) const {
    kernel(item, get<A>(args)...);
  }
};

// Shared by the device and host nd-range functors: what every work-item is given.
template <class Kernel, int N, class... Args>
struct NdRangeBody {
  static constexpr int dimensions = N;
  using arg_indices = std::index_sequence_for<Args...>;
  Kernel kernel;
  ArgPack<Args...> args;
  ScratchLayout<sizeof...(Args)> layout;
  Range<N> group_range;
  Range<N> local_range;
  int scratch_level = 0;

  /// The group's local memory (every LocalAccessor argument), from its Kokkos team scratch.
  template <class TeamMember>
  KAPI_FUNCTION char* group_scratch(const TeamMember& team) const {
    if (!layout.total) return nullptr;
    // Two constant levels rather than team_scratch(scratch_level): a run-time level makes
    // Kokkos keep its scratch cursors in a stack frame (local memory) on a device.
    void* p = scratch_level == 0 ? team.team_scratch(0).get_shmem_aligned(layout.total, scratch_alignment)
                                 : team.team_scratch(1).get_shmem_aligned(layout.total, scratch_alignment);
    return static_cast<char*>(p);
  }

  KAPI_FUNCTION void run_item(std::size_t group_linear, std::size_t local_linear, char* scratch,
                              GroupHandle handle) const {
    std::size_t group_id[N], local_id[N];
    delinearize(group_linear, group_range.extent, group_id);
    delinearize(local_linear, local_range.extent, local_id);
    const Group<N> group(group_id, group_range.extent, local_range.extent, local_linear, handle);
    call(NdItem<N>(group, local_id), scratch, std::index_sequence_for<Args...>{});
  }
  // A phased kernel: called once per group.
  KAPI_FUNCTION void run_group(std::size_t group_linear, char* scratch, GroupHandle handle) const {
    std::size_t group_id[N];
    delinearize(group_linear, group_range.extent, group_id);
    call(WorkGroup<N>(group_id, group_range.extent, local_range.extent, handle), scratch,
         std::index_sequence_for<Args...>{});
  }
  template <class First, std::size_t... A>
  KAPI_FUNCTION void call(const First& first, char* scratch, std::index_sequence<A...>) const {
    (void)scratch;  // unused for kernels without arguments
    kernel(first, bind_arg(get<A>(args), scratch, layout.offset[A])...);
  }
};

// A device backend: the work-group is a Kokkos team, one work-item per team member.
template <class ExecSpace, class Kernel, int N, class... Args>
struct DeviceNdRangeFunctor {
  NdRangeBody<Kernel, N, Args...> body;

  KAPI_FUNCTION void operator()(const typename Kokkos::TeamPolicy<ExecSpace>::member_type& team) const {
    char* scratch = body.group_scratch(team);
    body.run_item(team.league_rank(), team.team_rank(), scratch, GroupHandle{&team});
  }
};

// A phased kernel on a device backend: the same team, every member runs the kernel.
template <class ExecSpace, class Kernel, int N, class... Args>
struct DevicePhasedFunctor {
  NdRangeBody<Kernel, N, Args...> body;

  KAPI_FUNCTION void operator()(const typename Kokkos::TeamPolicy<ExecSpace>::member_type& team) const {
    char* scratch = body.group_scratch(team);
    body.run_group(team.league_rank(), scratch, GroupHandle{&team});
  }
};


template <class ExecSpace>
std::string space_name() {
  return std::string("the ") + ExecSpace::name() + " execution space";
}

template <class ExecSpace, class Kernel, int N, class... Args>
std::shared_ptr<LaunchStatus> launch(const ExecSpace& space, const Kernel& kernel, const Range<N>& range,
                                     const Args&... args) {
  validate_signature<Item, N, Kernel, Args...>();
  reject_local_accessors_in_range_kernel<Args...>();
  if constexpr (local_accessor_count<Args...> == 0 && callable_with<N, Item, Kernel, Args...>) {
    const std::size_t count = checked_size(range, "global");
    check_launching_thread(space, "call_kernel");
    if (count == 0) return nullptr;
#if !KAPI_DEVICE_PASS
    if constexpr (runs_on_host<ExecSpace>) {
      auto status = std::make_shared<LaunchStatus>();
      const std::size_t per_chunk = host_items_per_chunk(count, static_cast<std::size_t>(space.concurrency()));
      const auto turn = host_dispatch_turn<ExecSpace>();
      Kokkos::parallel_for("kapi::range",
                           Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(
                               space, 0, static_cast<std::int64_t>((count + per_chunk - 1) / per_chunk)),
                           HostRangeFunctor<Kernel, N, Args...>{kernel, ArgPack<Args...>(args...), range, count,
                                                                per_chunk, status.get()});
      return status;
    } else
#endif
    {
      RangeFunctor<Kernel, N, Args...> functor{kernel, ArgPack<Args...>(args...), range};
#if KAPI_HAS_CUDA_RANGE_LAUNCH
      if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>) {
        cuda_launch_range(space, functor, range.extent);
      } else
#endif
      if constexpr (N == 1) {
        Kokkos::parallel_for("kapi::range", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(
                                                space, 0, static_cast<std::int64_t>(range.extent[0])),
                             functor);
      } else {
        using Policy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<N, Kokkos::Iterate::Right, Kokkos::Iterate::Right>,
                                             Kokkos::IndexType<std::int64_t>>;
        Kokkos::Array<std::int64_t, N> lower, upper;
        for (int d = 0; d < N; ++d) {
          lower[d] = 0;
          upper[d] = static_cast<std::int64_t>(range.extent[d]);
        }
        Kokkos::parallel_for("kapi::range", Policy(space, lower, upper, range_tiles<N>(range)), functor);
      }
    }
  }
  return nullptr;
}

template <class ExecSpace, class Kernel, int N, class... Args>
std::shared_ptr<LaunchStatus> launch(const ExecSpace& space, const Kernel& kernel, const NdRange<N>& range,
                                     const Args&... args) {
  validate_nd_range(range);
  if constexpr (runs_on_host<ExecSpace>) host_stack_bytes();  // a bad KAPI_HOST_STACK_BYTES throws here
  check_launching_thread(space, "call_kernel");
  // A kernel taking WorkGroup<N> is phased (phased.hpp): one call per group, same checks.
  // One that takes either (a generic kernel) stays flat.
  constexpr bool phased = callable_with<N, WorkGroup, Kernel, Args...> && !callable_with<N, NdItem, Kernel, Args...>;
  if constexpr (!phased) validate_signature<NdItem, N, Kernel, Args...>();
  const std::size_t local = checked_size(range.local, "local");
  validate_group_size(local, max_work_group_size<ExecSpace>(), space_name<ExecSpace>(),
                      runs_on_host<ExecSpace> ? " on a host backend" : "");
  NdRangeBody<Kernel, N, Args...> body{kernel, ArgPack<Args...>(args...), scratch_layout(args...),
                                       range.get_group_range(), range.local};
  validate_local_memory(body.layout.total, max_local_memory_bytes<ExecSpace>(), space_name<ExecSpace>());
  const std::size_t groups = checked_size(body.group_range, "work-group");
  validate_group_count(groups);
  if (groups == 0) return nullptr;
  // A kernel's declared LaunchBounds cap its work-groups on every backend and budget its
  // registers on a device.
  using Bounds = launch_bounds_of<Kernel>;
  if constexpr (Bounds::max_work_items > 0)
    validate_group_size(local, Bounds::max_work_items, "the kernel's kapi::LaunchBounds", " work-items");
  if constexpr (phased || callable_with<N, NdItem, Kernel, Args...>) {
    using Policy = std::conditional_t<
        Bounds::max_work_items == 0, Kokkos::TeamPolicy<ExecSpace>,
        Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<Bounds::max_work_items, Bounds::min_groups_per_unit>>>;
    // On a device a kernel that scans also holds device_collective_bytes of static shared
    // memory (detail/device_collectives.hpp): count them against the fast level.
    constexpr std::size_t reserved = runs_on_host<ExecSpace> ? 0 : device_collective_bytes;
    body.scratch_level = body.layout.total + reserved <= fast_local_memory_bytes<ExecSpace>() ? 0 : 1;
    // Room to align the group's memory to scratch_alignment (Kokkos' team scratch may
    // start at any 8-byte boundary; Vec loads need 16).
    const auto scratch =
        Kokkos::PerTeam(static_cast<std::ptrdiff_t>(body.layout.total ? body.layout.total + scratch_alignment : 0));
    const char* label = phased ? "kapi::phased" : "kapi::nd_range";
#if !KAPI_DEVICE_PASS
    if constexpr (runs_on_host<ExecSpace>) {
      auto status = std::make_shared<LaunchStatus>();
      const std::size_t per_chunk =
          host_groups_per_chunk(groups, local, static_cast<std::size_t>(space.concurrency()));
      const auto turn = host_dispatch_turn<ExecSpace>();
      Kokkos::parallel_for(label,
                           Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(
                               space, 0, static_cast<std::int64_t>((groups + per_chunk - 1) / per_chunk)),
                           HostGroupsFunctor<NdRangeBody<Kernel, N, Args...>, phased>{body, groups, per_chunk,
                                                                                     status.get()});
      return status;
    } else
#endif
    {
      using Functor = std::conditional_t<phased, DevicePhasedFunctor<ExecSpace, Kernel, N, Args...>,
                                         DeviceNdRangeFunctor<ExecSpace, Kernel, N, Args...>>;
      Functor functor{body};
      Policy probe(space, static_cast<int>(groups), 1);
      probe.set_scratch_size(body.scratch_level, scratch);
      const auto kernel_max = static_cast<std::size_t>(probe.team_size_max(functor, Kokkos::ParallelForTag()));
      validate_group_size(local, kernel_max, space_name<ExecSpace>(), " for this kernel's register and local memory use");
      Kokkos::parallel_for(label,
                           Policy(space, static_cast<int>(groups), static_cast<int>(local), 1)
                               .set_scratch_size(body.scratch_level, scratch),
                           functor);
    }
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

 private:
  ExecSpace space_;
  std::shared_ptr<detail::LaunchStatus> status_;
};

/// Starts the kernel on `space` and returns without waiting for it.
template <class ExecSpace, class Kernel, class R, class... Args,
          class = std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value>>
KernelEvent<ExecSpace> call_kernel_async(const ExecSpace& space, const Kernel& kernel, const R& range,
                                         const Args&... args) {
  static_assert(is_range_v<R> || is_nd_range_v<R>, "kapi::call_kernel: the second argument must be a Range or NdRange");
  return KernelEvent<ExecSpace>(space, detail::launch(space, kernel, range, args...));
}

/// Runs the kernel on `space` and returns when it is done.
template <class ExecSpace, class Kernel, class R, class... Args,
          class = std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value>>
void call_kernel(const ExecSpace& space, const Kernel& kernel, const R& range, const Args&... args) {
  call_kernel_async(space, kernel, range, args...).wait();
}

/// Runs the kernel on the default execution space and returns when it is done.
template <class Kernel, class R, class... Args,
          class = std::enable_if_t<!Kokkos::is_execution_space<Kernel>::value && (is_range_v<R> || is_nd_range_v<R>)>>
void call_kernel(const Kernel& kernel, const R& range, const Args&... args) {
  call_kernel(Kokkos::DefaultExecutionSpace(), kernel, range, args...);
}

}  // namespace kapi
