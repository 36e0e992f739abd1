// SPDX-License-Identifier: Apache-2.0
#pragma once
// Stand-in for Kokkos (tests/kokkos_view_probe): a default-constructed View that claims an
// allocation, as GCC 12's miscompiled mdspan-based View does.
namespace Kokkos {
struct HostSpace {};
template <class T, class Space>
struct View {
  int use_count() const { return 1; }
  T data() const { return nullptr; }
};
}  // namespace Kokkos
