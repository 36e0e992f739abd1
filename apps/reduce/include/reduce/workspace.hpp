#pragma once
// reduce::Workspace: the device buffers the reductions work in, allocated once per
// array size so that a timed call allocates nothing:
//   buffer 0: the pairwise kernel's working copy (ceil(n/2)) and the first pass's
//             partial sums of the group reductions,
//   buffer 1: partial sums of partial sums,
//   counter:  the single-pass kernel's count of finished groups (0 between calls).
#include <algorithm>
#include <cstddef>
#include <string>

#include <Kokkos_Core.hpp>

namespace reduce {

template <class T, class ExecSpace>
class Workspace {
 public:
  using memory_space = typename ExecSpace::memory_space;
  using Buffer = Kokkos::View<T*, memory_space>;
  using Counter = Kokkos::View<unsigned int, memory_space>;

  Workspace() = default;
  /// Allocates what every variant needs, with its default settings, for up to n elements.
  Workspace(const ExecSpace& space, std::size_t n) : space_(space) { reserve(n); }

  void reserve(std::size_t n);  // defined in reduce.hpp, which knows every variant

  /// Buffer `which` (0 or 1) with at least `size` elements; grows it if needed (an
  /// allocation, which a workspace reserved for the array size never makes).
  Buffer buffer(int which, std::size_t size) {
    Buffer& b = buffers_[which];
    if (b.extent(0) < size) b = Buffer(Kokkos::view_alloc(space_, std::string("reduce::workspace") + char('0' + which),
                                                          Kokkos::WithoutInitializing),
                                       std::max<std::size_t>(size, 1));
    return b;
  }
  Counter counter() {
    if (!counter_.is_allocated()) counter_ = Counter(Kokkos::view_alloc(space_, "reduce::counter"));
    return counter_;
  }
  const ExecSpace& space() const { return space_; }

 private:
  ExecSpace space_;
  Buffer buffers_[2];
  Counter counter_;
};

}  // namespace reduce
