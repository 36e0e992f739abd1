// SPDX-License-Identifier: Apache-2.0
#pragma once
// Range and nd-range kernels on host backends (Serial, OpenMP, Threads).
// - Range kernels: Kokkos hands out chunks of rows; inside a chunk the last (contiguous)
//   dimension is a plain counted loop over the kernel, which the compiler can vectorise,
//   and the ids of the other dimensions are fixed per row (no division per work-item).
// - Nd-range kernels: one host thread runs a whole work-group (host/detail/group.hpp);
//   the group's geometry is built once per group, and the barrier-free rest of a group
//   runs row by row like a range kernel.
// Every work-item runs with the nested-launch flag set (host/detail/launch_rules.hpp), and
// an exception leaving it is caught at its boundary and reported by the launch.
// - Reduction arguments: the same chunks in a Kokkos parallel_reduce; each chunk combines
//   into a copy of the thread's partials on its own stack (registers), joined once per
//   chunk; Kokkos joins the threads' partials and the final hook stores the results.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <utility>

#include <kapi/config.hpp>
#include <kapi/detail/kernel_args.hpp>
#include <kapi/detail/launch_plan.hpp>
#include <kapi/detail/launch_status.hpp>
#include <kapi/detail/linearize.hpp>
#include <kapi/detail/reductions.hpp>
#include <kapi/host/detail/dispatch.hpp>
#include <kapi/host/detail/function_ref.hpp>
#include <kapi/host/detail/group.hpp>
#include <kapi/host/detail/launch_rules.hpp>
#include <kapi/host/detail/work_group_loops.hpp>
#include <kapi/integer_math.hpp>
#include <kapi/item.hpp>
#include <kapi/work_group.hpp>

namespace kapi::detail {

/// Work-items per chunk Kokkos hands to a host thread: several chunks per thread for
/// balance, never so few work-items that the per-chunk cost shows.
inline std::size_t host_items_per_chunk(std::size_t items, std::size_t threads) {
  const std::size_t per_thread = items / (8 * std::max<std::size_t>(1, threads));
  return std::min(items, std::max<std::size_t>(per_thread, 4096));
}

/// Calls f(id) for the ids of linear ids first … last-1 of `extent`, in order, row by row:
/// the last dimension's loop is a plain counted loop (signed, so that the compiler may
/// assume it does not wrap, which it needs to vectorise), the other ids are fixed per row.
/// Only the first id is split by division; each next row's ids are carried. (Measured:
/// no faster than dividing per row, since a row's stores are what it waits on.)
template <int N, class F>
KAPI_INLINE_HOST_LOOP void for_each_id_in(const std::size_t (&extent)[N], std::size_t first, std::size_t last,
                                          const F& f) {
  if (first >= last) return;
  std::size_t id[N];
  delinearize(first, extent, id);
  for (std::size_t start = first; start < last;) {
    const std::size_t row_begin = start - id[N - 1];
    const std::int64_t end = static_cast<std::int64_t>(std::min(extent[N - 1], last - row_begin));
    for (std::int64_t j = static_cast<std::int64_t>(id[N - 1]); j < end; ++j) {
      id[N - 1] = static_cast<std::size_t>(j);
      f(id, row_begin + static_cast<std::size_t>(j));
    }
    start = row_begin + static_cast<std::size_t>(end);
    id[N - 1] = 0;  // the next row: carry into the outer ids
    for (int d = N - 2; d >= 0; --d) {
      if (++id[d] < extent[d]) break;
      id[d] = 0;
    }
  }
}

template <class Body>
struct HostRangeFunctor {
  static constexpr int N = Body::dimensions;
  Body body;
  std::size_t items, items_per_chunk;
  LaunchStatus* status;

  void operator()(std::int64_t chunk) const { run(chunk); }

  /// The chunk's work-items; with reductions, `partials` (none or one) is what they combine into.
  template <class... Acc>
  void run(std::int64_t chunk, Acc&... partials) const {
    const HostKernelScope in_kernel;
    const std::size_t first = std::size_t(chunk) * items_per_chunk, last = std::min(items, first + items_per_chunk);
    // The kernel and its arguments copied onto this stack: the compiler then sees that
    // the kernel's stores cannot change them and keeps them in registers.
    const HostRangeFunctor local = *this;
    try {
      for_each_id_in(body.range.extent, first, last, [&](const std::size_t(&id)[N], std::size_t) {
        try {
          local.body.call(Item<N>(id, local.body.range.extent), partials..., typename Body::arg_indices());
        } catch (...) {
          status->fail_in_range_item(std::current_exception(), id, body.range.extent, N);
          throw HostGroupUnwind{};
        }
      });
    } catch (const HostGroupUnwind&) {  // a work-item threw: the rest of the chunk does not run
    }
  }
};

/// A range kernel with reductions: Kokkos' value is every reduction's partial.
template <class Body>
struct HostRangeReduceFunctor {
  HostRangeFunctor<Body> range;
  KAPI_IMPL_REDUCTION_HOOKS(typename Body::partials_type, range.body.args)

  void operator()(std::int64_t chunk, value_type& update) const {
    value_type partials = update;  // on this stack: kept in registers through the chunk
    range.run(chunk, partials);
    update = partials;
  }
};

/// Work-groups per chunk Kokkos hands to a host thread: several chunks per thread for
/// balance, at least ~1024 work-items per chunk so the per-chunk cost does not show.
inline std::size_t host_groups_per_chunk(std::size_t groups, std::size_t group_size, std::size_t threads) {
  const std::size_t per_thread = std::max<std::size_t>(1, groups / (8 * std::max<std::size_t>(1, threads)));
  const std::size_t min_groups = std::max<std::size_t>(1, 1024 / std::max<std::size_t>(1, group_size));
  return std::min(groups, std::max(per_thread, min_groups));
}

/// Nd-range and phased kernels on a host backend: Kokkos hands each host thread chunks of
/// work-groups (a RangePolicy: no team machinery), and the thread runs each group whole
/// (host/detail/group.hpp) in its own local memory. The kernel and its arguments are
/// copied once per chunk onto the thread's stack: the compiler then sees that the
/// kernel's stores cannot change them, keeps them in registers and can vectorise.
template <class Body, bool Phased>
struct HostGroupsFunctor {
  Body body;
  std::size_t groups, groups_per_chunk;
  LaunchStatus* status;
  CapturedLocals captured;

  void operator()(std::int64_t chunk) const { run(chunk); }

  /// The chunk's work-groups; with reductions, `partials` (none or one) is what their
  /// work-items combine into (all on this thread: contexts switch only at barriers).
  template <class... Acc>
  void run(std::int64_t chunk, Acc&... partials) const {
    HostGroup& group = HostGroup::this_thread();
    const std::size_t first = std::size_t(chunk) * groups_per_chunk, last = std::min(groups, first + groups_per_chunk);
    if constexpr (Phased) {
      char* scratch = group.local_memory(body.layout.total);
      Body local_body = body;
      local_body.bind_captured(captured, scratch);  // the kernel's captured LocalAccessors: this thread's memory
      for (std::size_t g = first; g < last; ++g) run_phased(local_body, group, g, scratch);
    } else {
      run_flat(group, first, last, partials...);
    }
    group.release_large_buffers();
  }

  /// One phased group. Its phases (KAPI_INLINE_HOST_LOOP) run in a function of their own,
  /// the Call's: inlined into the chunk loop and the caller (Kokkos Serial's dispatch
  /// inlines all of it) the kernel's loops ran short of registers, and phased-t16 spilled
  /// three values per inner iteration on serial (results/ has the A/B). That function runs
  /// its own copy of the kernel, so the compiler sees the kernel's stores cannot change it.
  void run_phased(const Body& b, HostGroup& group, std::size_t g, char* scratch) const {
    const auto run_group = [&](std::size_t) {
      const Body local = b;
      local.run_group(g, scratch, GroupHandle{&group});
    };
    group.run_phased(b.local_range.size(), g, *status, HostGroup::Call(run_group));
  }

  /// Groups first … last-1 of a flat (nd-range) kernel. Two groups may be in flight at
  /// once on fibers (host/detail/group.hpp: one group's last phase overlaps the next one's
  /// first), so there are two copies of the kernel, taken by group parity, each bound to
  /// local memory of its own once a group has ended on fibers (until then both share one
  /// buffer: a barrier-free kernel, or one the work-group loops run, never overlaps and
  /// needs no second); the work-item calls, which contexts of the earlier group may still
  /// be inside, live as long as the chunk.
  template <class... Acc>
  void run_flat(HostGroup& group, std::size_t first, std::size_t last, Acc&... partials) const {
    constexpr int N = Body::dimensions;
    // (layout.total was checked against the space's local memory limit, below 2^31 bytes
    // on host backends: doubling it cannot overflow.)
    const std::size_t local_bytes = round_up(body.layout.total, scratch_alignment);
    char* scratch[2];
    Body bodies[2] = {body, body};
    const auto bind_local_memory = [&](std::size_t buffers) {
      char* const memory = group.local_memory(buffers * local_bytes);
      scratch[0] = memory;
      scratch[1] = memory + (buffers - 1) * local_bytes;
      bodies[0].bind_captured(captured, scratch[0]);
      bodies[1].bind_captured(captured, scratch[1]);
    };
    // Groups may overlap: two buffers bound (at once where the thread's buffer, grown by
    // an earlier chunk, holds two).
    bool overlapping = group.local_memory_bytes() >= 2 * local_bytes;
    bind_local_memory(overlapping ? 2 : 1);
    std::size_t group_ids[2][N];  // the N-d ids of the groups in flight, split once per group
    const GroupHandle handle{&group};
    // Work-item 0 and every context run this one compiled copy of the kernel, for the
    // group the engine says the work-item is in.
    const auto run_item = [&](std::size_t local_linear) {
      const std::size_t parity = group.group_linear_id() & 1;
      const Body& b = bodies[parity];
      std::size_t local_id[N];
      delinearize(local_linear, b.local_range.extent, local_id);
      const Group<N> g(group_ids[parity], b.group_range.extent, b.local_range.extent, local_linear, handle);
      b.call(NdItem<N>(g, local_id), scratch[parity], partials..., typename Body::arg_indices{});
    };
    const auto run_rest = [&](std::size_t first_item) {
      // A plain loop. It runs its own copy of the kernel: the bodies are reachable from the
      // thread's HostGroup (through run_item), so the compiler must assume the kernel's
      // stores may change them, and would reload its arguments per work-item and not
      // vectorise. An escaping exception (or a divergent barrier, which throws in this
      // part of a group) names its work-item by the loop's id.
      const std::size_t parity = group.group_linear_id() & 1;
      const Body rest = bodies[parity];
      char* const group_scratch = scratch[parity];
      std::size_t group_id[N];  // a copy on this stack, as the kernel: kept in registers through the loop
      for (int d = 0; d < N; ++d) group_id[d] = group_ids[parity][d];
      for_each_id_in(rest.local_range.extent, first_item, rest.local_range.size(),
                     [&](const std::size_t(&local_id)[N], std::size_t local_linear) {
                       try {
                         const Group<N> g(group_id, rest.group_range.extent, rest.local_range.extent, local_linear,
                                          handle);
                         rest.call(NdItem<N>(g, local_id), group_scratch, partials..., typename Body::arg_indices{});
                       } catch (...) {
                         group.fail_in_work_item(local_linear, std::current_exception());
                         throw HostGroupUnwind{};
                       }
                     });
    };
    const std::size_t count = body.local_range.size();
    for (std::size_t group_linear = first; group_linear < last; ++group_linear) {
      const bool next_group_follows = overlapping && group_linear + 1 < last;
      std::size_t(&group_id)[N] = group_ids[group_linear & 1];
      delinearize(group_linear, body.group_range.extent, group_id);
#if KAPI_WORK_GROUP_LOOPS
      // The loop form (work_group_loops.hpp): the kernel written for one work-item whose id
      // the pass makes its region loops' counter. Left alone by the pass it returns at once.
      // It reads the kernel through `b`, not a copy: a copy would be private memory, kept
      // per work-item. It runs one group at a time.
      const Body& b = bodies[group_linear & 1];
      char* const group_scratch = scratch[group_linear & 1];
      std::size_t loops_group_id[N];  // this frame's own: the pass sees that no work-item writes it
      for (int d = 0; d < N; ++d) loops_group_id[d] = group_id[d];
      const auto run_loops = [&](HostGroup* gp) {
        if (!kapi_host_loops_available(gp)) return;
        const std::size_t local_linear = kapi_host_work_item(gp);
        std::size_t local_id[N];
        // Ids along the levels of the local shape: the pass's loops over them (1-d: the
        // linear id is the id, one loop).
        if constexpr (N == 1)
          local_id[0] = local_linear;
        else
          for (int d = 0; d < N; ++d) local_id[d] = kapi_host_local_id(gp, unsigned(3 - N + d));
        const Group<N> g(loops_group_id, b.group_range.extent, b.local_range.extent, local_linear, handle);
        b.call(NdItem<N>(g, local_id), group_scratch, partials..., typename Body::arg_indices{});
      };
      HostGroup::LocalShape shape{{1, 1, 1}};
      for (int d = 0; d < N; ++d) shape.extent[3 - N + d] = b.local_range.extent[d];
      group.run(count, group_linear, *status, HostGroup::Call(run_item), HostGroup::Call(run_rest),
                HostGroup::LoopsCall(run_loops), shape, next_group_follows);
#else
      group.run(count, group_linear, *status, HostGroup::Call(run_item), HostGroup::Call(run_rest), next_group_follows);
#endif
      // No group is in flight here (none was asked to overlap): the buffer may move.
      if (!overlapping && group_linear + 1 < last && group.last_phase_could_overlap()) {
        overlapping = true;
        bind_local_memory(2);
      }
    }
  }
};

/// Nd-range kernels with reductions.
template <class Body>
struct HostGroupsReduceFunctor {
  HostGroupsFunctor<Body, false> groups;
  KAPI_IMPL_REDUCTION_HOOKS(typename Body::partials_type, groups.body.args)

  void operator()(std::int64_t chunk, value_type& update) const {
    value_type partials = update;
    groups.run(chunk, partials);
    update = partials;
  }
};

// (HostChunks and host_parallel_for: host/detail/dispatch.hpp.)

template <class ExecSpace>
struct Launcher<ExecSpace, true> {
  template <class Kernel, int N, class... Args>
  static std::shared_ptr<LaunchStatus> run(const ExecSpace& space, const RangePlan<Kernel, N, Args...>& plan) {
    auto status = std::make_shared<LaunchStatus>();
    const std::size_t per_chunk = host_items_per_chunk(plan.items, static_cast<std::size_t>(space.concurrency()));
    const auto turn = host_dispatch_turn<ExecSpace>();
    const auto chunks = static_cast<std::int64_t>(ceil_div(plan.items, per_chunk));
    const HostRangeFunctor<decltype(plan.body)> functor{plan.body, plan.items, per_chunk, status.get()};
    if constexpr (RangePlan<Kernel, N, Args...>::reduces)
      Kokkos::parallel_reduce(plan.label,
                              Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, chunks),
                              HostRangeReduceFunctor<decltype(plan.body)>{functor});
    else
      host_parallel_for(space, plan.label, chunks, HostChunks(functor));
    return status;
  }

  template <class Kernel, int N, bool Phased, class... Args>
  static std::shared_ptr<LaunchStatus> run(const ExecSpace& space,
                                           const NdRangePlan<Kernel, N, Phased, Args...>& plan) {
    auto status = std::make_shared<LaunchStatus>();
    const std::size_t per_chunk =
        host_groups_per_chunk(plan.groups, plan.group_size, static_cast<std::size_t>(space.concurrency()));
    const auto turn = host_dispatch_turn<ExecSpace>();
    const auto chunks = static_cast<std::int64_t>(ceil_div(plan.groups, per_chunk));
    const HostGroupsFunctor<decltype(plan.body), Phased> functor{plan.body, plan.groups, per_chunk, status.get(),
                                                                 plan.captured};
    if constexpr (NdRangePlan<Kernel, N, Phased, Args...>::reduces)
      Kokkos::parallel_reduce(plan.label,
                              Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, chunks),
                              HostGroupsReduceFunctor<decltype(plan.body)>{functor});
    else
      host_parallel_for(space, plan.label, chunks, HostChunks(functor));
    return status;
  }
};

}  // namespace kapi::detail
