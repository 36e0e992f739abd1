// SPDX-License-Identifier: Apache-2.0
#pragma once
// Stand-in for Kokkos (tests/kokkos_view_probe): a View as the probe expects it.
namespace Kokkos {
struct HostSpace {};
template <class T, class Space>
struct View {
  int use_count() const { return 0; }
  T data() const { return nullptr; }
};
}  // namespace Kokkos
