// SPDX-License-Identifier: Apache-2.0
// bench_barrier: what a work-group barrier costs per work-item, the host engine's figure
// (the host engine runs one context switch per work-item per barrier) and a device's.
//   anchor  loop          the same kernel without barriers: every round a plain loop step
//   kapi    barrier       the kernel with a group_barrier after every round
// Groups of 64, 256 and 1024 work-items (size "items"), 4 groups per host thread or 4 per
// multiprocessor-ish (256 on a device), 64 rounds each. Counter "ns/item": nanoseconds per
// work-item per round (per barrier), lower is better; pct_of_anchor = loop / barrier.
// Check: every work-item's final value against the host's.
//
// The per-group cost (type f64): one collective per group over 2^18 work-items, so that
// starting groups dominates, not barriers inside them:
//   raw-kokkos  team-reduce         a TeamPolicy team per group: parallel_reduce over a
//                                   TeamThreadRange of the group's elements, one atomic
//   kapi        reduce-over-group   an nd-range kernel: reduce_over_group, one atomic by
//                                   work-item 0
// ns/item: nanoseconds per work-item; pct_of_raw_kokkos = team-reduce / reduce-over-group.
// Check: the sum, exact (every element 0.5).
// On host backends the kapi rows also count which engine ran their groups (README, "How
// work-groups run"): loops=1 where the Clang pass made the kernel loops over its
// work-items, fibers=1 where the groups ran on contexts (KAPI_WORK_GROUPS chooses).
#include <kapi/barrier.hpp>
#include <kapi/execution_space.hpp>
#include <kapi/functional.hpp>
#include <kapi/group_algorithms.hpp>
#include <kapi/item.hpp>
#include <kapi/launch.hpp>
#include <kapi/range.hpp>
#include <kapi/sub_group_algorithms.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/checks.hpp"
#include "common/harness.hpp"

namespace {

using namespace kapi_bench;
using Out = Kokkos::View<std::uint32_t*, MemSpace>;
using Engines = std::shared_ptr<kapi::WorkGroupEngines>;

// Runs the launch and keeps which engines ran it.
template <class Event>
void wait_and_note(Event event, const Engines& engines) {
  event.wait();
  *engines = event.work_group_engines();
}
std::function<std::vector<std::pair<std::string, double>>()> engine_counters(const Engines& engines) {
  return [engines] {
    return std::vector<std::pair<std::string, double>>{{"loops", engines->loops ? 1.0 : 0.0},
                                                       {"fibers", engines->fibers ? 1.0 : 0.0}};
  };
}

constexpr int rounds = 64;

KOKKOS_INLINE_FUNCTION std::uint32_t step(std::uint32_t x) { return x * 1664525u + 1013904223u; }

template <bool Barriers>
struct Rounds {
  template <class V>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it, const V& out) const {
    std::uint32_t x = static_cast<std::uint32_t>(it.get_global_id(0));
    for (int r = 0; r < rounds; ++r) {
      x = step(x);
      if constexpr (Barriers) kapi::group_barrier(it.get_group());
    }
    out(it.get_global_id(0)) = x;
  }
};

std::size_t group_count(const Space& space) {
  return kapi::is_host_execution_space_v<Space> ? 4 * static_cast<std::size_t>(space.concurrency()) : 256;
}

struct Data {
  Out out;
};
using Cache = std::shared_ptr<DataCache<Data>>;

std::string verify(const Data& d) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.out);
  for (std::size_t i = 0; i < h.extent(0); ++i) {
    std::uint32_t x = static_cast<std::uint32_t>(i);
    for (int r = 0; r < rounds; ++r) x = step(x);
    if (h(i) != x) return mismatch("out(" + std::to_string(i) + ")", double(x), double(h(i)));
  }
  return {};
}

template <bool Barriers>
Case make_case(const Space& space, const Cache& data, std::size_t items, const std::string& variant, Role role) {
  Case c;
  c.app = "barrier";
  c.type = "u32";
  c.variant = variant;
  c.role = role;
  c.size_name = "items";
  c.size = items;
  c.work = double(items) * double(group_count(space)) * rounds;  // work-item rounds
  c.unit = "ns/item";
  c.time_unit = benchmark::kMicrosecond;
  c.poison = [data, items] { Kokkos::deep_copy(data->get(items)->out, 0u); };
  c.verify = [data, items] { return verify(*data->get(items)); };
  const Engines engines = std::make_shared<kapi::WorkGroupEngines>();
  if (Barriers) c.counters = engine_counters(engines);
  c.bind = [space, data, items, engines] {
    auto d = data->get(items);
    const kapi::NdRange<1> range(kapi::Range<1>(items * group_count(space)), kapi::Range<1>(items));
    return std::function<void()>([space, d, range, engines] {
      wait_and_note(kapi::call_kernel_async(space, Rounds<Barriers>{}, range, d->out), engines);
    });
  };
  return c;
}

// ---- one collective per group
constexpr std::size_t collective_items = std::size_t(1) << 18;
using Sum = Kokkos::View<double, MemSpace>;
using Elements = Kokkos::View<double*, MemSpace>;

struct GroupReduce {
  template <class X, class S>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it, const X& x, const S& s) const {
    const double v = kapi::reduce_over_group(it.get_group(), x(it.get_global_id(0)), kapi::plus<>());
    if (it.get_local_id(0) == 0) Kokkos::atomic_add(&s(), v);
  }
};

struct TeamReduce {
  using Member = typename Kokkos::TeamPolicy<Space>::member_type;
  Elements x;
  Sum s;
  int items;
  KOKKOS_INLINE_FUNCTION void operator()(const Member& m) const {
    const std::size_t first = std::size_t(m.league_rank()) * std::size_t(items);
    double v = 0;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(m, items), [&](int i, double& a) { a += x(first + std::size_t(i)); }, v);
    Kokkos::single(Kokkos::PerTeam(m), [&] { Kokkos::atomic_add(&s(), v); });
  }
};

struct CollectiveData {
  Elements x;
  Sum s;
};
using CollectiveCache = std::shared_ptr<DataCache<CollectiveData>>;

Case make_collective_case(const Space& space, const CollectiveCache& data, std::size_t items, bool kapi_form) {
  Case c;
  c.app = "barrier";
  c.type = "f64";
  c.variant = kapi_form ? "reduce-over-group" : "team-reduce";
  c.role = kapi_form ? Role::kapi : Role::raw_kokkos;
  c.size_name = "items";
  c.size = items;
  c.work = double(collective_items);  // work-items
  c.unit = "ns/item";
  c.time_unit = benchmark::kMicrosecond;
  c.poison = [data, items] { Kokkos::deep_copy(data->get(items)->s, -1.0); };
  c.verify = [data, items] {
    double got = 0;
    Kokkos::deep_copy(got, data->get(items)->s);
    const double want = 0.5 * double(collective_items);
    return got == want ? std::string() : mismatch("sum", want, got);
  };
  const Engines engines = std::make_shared<kapi::WorkGroupEngines>();
  if (kapi_form) c.counters = engine_counters(engines);
  c.bind = [space, data, items, kapi_form, engines] {
    auto d = data->get(items);
    return std::function<void()>([space, d, items, kapi_form, engines] {
      Kokkos::deep_copy(space, d->s, 0.0);
      if (kapi_form) {
        const kapi::NdRange<1> range{kapi::Range<1>(collective_items), kapi::Range<1>(items)};
        wait_and_note(kapi::call_kernel_async(space, GroupReduce{}, range, d->x, d->s), engines);
      } else {
        Kokkos::parallel_for("barrier: team-reduce",
                             Kokkos::TeamPolicy<Space>(space, int(collective_items / items), Kokkos::AUTO),
                             TeamReduce{d->x, d->s, int(items)});
      }
    });
  };
  return c;
}

void register_all(Harness& h) {
  benchmark::AddCustomContext("anchor", "loop: the same nd-range kernel without its barriers");
  const Space space = h.space();
  const Cache data =
      h.make_cache<Data>([space](std::size_t n) { return Data{Out(std::string("out"), n * group_count(space))}; });
  for (std::size_t items : h.sweep({64, 256, 1024})) {
    h.add(make_case<false>(space, data, items, "loop", Role::anchor));
    h.add(make_case<true>(space, data, items, "barrier", Role::kapi));
  }
  const CollectiveCache collective = h.make_cache<CollectiveData>([](std::size_t) {
    CollectiveData d{Elements(std::string("x"), collective_items), Sum(std::string("sum"))};
    Kokkos::deep_copy(d.x, 0.5);
    return d;
  });
  for (std::size_t items : h.sweep({64, 256, 1024})) {
    h.add(make_collective_case(space, collective, items, false));
    h.add(make_collective_case(space, collective, items, true));
  }
}

}  // namespace

int main(int argc, char** argv) { return kapi_bench::run_main(argc, argv, "barrier", register_all); }
