// SPDX-License-Identifier: Apache-2.0
#pragma once
// kapi::mpi::CartesianGrid<N>: the ranks of a communicator as an N-d process grid
// (MPI_Cart_create), each rank's coordinates and neighbours, the communicators along
// one dimension (rows and columns of a 2-d grid: MPI_Cart_sub), and the block of a
// global extent each coordinate owns (kapi::mpi::block).
#include <mpi.h>

#include <array>
#include <cstddef>
#include <string>

#include "communicator.hpp"
#include "errors.hpp"

namespace kapi::mpi {

/// The part [begin, begin + size) of n elements that part `index` of `parts` owns: the
/// first n % parts parts get one element more (so any n works, divisible or not).
struct Block {
  std::size_t begin = 0, size = 0;
};
inline Block block(std::size_t n, int parts, int index) {
  if (parts <= 0 || index < 0 || index >= parts)
    throw mpi_error(detail::world_rank(), "kapi::mpi::block", MPI_SUCCESS,
                    "part " + std::to_string(index) + " of " + std::to_string(parts) + " does not exist");
  const std::size_t p = std::size_t(parts), i = std::size_t(index), base = n / p, extra = n % p;
  return {i * base + (i < extra ? i : extra), base + (i < extra ? 1 : 0)};
}

template <int N>
class CartesianGrid {
  static_assert(N >= 1 && N <= 3, "kapi::mpi::CartesianGrid: 1, 2 or 3 dimensions");

 public:
  /// A grid over all of `comm`'s ranks. A 0 in `dims` lets MPI_Dims_create choose that
  /// extent (as balanced as it can); the product of the extents must be comm.size().
  /// No reordering of ranks: rank r of `comm` is rank r of the grid.
  explicit CartesianGrid(const Communicator& comm, std::array<int, N> dims = {}, std::array<bool, N> periodic = {}) {
    long long fixed = 1;
    for (int d = 0; d < N; ++d) {
      if (dims[d] < 0)
        throw grid_error(comm, "extent " + std::to_string(dims[d]) + " of dimension " + std::to_string(d));
      // Each factor and the running product stay at most comm.size() < 2^31: no overflow.
      if (dims[d] > 0) fixed *= dims[d];
      if (fixed > comm.size())
        throw grid_error(comm, "the fixed extents' product " + std::to_string(fixed) + " exceeds the " +
                                   std::to_string(comm.size()) + " ranks");
    }
    if (comm.size() % fixed != 0)
      throw grid_error(comm, "the fixed extents' product " + std::to_string(fixed) + " does not divide the " +
                                 std::to_string(comm.size()) + " ranks");
    KAPI_MPI_CHECK(MPI_Dims_create, comm.size(), N, dims.data());
    std::array<int, N> periods{};
    for (int d = 0; d < N; ++d) periods[d] = periodic[d] ? 1 : 0;
    MPI_Comm cart = MPI_COMM_NULL;
    KAPI_MPI_CHECK(MPI_Cart_create, comm.get(), N, dims.data(), periods.data(), 0, &cart);
    comm_ = Communicator::adopt_handle(cart);
    dims_ = dims;
    KAPI_MPI_CHECK(MPI_Cart_coords, cart, comm_.rank(), N, coords_.data());
  }

  const Communicator& comm() const { return comm_; }
  const std::array<int, N>& dims() const { return dims_; }
  const std::array<int, N>& coords() const { return coords_; }

  /// The neighbours at distance 1 along `dim`: {lower, upper}, MPI_PROC_NULL at a
  /// non-periodic edge (a transfer with MPI_PROC_NULL does nothing).
  std::array<int, 2> neighbours(int dim) const {
    check_dim(dim);
    std::array<int, 2> n{};
    KAPI_MPI_CHECK(MPI_Cart_shift, comm_.get(), dim, 1, &n[0], &n[1]);
    return n;
  }

  /// The ranks that share every coordinate but `dim`'s, ordered by their coordinate
  /// along `dim` (on a 2-d grid, along(1) is this rank's row, along(0) its column).
  Communicator along(int dim) const {
    check_dim(dim);
    std::array<int, N> keep{};
    keep[dim] = 1;
    MPI_Comm sub = MPI_COMM_NULL;
    KAPI_MPI_CHECK(MPI_Cart_sub, comm_.get(), keep.data(), &sub);
    return Communicator::adopt_handle(sub);
  }

  /// This rank's block of a global extent n along `dim`.
  Block block_of(int dim, std::size_t n) const {
    check_dim(dim);
    return block(n, dims_[dim], coords_[dim]);
  }

 private:
  static mpi_error grid_error(const Communicator& comm, const std::string& what) {
    return mpi_error(comm.rank(), "kapi::mpi::CartesianGrid", MPI_SUCCESS, what);
  }
  void check_dim(int dim) const {
    if (dim < 0 || dim >= N)
      throw mpi_error(comm_.rank(), "kapi::mpi::CartesianGrid", MPI_SUCCESS,
                      "dimension " + std::to_string(dim) + " of a " + std::to_string(N) + "-d grid");
  }
  Communicator comm_ = Communicator::adopt_handle(MPI_COMM_NULL);
  std::array<int, N> dims_{}, coords_{};
};

}  // namespace kapi::mpi
