// SPDX-License-Identifier: Apache-2.0
#pragma once
// reduce::Workspace: the device memory the variants work in, allocated once per array
// size so that a timed call allocates nothing:
//   pairwise_copy(): the pairwise kernel's working copy (ceil(n/2) elements),
//   reduction():     the framework's workspace of the group-based variants (partial
//                    results, single-pass counter, pinned host word for the result),
//   reduction_variable(): the reduction-variable variant's result, where the host reads
//                    it (host memory; pinned host memory on CUDA).
#include <algorithm>
#include <cstddef>
#include <string>
#include <type_traits>

#include <kapi/integer_math.hpp>
#include <kapi/reduce.hpp>

namespace reduce {

/// Memory the execution space writes and the host reads without a copy where there is
/// one (else the space's own memory).
template <class ExecSpace>
struct HostResultSpace {
  using type = std::conditional_t<Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible,
                                  Kokkos::HostSpace, typename ExecSpace::memory_space>;
};
#if defined(KOKKOS_ENABLE_CUDA)
template <>
struct HostResultSpace<Kokkos::Cuda> {
  using type = Kokkos::CudaHostPinnedSpace;
};
#endif

template <class T, class ExecSpace>
class Workspace {
 public:
  using memory_space = typename ExecSpace::memory_space;
  using Buffer = Kokkos::View<T*, memory_space>;

  Workspace() = default;
  /// Allocates what every variant needs, with its default settings, for up to n elements.
  Workspace(const ExecSpace& space, std::size_t n) : space_(space), reduction_(space, n) {
    pairwise_copy(kapi::ceil_div(n, std::size_t(2)));
  }

  /// The pairwise working copy with at least `size` elements; grows it if needed (an
  /// allocation, which a workspace reserved for the array size never makes).
  Buffer pairwise_copy(std::size_t size) {
    if (copy_.extent(0) < size)
      copy_ = Buffer(Kokkos::view_alloc(space_, std::string("reduce::pairwise copy"), Kokkos::WithoutInitializing),
                     std::max<std::size_t>(size, 1));
    return copy_;
  }
  kapi::ReduceWorkspace<T, ExecSpace>& reduction() { return reduction_; }
  using Variable = Kokkos::View<T, typename HostResultSpace<ExecSpace>::type>;
  Variable reduction_variable() {
    if (!variable_.is_allocated()) variable_ = Variable(std::string("reduce::reduction variable"));
    return variable_;
  }
  const ExecSpace& space() const { return space_; }

 private:
  ExecSpace space_;
  Buffer copy_;
  kapi::ReduceWorkspace<T, ExecSpace> reduction_;
  Variable variable_;
};

}  // namespace reduce
