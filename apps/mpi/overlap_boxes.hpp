// SPDX-License-Identifier: Apache-2.0
#pragma once
// How kapi-mpi heat3d splits a step's interior to overlap the halo exchange: the points
// that read no exchanged ghost (the inner box, updated while the faces travel) and one
// slab per face that has a neighbour (updated once its ghosts are in). A face without a
// neighbour keeps its ghosts (the boundary condition's) and goes with the inner points, so
// a rank of a 2 x 1 x 1 grid waits for one slab, not six.
#include <array>
#include <cstddef>
#include <vector>

namespace mpi_apps {

using Box = std::array<std::array<std::size_t, 3>, 2>;  // {lo, hi}: the points lo <= p < hi

struct OverlapBoxes {
  Box inner;
  std::vector<Box> slabs;
};

/// The boxes of a block whose interior has n points per dimension at [1, n + 1);
/// has_neighbour(d, side) says whether face `side` (0 lower, 1 upper) of dimension d is
/// exchanged. Each exchanged face peels its plane off the inner box into a slab (the slabs
/// of later dimensions span what earlier ones left, so no point is in two boxes; a plane
/// that two faces share goes to the first).
template <class HasNeighbour>
OverlapBoxes overlap_boxes(const std::size_t (&n)[3], const HasNeighbour& has_neighbour) {
  OverlapBoxes b;
  b.inner = Box{{{1, 1, 1}, {n[0] + 1, n[1] + 1, n[2] + 1}}};
  Box& inner = b.inner;
  for (int d = 0; d < 3; ++d) {
    if (has_neighbour(d, 0) && inner[0][d] < inner[1][d]) {
      Box slab = inner;
      slab[1][d] = inner[0][d] + 1;
      b.slabs.push_back(slab);
      ++inner[0][d];
    }
    if (has_neighbour(d, 1) && inner[0][d] < inner[1][d]) {
      Box slab = inner;
      slab[0][d] = inner[1][d] - 1;
      b.slabs.push_back(slab);
      --inner[1][d];
    }
  }
  return b;
}

}  // namespace mpi_apps
