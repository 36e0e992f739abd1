#pragma once
// The reduce app's variants as the benchmark sees them (adapter to apps/reduce).
#include <functional>
#include <reduce/reduce.hpp>
#include <string>
#include <vector>

#include "common/harness.hpp"

namespace reduce_bench {

using T = float;
using Vector = Kokkos::View<T*, kapi_bench::MemSpace>;
using ConstVector = Kokkos::View<const T*, kapi_bench::MemSpace>;
using Workspace = reduce::Workspace<T, kapi_bench::Space>;

inline Workspace make_workspace(const kapi_bench::Space& space, std::size_t n) { return Workspace(space, n); }

/// The app variant that the benchmark's raw-Kokkos twin measures (the same code, one
/// implementation: the bench's raw twin, under the app's name).
inline const char* raw_twin_name() { return "kokkos-parallel-reduce"; }

struct Variant {
  std::string name;
  kapi_bench::Role role = kapi_bench::Role::kapi;
  std::function<T(const kapi_bench::Space&, const ConstVector&, Workspace&)> run;
};

/// reduce::variants() without the one the raw twin measures; library anchors that are
/// not framework code (KokkosBlas::sum) keep the role 'library'.
inline std::vector<Variant> variants() {
  std::vector<Variant> out;
  for (const auto& name : reduce::variants()) {
    if (name == raw_twin_name()) continue;
    Variant v;
    v.name = name;
    if (name.rfind("kokkos-", 0) == 0) v.role = kapi_bench::Role::library;
    v.run = [name](const kapi_bench::Space& space, const ConstVector& x, Workspace& ws) {
      return reduce::sum<T>(name, space, x, ws);
    };
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace reduce_bench
