#pragma once
// reduce::Workspace: the device memory the variants work in, allocated once per array
// size so that a timed call allocates nothing:
//   pairwise_copy(): the pairwise kernel's working copy (ceil(n/2) elements),
//   reduction():     the framework's workspace of the group-based variants (partial
//                    results, single-pass counter, pinned host word for the result).
#include <algorithm>
#include <cstddef>
#include <string>

#include <kapi/reduce.hpp>

namespace reduce {

template <class T, class ExecSpace>
class Workspace {
 public:
  using memory_space = typename ExecSpace::memory_space;
  using Buffer = Kokkos::View<T*, memory_space>;

  Workspace() = default;
  /// Allocates what every variant needs, with its default settings, for up to n elements.
  Workspace(const ExecSpace& space, std::size_t n) : space_(space), reduction_(space, n) { pairwise_copy((n + 1) / 2); }

  /// The pairwise working copy with at least `size` elements; grows it if needed (an
  /// allocation, which a workspace reserved for the array size never makes).
  Buffer pairwise_copy(std::size_t size) {
    if (copy_.extent(0) < size)
      copy_ = Buffer(Kokkos::view_alloc(space_, std::string("reduce::pairwise copy"), Kokkos::WithoutInitializing),
                     std::max<std::size_t>(size, 1));
    return copy_;
  }
  kapi::ReduceWorkspace<T, ExecSpace>& reduction() { return reduction_; }
  const ExecSpace& space() const { return space_; }

 private:
  ExecSpace space_;
  Buffer copy_;
  kapi::ReduceWorkspace<T, ExecSpace> reduction_;
};

}  // namespace reduce
