// SPDX-License-Identifier: Apache-2.0
#pragma once
// init3d: the kernel of RAJA's kernelintro-execpols tutorial, a(i, j, k) = c * i * j * k
// over an ni×nj×nk grid, run under any loop-nest policy of kapi/loop_nest.hpp.
//
//   init3d::Array<Kokkos::HostSpace> a("a", 100, 100, 100);
//   init3d::run("tiles-32x8x1", Kokkos::DefaultExecutionSpace(), a, 0.0001);
//   init3d::run(Kokkos::OpenMP(), kapi::nest::Collapsed{}, a, 0.0001);   // a policy object
//
// Policies: init3d::policy_table at the end of this file, the framework's built-in
// policies under their names (the program's --policy list and --help and the
// benchmark's cases are read from it); any other name kapi::nest::parse_policy reads
// ("tiles-16x16x1") runs too.
//
// The array is LayoutRight, so k (the innermost loop) is contiguous in memory. The
// RAJA tutorial's array is column-major and its i is the contiguous index: its
// "outer k loop" is our outer i loop, and its 32×8×1 tiles put the 32 along our k.
#include <cmath>
#include <string>
#include <vector>

#include <kapi/loop_nest.hpp>
#include <kapi_apps/variant_table.hpp>

namespace init3d {

template <class MemorySpace>
using Array = Kokkos::View<double***, Kokkos::LayoutRight, MemorySpace>;

/// The loop body: one point of the grid.
template <class View>
struct InitBody {
  View a;
  double c;
  KOKKOS_INLINE_FUNCTION void operator()(kapi::nest::index_type i, kapi::nest::index_type j,
                                         kapi::nest::index_type k) const {
    a(i, j, k) = c * double(i) * double(j) * double(k);
  }
};

/// The value the C-style triple loop gives at (i, j, k): what every policy must write.
inline double expected(double c, std::size_t i, std::size_t j, std::size_t k) {
  return c * double(i) * double(j) * double(k);
}

/// Whether a point holds the expected value: equal, or both NaN (a finite c whose
/// product overflows gives inf * 0 = NaN at j = 0 or k = 0, in the kernel as in the
/// reference; NaN != NaN would call that right result wrong).
inline bool same(double got, double want) { return got == want || (std::isnan(got) && std::isnan(want)); }

/// Fills `a` under `policy` (a policy object, a kapi::nest::AnyPolicy, or a name) and
/// returns when done.
template <class ExecSpace, class Policy>
void run(const ExecSpace& space, const Policy& policy, const Array<typename ExecSpace::memory_space>& a, double c) {
  using View = Array<typename ExecSpace::memory_space>;
  kapi::loop_nest(space, policy, kapi::Range<3>(a.extent(0), a.extent(1), a.extent(2)), InitBody<View>{a, c});
}

/// Every built-in policy (kapi::nest::policy_names(), in that order) with its object.
inline constexpr kapi_apps::VariantTable policy_table{
    "init3d",
    kapi_apps::variant("sequential", "RangePolicy(0, 1): the whole nest on one thread", kapi_apps::Kind::kapi,
                       kapi::nest::Sequential{}),
    kapi_apps::variant("parallel-outer",
                       "RangePolicy over i, the j and k loops inside (a host policy: a GPU runs only ni threads)",
                       kapi_apps::Kind::kapi, kapi::nest::ParallelOuter{}),
    kapi_apps::variant("collapsed", "MDRangePolicy<Rank<3, Right, Right>>, tiles host {1, 4, nk}, device {1, 8, 32}",
                       kapi_apps::Kind::kapi, kapi::nest::Collapsed{}),
    kapi_apps::variant("blocks-3d",
                       "block-stride loops: device TeamPolicy blocks of 1x8x32 threads over at most 64x64 blocks "
                       "in i and j; host RangePolicy over blocks walking whole k rows",
                       kapi_apps::Kind::kapi, kapi::nest::BlockStride{}),
    kapi_apps::variant(
        "tiles-32x8x1",
        "one work-group (CUDA) or team per 32x8x1 tile, one thread per point (host: RangePolicy over tiles)",
        kapi_apps::Kind::kapi, kapi::nest::Tiles{}),
    kapi_apps::variant("hierarchical", "TeamPolicy over i, TeamThreadRange over j, ThreadVectorRange over k",
                       kapi_apps::Kind::kapi, kapi::nest::Hierarchical{}),
    kapi_apps::variant("kapi-range", "kapi::call_kernel with Range<3>", kapi_apps::Kind::kapi,
                       kapi::nest::RangeKernel{}),
    kapi_apps::variant("kapi-nd-range",
                       "kapi::call_kernel with NdRange<3>, local range device {1, 8, 32}, host {1, 1, a row}; "
                       "global range padded",
                       kapi_apps::Kind::kapi, kapi::nest::NdRangeKernel{}),
};

/// The built-in policy names, in the order the program runs them.
inline std::vector<std::string> policies() { return policy_table.names(); }

/// The interface the CLI, tests and benchmarks share: policy by name (a built-in one, or
/// any name kapi::nest::parse_policy reads, e.g. "tiles-16x16x1").
template <class ExecSpace>
void run(const std::string& policy, const ExecSpace& space, const Array<typename ExecSpace::memory_space>& a,
         double c) {
  if (!policy_table.visit(policy, [&](const auto& p) { run(space, p.run, a, c); })) run(space, policy, a, c);
}

}  // namespace init3d
