#pragma once
// reduce::Workspace: the device memory the variants work in, allocated once per array
// size so that a timed call allocates nothing:
//   buffer(0): the pairwise kernel's working copy (ceil(n/2) elements; buffer(1) free),
//   reduction(): the framework's workspace of the group-based variants (partial
//                results, single-pass counter, pinned host word for the result).
#include <algorithm>
#include <cstddef>
#include <string>

#include <kapi/device_reduce.hpp>

namespace reduce {

template <class T, class ExecSpace>
class Workspace {
 public:
  using memory_space = typename ExecSpace::memory_space;
  using Buffer = Kokkos::View<T*, memory_space>;

  Workspace() = default;
  /// Allocates what every variant needs, with its default settings, for up to n elements.
  Workspace(const ExecSpace& space, std::size_t n) : space_(space), reduction_(space, n) { buffer(0, (n + 1) / 2); }

  /// Buffer `which` (0 or 1) with at least `size` elements; grows it if needed (an
  /// allocation, which a workspace reserved for the array size never makes).
  Buffer buffer(int which, std::size_t size) {
    Buffer& b = buffers_[which];
    if (b.extent(0) < size) b = Buffer(Kokkos::view_alloc(space_, std::string("reduce::workspace") + char('0' + which),
                                                          Kokkos::WithoutInitializing),
                                       std::max<std::size_t>(size, 1));
    return b;
  }
  kapi::ReduceWorkspace<T, ExecSpace>& reduction() { return reduction_; }
  const ExecSpace& space() const { return space_; }

 private:
  ExecSpace space_;
  Buffer buffers_[2];
  kapi::ReduceWorkspace<T, ExecSpace> reduction_;
};

}  // namespace reduce
