// SPDX-License-Identifier: Apache-2.0
#pragma once
// kapi::mpi::Communicator: an MPI communicator the layer owns (a duplicate, so the
// library's traffic never meets the user's), with errors returned as exceptions instead
// of aborting, the rank's place on its node, and the Kokkos device that place picks.
// Creating one is collective over its ranks (it duplicates communicators and learns which
// ranks share a node): every rank of the communicator constructs or adopts it.
#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

#include "errors.hpp"

namespace kapi::mpi {

/// The device of the rank with node-local rank `node_rank` when the node has
/// `device_count` devices: one device per rank, round robin when there are more ranks
/// than devices (oversubscribed test runs), 0 where there are none (host backends).
inline int pick_device(int node_rank, int device_count) {
  if (node_rank < 0)
    throw mpi_error(detail::world_rank(), "pick_device", MPI_SUCCESS,
                    "node rank " + std::to_string(node_rank) + " is negative");
  return device_count > 0 ? node_rank % device_count : 0;
}

class Communicator {
 public:
  /// A duplicate of `comm` (MPI_COMM_WORLD by default) that returns errors.
  explicit Communicator(MPI_Comm comm = MPI_COMM_WORLD) {
    MPI_Comm dup = MPI_COMM_NULL;
    KAPI_MPI_CHECK(MPI_Comm_dup, comm, &dup);
    adopt(dup);
  }

  /// Takes ownership of `comm` (freed when the last copy goes); MPI_COMM_NULL gives a
  /// null communicator (a rank outside a split, for one).
  static Communicator adopt_handle(MPI_Comm comm) {
    Communicator c(Adopt{});
    if (comm != MPI_COMM_NULL) c.adopt(comm);
    return c;
  }

  MPI_Comm get() const noexcept { return handle_ ? *handle_ : MPI_COMM_NULL; }
  bool is_null() const noexcept { return !handle_; }
  int rank() const noexcept { return rank_; }
  int size() const noexcept { return size_; }
  /// The rank among the ranks of this communicator on the same node, and their number.
  int node_rank() const noexcept { return node_rank_; }
  int node_size() const noexcept { return node_size_; }
  /// Whether `rank` runs on this rank's node.
  bool same_node(int rank) const {
    return rank >= 0 && rank < size_ && node_of_[std::size_t(rank)] == node_of_[std::size_t(rank_)];
  }
  /// Whether every rank of the communicator runs on one node.
  bool one_node() const noexcept { return node_size_ == size_; }

  /// The communicators the layer's own messages travel on (the peer transfers' control
  /// messages, transfer.hpp): duplicates, so they never match the user's messages.
  MPI_Comm control_p2p() const noexcept { return control_ ? control_->p2p : MPI_COMM_NULL; }
  MPI_Comm control_broadcast() const noexcept { return control_ ? control_->broadcast : MPI_COMM_NULL; }

  /// MPI_Comm_split: the ranks with the same colour, ordered by key.
  Communicator split(int color, int key) const {
    MPI_Comm out = MPI_COMM_NULL;
    KAPI_MPI_CHECK(MPI_Comm_split, get(), color, key, &out);
    return adopt_handle(out);
  }

  void barrier() const { KAPI_MPI_CHECK(MPI_Barrier, get()); }

 private:
  struct Adopt {};
  explicit Communicator(Adopt) {}
  struct Free {
    void operator()(MPI_Comm* c) const {
      int finalized = 0;
      MPI_Finalized(&finalized);
      if (!finalized && *c != MPI_COMM_NULL) MPI_Comm_free(c);
      delete c;
    }
  };
  struct Control {
    MPI_Comm p2p = MPI_COMM_NULL, broadcast = MPI_COMM_NULL;
    ~Control() {
      int finalized = 0;
      MPI_Finalized(&finalized);
      if (finalized) return;
      if (p2p != MPI_COMM_NULL) MPI_Comm_free(&p2p);
      if (broadcast != MPI_COMM_NULL) MPI_Comm_free(&broadcast);
    }
  };
  void adopt(MPI_Comm comm) {
    handle_ = std::shared_ptr<MPI_Comm>(new MPI_Comm(comm), Free{});
    KAPI_MPI_CHECK(MPI_Comm_set_errhandler, comm, MPI_ERRORS_RETURN);
    KAPI_MPI_CHECK(MPI_Comm_rank, comm, &rank_);
    KAPI_MPI_CHECK(MPI_Comm_size, comm, &size_);
    MPI_Comm node = MPI_COMM_NULL;
    KAPI_MPI_CHECK(MPI_Comm_split_type, comm, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node);
    const int rc_rank = MPI_Comm_rank(node, &node_rank_), rc_size = MPI_Comm_size(node, &node_size_);
    // A node is named by the lowest rank on it: node rank 0's rank, sent to the node.
    int node_name = rank_;
    const int rc_name = MPI_Bcast(&node_name, 1, MPI_INT, 0, node);
    MPI_Comm_free(&node);
    detail::check(rc_rank, "MPI_Comm_rank");
    detail::check(rc_size, "MPI_Comm_size");
    detail::check(rc_name, "MPI_Bcast");
    node_of_.assign(std::size_t(size_), -1);
    KAPI_MPI_CHECK(MPI_Allgather, &node_name, 1, MPI_INT, node_of_.data(), 1, MPI_INT, comm);
    control_ = std::make_shared<Control>();
    KAPI_MPI_CHECK(MPI_Comm_dup, comm, &control_->p2p);
    KAPI_MPI_CHECK(MPI_Comm_dup, comm, &control_->broadcast);
  }

  std::shared_ptr<MPI_Comm> handle_;
  std::shared_ptr<Control> control_;
  std::vector<int> node_of_;  // per rank: the lowest rank on its node
  int rank_ = -1, size_ = 0, node_rank_ = -1, node_size_ = 0;
};

}  // namespace kapi::mpi
