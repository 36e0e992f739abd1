// SPDX-License-Identifier: Apache-2.0
#pragma once
// kapi::mpi::HaloExchange: the face halos of a 3-d block with one ghost layer on each
// side, exchanged with the six neighbours of a CartesianGrid<3> (what a 7-point stencil
// needs; no edges or corners). The block is a LayoutRight View of extents
// (nx + 2, ny + 2, nz + 2) whose interior [1, n] is this rank's part of the domain.
// Between GPUs of one node that MPI cannot reach (Transport::peer_copies), each face is
// written by a kernel straight into the neighbour's ghost plane, ordered by events
// (detail/peer_halo.hpp): the host waits for no GPU, and the ghosts are in place for the
// work queued on the space after finish() (fence the space before other work reads them).
// Otherwise each face is packed into a contiguous buffer on the execution space, sent
// (staged through pinned host memory where MPI cannot read device memory), and unpacked
// into the ghost layer, finish() returning when the ghosts are in. A ghost face at a
// non-periodic edge of the grid is left as it is (the boundary condition's).
//
//   kapi::mpi::HaloExchange<double, Mem> halo(grid, u);
//   halo.start(space);   // sends the faces
//   ...                  // work that touches neither the ghosts nor the faces sent
//   halo.finish(space);  // u's ghosts hold the neighbours' faces (for work on space)
#include <array>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <Kokkos_Core.hpp>
#include <kapi/space_traits.hpp>

#include "cartesian.hpp"
#include "detail/peer_halo.hpp"
#include "errors.hpp"
#include "transfer.hpp"

namespace kapi::mpi {

template <class T, class MemorySpace>
class HaloExchange {
 public:
  using Block = Kokkos::View<T***, Kokkos::LayoutRight, MemorySpace>;
  using Face = Kokkos::View<T**, Kokkos::LayoutRight, MemorySpace>;

  HaloExchange(const CartesianGrid<3>& grid, const Block& u, Staging staging = Staging::automatic) : u_(u) {
    for (int d = 0; d < 3; ++d) {
      if (u.extent(d) < 3)
        throw mpi_error(grid.comm().rank(), "kapi::mpi::HaloExchange", MPI_SUCCESS,
                        "the block's extent " + std::to_string(u.extent(d)) + " along dimension " + std::to_string(d) +
                            " leaves no interior inside its two ghost layers");
      neighbour_[d] = grid.neighbours(d);
      const auto e = face_extents(d);
      for (int side = 0; side < 2; ++side) {
        const std::string name = "kapi::mpi halo " + std::to_string(d) + (side ? "+" : "-");
        send_[d][side] =
            Buffer<Face>(Face(Kokkos::view_alloc(Kokkos::WithoutInitializing, name + " send"), e[0], e[1]), staging);
        recv_[d][side] =
            Buffer<Face>(Face(Kokkos::view_alloc(Kokkos::WithoutInitializing, name + " recv"), e[0], e[1]), staging);
      }
    }
    comm_ = grid.comm();
#if KAPI_MPI_HAS_PEER_TRANSFERS
    // Decided alike on every rank (the node layout, the library and KAPI_MPI_TRANSPORT).
    if (staging == Staging::automatic && transport<MemorySpace>(comm_) == Transport::peer_copies)
      puts_ = std::make_shared<detail::PeerHalo<T>>(
          comm_, u.data(), std::array<std::size_t, 3>{u.extent(0), u.extent(1), u.extent(2)}, neighbour_);
#endif
  }

  /// Sends the faces: packs them on `space` and posts every transfer, or queues the
  /// kernels that write them into the neighbours' ghosts.
  template <class ExecSpace>
  void start(const ExecSpace& space) {
    if (!requests_.empty() || started_)
      throw mpi_error(comm_.rank(), "kapi::mpi::HaloExchange::start", MPI_SUCCESS,
                      "the previous exchange is unfinished");
#if KAPI_MPI_HAS_PEER_TRANSFERS
    if (puts_) {
      if constexpr (space_traits<ExecSpace>::is_cuda) {
        puts_->start(space, [this](int d, std::size_t i) { return plane(d, i); });
        started_ = true;
        return;
      } else {
        throw mpi_error(comm_.rank(), "kapi::mpi::HaloExchange::start", MPI_SUCCESS,
                        std::string("GPU-to-GPU halos run on Kokkos::Cuda, not ") + ExecSpace::name());
      }
    }
#endif
    for (int d = 0; d < 3; ++d)
      for (int side = 0; side < 2; ++side)
        if (neighbour_[d][side] != MPI_PROC_NULL)
          Kokkos::deep_copy(space, send_[d][side].view(), plane(d, side ? u_.extent(d) - 2 : 1));
    space.fence();
    // Tag: the direction of travel; a face sent upwards arrives from the receiver's lower side.
    for (int d = 0; d < 3; ++d)
      for (int side = 0; side < 2; ++side)
        if (neighbour_[d][side] != MPI_PROC_NULL) {
          requests_.push_back(recv_[d][side].irecv(comm_, neighbour_[d][side], 2 * d + (side ? 0 : 1)));
          requests_.push_back(send_[d][side].isend(comm_, neighbour_[d][side], 2 * d + side));
        }
  }

  /// Waits for the transfers and writes the received faces into the ghost layers.
  template <class ExecSpace>
  void finish(const ExecSpace& space) {
#if KAPI_MPI_HAS_PEER_TRANSFERS
    if constexpr (space_traits<ExecSpace>::is_cuda)
      if (puts_) {
        if (!started_)
          throw mpi_error(comm_.rank(), "kapi::mpi::HaloExchange::finish", MPI_SUCCESS, "no exchange was started");
        started_ = false;
        puts_->finish(space);
        return;
      }
#endif
    wait_all(requests_);
    for (int d = 0; d < 3; ++d)
      for (int side = 0; side < 2; ++side)
        if (neighbour_[d][side] != MPI_PROC_NULL)
          Kokkos::deep_copy(space, plane(d, side ? u_.extent(d) - 1 : 0), recv_[d][side].view());
    space.fence();
  }

  template <class ExecSpace>
  void exchange(const ExecSpace& space) {
    start(space);
    finish(space);
  }

  /// Whether this rank exchanges the face on `side` (0 lower, 1 upper) of dimension `dim`:
  /// only those ghosts change, so only the points next to them wait for finish().
  bool has_neighbour(int dim, int side) const {
    if (dim < 0 || dim > 2 || side < 0 || side > 1)
      throw std::invalid_argument("kapi::mpi::HaloExchange::has_neighbour: dimension " + std::to_string(dim) +
                                  " side " + std::to_string(side) + " (expected 0-2 and 0-1)");
    return neighbour_[dim][side] != MPI_PROC_NULL;
  }

  /// Whether this rank has a neighbour to exchange with (a grid of one rank, non-periodic, has none).
  bool has_neighbours() const {
    for (int d = 0; d < 3; ++d)
      for (int side = 0; side < 2; ++side)
        if (neighbour_[d][side] != MPI_PROC_NULL) return true;
    return false;
  }

  /// Bytes this rank sends per exchange.
  std::size_t bytes_sent() const {
    std::size_t b = 0;
    for (int d = 0; d < 3; ++d)
      for (int side = 0; side < 2; ++side)
        if (neighbour_[d][side] != MPI_PROC_NULL) b += send_[d][side].size() * sizeof(T);
    return b;
  }

 private:
  std::array<std::size_t, 2> face_extents(int d) const {
    const std::size_t n0 = u_.extent(0) - 2, n1 = u_.extent(1) - 2, n2 = u_.extent(2) - 2;
    return d == 0   ? std::array<std::size_t, 2>{n1, n2}
           : d == 1 ? std::array<std::size_t, 2>{n0, n2}
                    : std::array<std::size_t, 2>{n0, n1};
  }
  /// The interior of the plane at index i along dimension d.
  auto plane(int d, std::size_t i) const {
    const auto in0 = std::make_pair(std::size_t(1), u_.extent(0) - 1);
    const auto in1 = std::make_pair(std::size_t(1), u_.extent(1) - 1);
    const auto in2 = std::make_pair(std::size_t(1), u_.extent(2) - 1);
    using Plane = Kokkos::View<T**, Kokkos::LayoutStride, MemorySpace>;
    if (d == 0) return Plane(Kokkos::subview(u_, i, in1, in2));
    if (d == 1) return Plane(Kokkos::subview(u_, in0, i, in2));
    return Plane(Kokkos::subview(u_, in0, in1, i));
  }

  Block u_;
  Communicator comm_ = Communicator::adopt_handle(MPI_COMM_NULL);
  std::array<std::array<int, 2>, 3> neighbour_{};
  std::array<std::array<Buffer<Face>, 2>, 3> send_, recv_;
  std::vector<Request> requests_;
#if KAPI_MPI_HAS_PEER_TRANSFERS
  std::shared_ptr<detail::PeerHalo<T>> puts_;  // GPU to GPU on one node
#endif
  bool started_ = false;
};

}  // namespace kapi::mpi
