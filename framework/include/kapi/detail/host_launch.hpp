#pragma once
// Range and nd-range kernels on host backends (Serial, OpenMP, Threads).
// - Range kernels: Kokkos hands out chunks of rows; inside a chunk the last (contiguous)
//   dimension is a plain counted loop over the kernel, which the compiler can vectorise,
//   and the ids of the other dimensions are fixed per row (no division per work-item).
// - Nd-range kernels: one host thread runs a whole work-group (detail/host_group.hpp);
//   the group's geometry is built once per group, and the barrier-free rest of a group
//   runs row by row like a range kernel.
// Every work-item runs with the nested-launch flag set (detail/host_launch_rules.hpp), and
// an exception leaving it is caught at its boundary and reported by the launch.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <utility>

#include "../item.hpp"
#include "../work_group.hpp"
#include "host_group.hpp"
#include "host_launch_rules.hpp"
#include "kernel_args.hpp"
#include "launch_status.hpp"
#include "linearize.hpp"

namespace kapi::detail {

/// Work-items per chunk Kokkos hands to a host thread: whole rows, several chunks per
/// thread for balance, never so few items that the per-chunk cost shows.
template <int N>
std::size_t host_rows_per_chunk(const Range<N>& r, std::size_t threads) {
  const std::size_t row = r.extent[N - 1], rows = r.size() / row;
  const std::size_t per_thread = std::max<std::size_t>(1, rows / (8 * std::max<std::size_t>(1, threads)));
  const std::size_t min_rows = std::max<std::size_t>(1, 512 / row);
  return std::min(rows, std::max(per_thread, min_rows));
}

template <class Kernel, int N, class... Args>
struct HostRangeFunctor {
  Kernel kernel;
  ArgPack<Args...> args;
  Range<N> range;
  std::size_t rows_per_chunk;
  LaunchStatus* status;

  void operator()(std::int64_t chunk) const {
    const HostKernelScope in_kernel;
    const std::size_t rows = range.size() / range.extent[N - 1];
    const std::size_t first = std::size_t(chunk) * rows_per_chunk, last = std::min(rows, first + rows_per_chunk);
    for (std::size_t row = first; row < last; ++row) {
      std::size_t id[N];
      id[N - 1] = 0;
      if constexpr (N > 1) {
        std::size_t outer[N - 1], outer_extent[N - 1];
        for (int d = 0; d < N - 1; ++d) outer_extent[d] = range.extent[d];
        delinearize(row, outer_extent, outer);
        for (int d = 0; d < N - 1; ++d) id[d] = outer[d];
      }
      if (!run_row(id)) return;
    }
  }

  // Runs one row; false (the failure recorded) if a work-item threw.
  bool run_row(std::size_t (&id)[N]) const {
    const std::int64_t n = static_cast<std::int64_t>(range.extent[N - 1]);
    for (std::int64_t j = 0; j < n; ++j) {
      id[N - 1] = static_cast<std::size_t>(j);
      try {
        call(Item<N>(id, range.extent), std::index_sequence_for<Args...>{});
      } catch (...) {
        status->fail_with(std::current_exception(), "work-item " + format_extents(id) + " of the range " +
                                                        format_extents(range.extent));
        return false;
      }
    }
    return true;
  }

  template <std::size_t... A>
  void call(const Item<N>& item, std::index_sequence<A...>) const {
    kernel(item, get<A>(args)...);
  }
};

/// Calls f(local_id, local_linear) for local linear ids first … size-1, in order, row by
/// row: the last dimension's loop is plain, the other ids are fixed per row.
template <int N, class F>
void for_each_local_id_from(const std::size_t (&extent)[N], std::size_t first, const F& f) {
  const std::size_t row = extent[N - 1], total = product(extent);
  std::size_t id[N];
  for (std::size_t start = first; start < total;) {
    delinearize(start, extent, id);
    const std::size_t row_begin = start - id[N - 1];
    for (std::size_t j = id[N - 1]; j < row; ++j) {
      id[N - 1] = j;
      f(id, row_begin + j);
    }
    start = row_begin + row;
  }
}

/// A host backend: the work-group is run by one host thread (a team of one member).
template <class Body>
struct HostNdRangeFunctor {
  Body body;
  LaunchStatus* status;

  template <class TeamMember>
  void operator()(const TeamMember& team) const {
    constexpr int N = Body::dimensions;
    char* scratch = body.group_scratch(team);
    HostGroup& group = HostGroup::this_thread();
    const std::size_t group_linear = static_cast<std::size_t>(team.league_rank());
    std::size_t group_id[N];
    delinearize(group_linear, body.group_range.extent, group_id);
    const GroupHandle handle{&group};
    auto run_one = [&](const std::size_t(&local_id)[N], std::size_t local_linear) {
      const Group<N> g(group_id, body.group_range.extent, body.local_range.extent, local_linear, handle);
      body.call(NdItem<N>(g, local_id), scratch, typename Body::arg_indices{});
    };
    group.run(
        body.local_range.size(), group_linear, *status,
        [&](std::size_t local_linear) {
          std::size_t local_id[N];
          delinearize(local_linear, body.local_range.extent, local_id);
          run_one(local_id, local_linear);
        },
        [&](std::size_t first) {
          for_each_local_id_from(body.local_range.extent, first,
                                 [&](const std::size_t(&local_id)[N], std::size_t local_linear) {
                                   group.enter_work_item(local_linear);  // for the messages
                                   run_one(local_id, local_linear);
                                 });
        });
  }
};

/// A phased kernel on a host backend: one host thread runs the kernel once per group.
template <class Body>
struct HostPhasedFunctor {
  Body body;
  LaunchStatus* status;

  template <class TeamMember>
  void operator()(const TeamMember& team) const {
    char* scratch = body.group_scratch(team);
    HostGroup& group = HostGroup::this_thread();
    const std::size_t group_linear = static_cast<std::size_t>(team.league_rank());
    group.run_phased(body.local_range.size(), group_linear, *status,
                     [&] { body.run_group(group_linear, scratch, GroupHandle{&group}); });
  }
};

}  // namespace kapi::detail
