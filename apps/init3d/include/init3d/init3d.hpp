#pragma once
// init3d: the kernel of RAJA's kernelintro-execpols tutorial, a(i, j, k) = c * i * j * k
// over an ni×nj×nk grid, run under any loop-nest policy of kapi/loop_nest.hpp.
//
//   init3d::Array<Kokkos::HostSpace> a("a", 100, 100, 100);
//   init3d::run("tiles-32x8x1", Kokkos::DefaultExecutionSpace(), a, 0.0001);
//   init3d::run(Kokkos::OpenMP(), kapi::nest::Collapsed{}, a, 0.0001);   // a policy object
//
// The array is LayoutRight, so k (the innermost loop) is contiguous in memory. The
// RAJA tutorial's array is column-major and its i is the contiguous index: its
// "outer k loop" is our outer i loop, and its 32×8×1 tiles put the 32 along our k.
#include <cmath>
#include <string>
#include <vector>

#include <kapi/loop_nest.hpp>

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

/// The built-in policy names (kapi::nest::policy_names()); any name that
/// kapi::nest::parse_policy accepts, e.g. "tiles-16x16x1", runs too.
inline std::vector<std::string> policies() { return kapi::nest::policy_names(); }

/// Fills `a` under `policy` (a policy object, a kapi::nest::AnyPolicy, or a name) and
/// returns when done.
template <class ExecSpace, class Policy>
void run(const ExecSpace& space, const Policy& policy, const Array<typename ExecSpace::memory_space>& a, double c) {
  using View = Array<typename ExecSpace::memory_space>;
  kapi::loop_nest(space, policy, kapi::Range<3>(a.extent(0), a.extent(1), a.extent(2)), InitBody<View>{a, c});
}

/// The interface the CLI, tests and benchmarks share: policy by name.
template <class ExecSpace>
void run(const std::string& policy, const ExecSpace& space, const Array<typename ExecSpace::memory_space>& a, double c) {
  run(space, policy, a, c);
}

}  // namespace init3d
