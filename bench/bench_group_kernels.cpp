// SPDX-License-Identifier: Apache-2.0
// bench_group_kernels: work-group kernels as SYCL benchmark suites write them, each in
// three forms over the same 2^20 doubles, so that what a form costs shows against the
// others in one run:
//   raw-kokkos  team       a Kokkos TeamPolicy team per work-group, the group's result
//                          by a team reduction (what a Kokkos user writes)
//   kapi        nd-range   the SYCL kernel as written: one work-item per call, local
//                          memory, group_barrier between the tree's steps
//   kapi        phased     the same algorithm in kapi's phased form: the work-item loops
//                          are phases, the barriers implied between them
// The kernel is the benchmark's type (the elements are doubles); size "items": work-items
// per group:
//   tree        local-memory tree reduction, groups of 256: each group's sum (8 barriers)
//   segmented   segmented reduction in place in global memory, groups of 256: each
//               segment's maximum lands in its first element (8 barriers); max, not a
//               sum, so that the timed runs, which start from the previous run's array,
//               keep finite values
//   dot         scalar product, groups of 1024: each group's share of a . b through
//               local memory (10 barriers)
// GB/s: bytes read from the inputs per second; pct_of_raw_kokkos = team form / this form.
// Check: every group's result, exact (the inputs are small multiples of 1/8).
// On host backends the nd-range rows also count which engine ran their groups (README,
// "How work-groups run"): loops=1 where the Clang pass made the kernel loops over its
// work-items, fibers=1 where the groups ran on contexts (KAPI_WORK_GROUPS chooses).
#include <kapi/barrier.hpp>
#include <kapi/hierarchical.hpp>
#include <kapi/item.hpp>
#include <kapi/launch.hpp>
#include <kapi/local_accessor.hpp>
#include <kapi/math.hpp>
#include <kapi/phased.hpp>
#include <kapi/range.hpp>
#include <kapi/work_group.hpp>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/checks.hpp"
#include "common/harness.hpp"

namespace {

using namespace kapi_bench;
using Vector = Kokkos::View<double*, MemSpace>;
using Team = Kokkos::TeamPolicy<Space>;
using Member = Team::member_type;

constexpr std::size_t n = std::size_t(1) << 20;

KOKKOS_INLINE_FUNCTION double input_a(std::size_t i) { return double(i % 7) * 0.25; }
KOKKOS_INLINE_FUNCTION double input_b(std::size_t i) { return double(i % 5) * 0.5; }

// ---- tree reduction through local memory
/// The group's values in tile[0, size) summed into tile[0] as SYCL suites write it:
/// halve the active work-items, barrier, add.
KOKKOS_INLINE_FUNCTION void tree_nd_range(const kapi::NdItem<1>& it, const kapi::LocalAccessor<double>& tile) {
  const std::size_t l = it.get_local_id(0);
  for (std::size_t s = it.get_local_range()[0] / 2; s > 0; s /= 2) {
    kapi::group_barrier(it.get_group());
    if (l < s) tile[l] += tile[l + s];
  }
}

/// The same steps as phases.
KOKKOS_INLINE_FUNCTION void tree_phased(const kapi::WorkGroup<1>& wg, const kapi::LocalAccessor<double>& tile) {
  for (std::size_t s = wg.get_local_range(0) / 2; s > 0; s /= 2)
    kapi::for_each_work_item(wg, [&](const kapi::NdItem<1>& it) {
      const std::size_t l = it.get_local_id(0);
      if (l < s) tile[l] += tile[l + s];
    });
}

struct TreeNdRange {
  template <class X, class P>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it, const X& x, const P& partial,
                                         const kapi::LocalAccessor<double>& tile) const {
    const std::size_t l = it.get_local_id(0);
    tile[l] = x(it.get_global_id(0));
    tree_nd_range(it, tile);
    if (l == 0) partial(it.get_group(0)) = tile[0];
  }
};

struct TreePhased {
  template <class X, class P>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::WorkGroup<1>& wg, const X& x, const P& partial,
                                         const kapi::LocalAccessor<double>& tile) const {
    kapi::for_each_work_item(wg, [&](const kapi::NdItem<1>& it) { tile[it.get_local_id(0)] = x(it.get_global_id(0)); });
    tree_phased(wg, tile);
    kapi::single_work_item(wg, [&] { partial(wg.get_group_id(0)) = tile[0]; });
  }
};

// ---- segmented reduction in place (maximum)
struct SegmentedNdRange {
  template <class X>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it, const X& x) const {
    const std::size_t l = it.get_local_id(0), size = it.get_local_range()[0], first = it.get_global_id(0) - l;
    for (std::size_t s = 1; s < size; s *= 2) {
      if (l % (2 * s) == 0 && l + s < size) x(first + l) = kapi::fmax(x(first + l), x(first + l + s));
      kapi::group_barrier(it.get_group());
    }
  }
};

struct SegmentedPhased {
  template <class X>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::WorkGroup<1>& wg, const X& x) const {
    const std::size_t size = wg.get_local_range(0);
    for (std::size_t s = 1; s < size; s *= 2)
      kapi::for_each_work_item(wg, [&](const kapi::NdItem<1>& it) {
        const std::size_t l = it.get_local_id(0), first = it.get_global_id(0) - l;
        if (l % (2 * s) == 0 && l + s < size) x(first + l) = kapi::fmax(x(first + l), x(first + l + s));
      });
  }
};

// ---- scalar product through local memory (the same tree)
struct DotNdRange {
  template <class A, class P>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it, const A& a, const A& b, const P& partial,
                                         const kapi::LocalAccessor<double>& tile) const {
    const std::size_t l = it.get_local_id(0), i = it.get_global_id(0);
    tile[l] = a(i) * b(i);
    tree_nd_range(it, tile);
    if (l == 0) partial(it.get_group(0)) = tile[0];
  }
};

struct DotPhased {
  template <class A, class P>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::WorkGroup<1>& wg, const A& a, const A& b, const P& partial,
                                         const kapi::LocalAccessor<double>& tile) const {
    kapi::for_each_work_item(wg, [&](const kapi::NdItem<1>& it) {
      const std::size_t i = it.get_global_id(0);
      tile[it.get_local_id(0)] = a(i) * b(i);
    });
    tree_phased(wg, tile);
    kapi::single_work_item(wg, [&] { partial(wg.get_group_id(0)) = tile[0]; });
  }
};

// ---- the Kokkos twins: one team per group, a team reduction
struct TeamSum {
  Vector a, b, partial;  // b empty: the sum of a's elements
  int items;
  KOKKOS_INLINE_FUNCTION void operator()(const Member& m) const {
    const std::size_t first = std::size_t(m.league_rank()) * std::size_t(items);
    double v = 0;
    if (b.extent(0))
      Kokkos::parallel_reduce(
          Kokkos::TeamThreadRange(m, items),
          [&](int k, double& s) { s += a(first + std::size_t(k)) * b(first + std::size_t(k)); }, v);
    else
      Kokkos::parallel_reduce(
          Kokkos::TeamThreadRange(m, items), [&](int k, double& s) { s += a(first + std::size_t(k)); }, v);
    Kokkos::single(Kokkos::PerTeam(m), [&] { partial(m.league_rank()) = v; });
  }
};

struct TeamMax {
  Vector x;
  int items;
  KOKKOS_INLINE_FUNCTION void operator()(const Member& m) const {
    const std::size_t first = std::size_t(m.league_rank()) * std::size_t(items);
    double v = 0;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(m, items), [&](int k, double& s) { s = kapi::fmax(s, x(first + std::size_t(k))); },
        Kokkos::Max<double>(v));
    Kokkos::single(Kokkos::PerTeam(m), [&] { x(first) = v; });
  }
};

struct Data {
  Vector a, b, partial;
  Vector x;  // the segmented reduction's array (a copy of a, reduced in place)
};
using Cache = std::shared_ptr<DataCache<Data>>;

struct Fill {
  Vector a, b;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t i) const {
    a(i) = input_a(i);
    b(i) = input_b(i);
  }
};

enum class Kernel { tree, segmented, dot };
enum class Form { team, nd_range, phased };

const char* kernel_name(Kernel k) { return k == Kernel::tree ? "tree" : k == Kernel::segmented ? "segmented" : "dot"; }

/// Each group's expected result, from the inputs' formulas.
double expected(Kernel k, std::size_t group, std::size_t items) {
  double r = 0;
  for (std::size_t i = group * items; i < (group + 1) * items; ++i)
    r = k == Kernel::tree ? r + input_a(i) : k == Kernel::dot ? r + input_a(i) * input_b(i) : std::max(r, input_a(i));
  return r;
}

std::string verify(Kernel k, const Data& d, std::size_t items) {
  const std::size_t groups = n / items;
  auto partial = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.partial);
  auto x = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.x);
  for (std::size_t g = 0; g < groups; ++g) {
    const double got = k == Kernel::segmented ? x(g * items) : partial(g), want = expected(k, g, items);
    if (got != want) return mismatch(std::string(kernel_name(k)) + " of group " + std::to_string(g), want, got);
  }
  return {};
}

Case make_case(const Space& space, const Cache& data, Kernel kernel, Form form) {
  const std::size_t items = kernel == Kernel::dot ? 1024 : 256;
  Case c;
  c.app = "group_kernels";
  c.type = kernel_name(kernel);
  c.variant = form == Form::team ? "team" : form == Form::nd_range ? "nd-range" : "phased";
  c.role = form == Form::team ? Role::raw_kokkos : Role::kapi;
  c.size_name = "items";
  c.size = items;
  c.work = double(n) * sizeof(double) * (kernel == Kernel::dot ? 2 : 1);  // bytes of the inputs
  c.unit = "GB/s";
  c.time_unit = benchmark::kMicrosecond;
  // The segmented reduction works in place: every check starts from the inputs.
  c.poison = [space, data, kernel] {
    auto d = data->get(0);
    Kokkos::deep_copy(d->partial, -1.0);
    if (kernel == Kernel::segmented) Kokkos::deep_copy(space, d->x, d->a);
    space.fence();
  };
  c.verify = [data, kernel, items] { return verify(kernel, *data->get(0), items); };
  const auto engines = std::make_shared<kapi::WorkGroupEngines>();
  if (form == Form::nd_range)
    c.counters = [engines] {
      return std::vector<std::pair<std::string, double>>{{"loops", engines->loops ? 1.0 : 0.0},
                                                         {"fibers", engines->fibers ? 1.0 : 0.0}};
    };
  c.bind = [space, data, kernel, form, items, engines] {
    auto d = data->get(0);
    const kapi::NdRange<1> range{kapi::Range<1>(n), kapi::Range<1>(items)};
    const int groups = int(n / items);
    return std::function<void()>([space, d, kernel, form, range, items, groups, engines] {
      const kapi::LocalAccessor<double> tile(items);
      const auto nd_range = [&](const auto& k, const auto&... args) {  // keeps which engine ran it
        auto event = kapi::call_kernel_async(space, k, range, args...);
        event.wait();
        *engines = event.work_group_engines();
      };
      switch (kernel) {
        case Kernel::tree:
          if (form == Form::nd_range) nd_range(TreeNdRange{}, d->a, d->partial, tile);
          if (form == Form::phased) kapi::call_kernel(space, TreePhased{}, range, d->a, d->partial, tile);
          if (form == Form::team)
            Kokkos::parallel_for("group_kernels: team-tree", Team(space, groups, Kokkos::AUTO),
                                 TeamSum{d->a, Vector(), d->partial, int(items)});
          break;
        case Kernel::segmented:
          if (form == Form::nd_range) nd_range(SegmentedNdRange{}, d->x);
          if (form == Form::phased) kapi::call_kernel(space, SegmentedPhased{}, range, d->x);
          if (form == Form::team)
            Kokkos::parallel_for("group_kernels: team-segmented", Team(space, groups, Kokkos::AUTO),
                                 TeamMax{d->x, int(items)});
          break;
        case Kernel::dot:
          if (form == Form::nd_range) nd_range(DotNdRange{}, d->a, d->b, d->partial, tile);
          if (form == Form::phased) kapi::call_kernel(space, DotPhased{}, range, d->a, d->b, d->partial, tile);
          if (form == Form::team)
            Kokkos::parallel_for("group_kernels: team-dot", Team(space, groups, Kokkos::AUTO),
                                 TeamSum{d->a, d->b, d->partial, int(items)});
          break;
      }
      space.fence();
    });
  };
  return c;
}

void register_all(Harness& h) {
  const Space space = h.space();
  const Cache data = h.make_cache<Data>([space](std::size_t) {
    Data d{Vector(std::string("a"), n), Vector(std::string("b"), n), Vector(std::string("partial"), n / 256),
           Vector(std::string("x"), n)};
    Kokkos::parallel_for("group_kernels: fill", Kokkos::RangePolicy<Space>(space, 0, n), Fill{d.a, d.b});
    Kokkos::deep_copy(space, d.x, d.a);
    space.fence();
    return d;
  });
  for (Kernel k : {Kernel::tree, Kernel::segmented, Kernel::dot})
    for (Form f : {Form::team, Form::nd_range, Form::phased}) h.add(make_case(space, data, k, f));
}

}  // namespace

int main(int argc, char** argv) { return kapi_bench::run_main(argc, argv, "group_kernels", register_all); }
