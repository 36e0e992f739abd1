// SPDX-License-Identifier: Apache-2.0
#pragma once
// heat3d: Jacobi steps of the heat equation with a 7-point stencil on a 3-d grid with a
// fixed boundary layer — the classic MPI + Kokkos mini-app; kapi-mpi heat3d runs it on a
// 3-d decomposition with halo exchange (apps/mpi), this is one block of it. The interface
// the program, the tests, the benchmark and the distributed app share:
//
//   heat3d::Grid<double, Mem> u("u", nx + 2, ny + 2, nz + 2), v(...);   // same boundary layer
//   heat3d::step("nd-range", space, u, v, alpha);      // v's interior = one step from u
//   auto s = heat3d::start_step("nd-range", space, u, v, alpha); ...; s.wait();  // overlapped
//   auto& result = heat3d::run("nd-range", space, u, v, alpha, steps);   // u or v
//
// Variants: heat3d::variant_table at the end of this file (name, summary, kind, code).
// The kernels: range.hpp, nd_range.hpp (local-memory block), phased.hpp (its phased twin),
// nd_range_planes.hpp (local-memory planes, marching along x), and the raw Kokkos anchor
// below; all share stencil.hpp's arithmetic.
// Accuracy: every variant computes the same expression in the same order; compilers
// may fuse multiply-adds differently in different kernels and on the host, so the check
// against the host reference (reference.hpp) allows 8 eps per step of the largest
// value. The distributed app compares its result with the same variant's single-rank
// result bit for bit.
#include <optional>
#include <string>
#include <vector>

#include <kapi_apps/variant_table.hpp>

#include "nd_range.hpp"
#include "nd_range_planes.hpp"
#include "phased.hpp"
#include "range.hpp"
#include "stencil.hpp"

namespace heat3d {

/// The raw Kokkos anchor: MDRangePolicy over the interior, the stencil read from global memory.
template <class In, class Out, class T>
struct StencilMDRange {
  In in;
  Out out;
  T alpha;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t j, std::int64_t k) const {
    out(i, j, k) = update(in(i, j, k), in(i - 1, j, k), in(i + 1, j, k), in(i, j - 1, k), in(i, j + 1, k),
                          in(i, j, k - 1), in(i, j, k + 1), alpha);
  }
};

struct RunRange {
  template <class ExecSpace, class In, class Out, class T>
  kapi::KernelEvent<ExecSpace> operator()(const ExecSpace& space, const In& in, const Out& out, T alpha) const {
    return step_range(space, in, out, alpha);
  }
};
struct RunNdRange {
  template <class ExecSpace, class In, class Out, class T>
  kapi::KernelEvent<ExecSpace> operator()(const ExecSpace& space, const In& in, const Out& out, T alpha) const {
    return step_nd_range(space, in, out, alpha);
  }
};
struct RunNdRangePlanes {
  template <class ExecSpace, class In, class Out, class T>
  kapi::KernelEvent<ExecSpace> operator()(const ExecSpace& space, const In& in, const Out& out, T alpha) const {
    return step_nd_range_planes(space, in, out, alpha);
  }
};
struct RunPhased {
  template <class ExecSpace, class In, class Out, class T>
  kapi::KernelEvent<ExecSpace> operator()(const ExecSpace& space, const In& in, const Out& out, T alpha) const {
    return step_phased(space, in, out, alpha);
  }
};
struct RunKokkosMDRange {
  template <class ExecSpace, class In, class Out, class T>
  ExecSpace operator()(const ExecSpace& space, const In& in, const Out& out, T alpha) const {
    using Policy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<3, Kokkos::Iterate::Right, Kokkos::Iterate::Right>,
                                         Kokkos::IndexType<std::int64_t>>;
    const Policy p(space, {1, 1, 1},
                   {std::int64_t(in.extent(0)) - 1, std::int64_t(in.extent(1)) - 1, std::int64_t(in.extent(2)) - 1});
    Kokkos::parallel_for("heat3d::kokkos-mdrange", p, StencilMDRange<In, Out, T>{in, out, alpha});
    return space;  // a Kokkos launch: the space's fence completes it
  }
};

inline constexpr kapi_apps::VariantTable variant_table{
    "heat3d",
    kapi_apps::variant("nd-range",
                       "nd-range kernel: each work-group stages its block in local memory, each work-item "
                       "updates a column of it along x (its x neighbours in registers, y from the block, the "
                       "halo and z from global memory)",
                       kapi_apps::Kind::kapi, RunNdRange{}),
    kapi_apps::variant("phased",
                       "the nd-range kernel's phased twin: load the block and its x halo, then update it "
                       "plane by plane (one phase each)",
                       kapi_apps::Kind::kapi, RunPhased{}),
    kapi_apps::variant("nd-range-planes",
                       "nd-range kernel marching along x: each work-group walks a column of planes, the planes "
                       "below and above in registers, the current one (with a y and z halo) in local memory, "
                       "one barrier per plane",
                       kapi_apps::Kind::kapi, RunNdRangePlanes{}),
    kapi_apps::variant("range", "range kernel over the interior, the neighbours read from global memory",
                       kapi_apps::Kind::kapi, RunRange{}),
    kapi_apps::variant("kokkos-mdrange",
                       "anchor: Kokkos::MDRangePolicy<Rank<3>> over the interior with the range kernel's body",
                       kapi_apps::Kind::raw_kokkos, RunKokkosMDRange{}),
};

inline std::vector<std::string> variants() { return variant_table.names(); }
inline void check_variant(const std::string& variant) { variant_table.check(variant); }

/// A step in flight (start_step): wait() blocks until it is done and throws
/// kapi::launch_error if a kapi kernel broke the model.
template <class ExecSpace>
class StepInFlight {
 public:
  explicit StepInFlight(kapi::KernelEvent<ExecSpace> event)
      : space_(event.execution_space()), event_(std::move(event)) {}
  explicit StepInFlight(ExecSpace space) : space_(std::move(space)) {}
  void wait() const {
    if (event_)
      event_->wait();  // fences the space and reports the launch
    else
      space_.fence();
  }

 private:
  ExecSpace space_;
  std::optional<kapi::KernelEvent<ExecSpace>> event_;
};

/// Starts one step, out's interior from in by `variant`, and returns without waiting (work
/// on the host, such as MPI progress, overlaps it on a GPU).
template <class ExecSpace, class In, class Out, class T>
StepInFlight<ExecSpace> start_step(const std::string& variant, const ExecSpace& space, const In& in, const Out& out,
                                   T alpha) {
  check_grids(in, out);
  std::optional<StepInFlight<ExecSpace>> started;
  if (!variant_table.visit(variant, [&](const auto& v) { started.emplace(v.run(space, in, out, alpha)); }))
    check_variant(variant);
  return *started;
}

/// One step: out's interior from in by `variant`; returns when done.
template <class ExecSpace, class In, class Out, class T>
void step(const std::string& variant, const ExecSpace& space, const In& in, const Out& out, T alpha) {
  start_step(variant, space, in, out, alpha).wait();
}

/// `steps` steps from u, alternating between u and v; returns the grid holding the result.
template <class ExecSpace, class Grid, class T>
const Grid& run(const std::string& variant, const ExecSpace& space, const Grid& u, const Grid& v, T alpha, int steps) {
  for (int s = 0; s < steps; ++s) step(variant, space, s % 2 ? v : u, s % 2 ? u : v, alpha);
  return steps % 2 ? v : u;
}

}  // namespace heat3d
