// SPDX-License-Identifier: Apache-2.0
#pragma once
// An app's variant table (kapi_apps/variant_table.hpp) as the benchmarks read it.
#include <kapi_apps/variant_table.hpp>

#include "harness.hpp"

namespace kapi_bench {

/// The benchmark role of an app variant of kind `kind`.
constexpr Role role_of(kapi_apps::Kind kind) {
  switch (kind) {
    case kapi_apps::Kind::anchor:
      return Role::anchor;
    case kapi_apps::Kind::raw_kokkos:
      return Role::raw_kokkos;
    case kapi_apps::Kind::library:
      return Role::library;
    default:
      return Role::kapi;
  }
}

/// Calls f(entry, role) for every variant of `table` this build has that the benchmark
/// runs as its own case: the framework variants and the libraries shown for reference.
/// The anchor and raw-Kokkos entries are not among them: the benchmark's own anchor and
/// twin cases time them, under the names table.name_of(kind) gives.
template <class Table, class F>
void for_each_measured_variant(const Table& table, F&& f) {
  table.for_each([&f](const auto& v) {
    if (v.available && (v.kind == kapi_apps::Kind::kapi || v.kind == kapi_apps::Kind::library)) f(v, role_of(v.kind));
  });
}

}  // namespace kapi_bench
