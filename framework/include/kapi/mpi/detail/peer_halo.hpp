// SPDX-License-Identifier: Apache-2.0
#pragma once
// Halo faces put straight into the neighbours' ghost layers, for a HaloExchange whose
// ranks share a node and an MPI library that cannot read device memory (CUDA IPC, as
// detail/peer_transfers.hpp). Each rank maps its neighbours' blocks once; a step is then
// one kernel per face writing the face into the neighbour's ghost plane, ordered by two
// interprocess events per rank instead of packing, a copy and unpacking with the host
// waiting for each:
//   start:  record `free` after the work queued on the space (the kernels that read this
//           rank's ghosts) and tell the ranks that write them; once a target has said so,
//           queue a wait for its `free` and the put; record `delivered`, tell the targets;
//   finish: once a writer has said so, queue a wait for its `delivered` on the space.
// MPI carries one flag each way per face (whether the sender's step went well). A rank
// records `free` again only after its finish, which follows every writer's wait on the
// previous one (and the same for `delivered`), so a wait never sees a later record than
// the one it was told of. The host never waits for the device: the ghosts are in place
// for the work queued on the space after finish().
#include <Kokkos_Core.hpp>

#include "peer_transfers.hpp"

#if KAPI_MPI_HAS_PEER_TRANSFERS
#include <array>
#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "../communicator.hpp"
#include "../errors.hpp"

namespace kapi::mpi::detail {

/// One face's elements written into another block (a neighbour's ghost plane).
template <class T, class Plane>
struct PutFace {
  Plane from;
  T* to;
  std::size_t stride0, stride1, extent1;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t x) const {
    const std::size_t a = x / extent1, b = x % extent1;
    to[a * stride0 + b * stride1] = from(a, b);
  }
};

/// What a rank tells its neighbours about its block once: where it lives and its events.
struct PeerHaloBlock {
  cudaIpcMemHandle_t memory;
  cudaIpcEventHandle_t free, delivered;
  std::uint64_t base, size, offset;  // the allocation in the owner's process, the block's data in it
  std::uint64_t extents[3];          // with the ghost layers
  std::int32_t owner;                // rank in MPI_COMM_WORLD
};

template <class T>
class PeerHalo {
 public:
  using Neighbours = std::array<std::array<int, 2>, 3>;

  /// Collective over `comm`'s ranks. `data` is a LayoutRight block of `extents` (ghost
  /// layers included) in memory cudaMalloc allocated.
  PeerHalo(const Communicator& comm, T* data, const std::array<std::size_t, 3>& extents, const Neighbours& neighbour)
      : neighbour_(neighbour), me_(comm.rank()) {
    // Its own communicator: the flags never meet the user's messages, or another exchange's.
    KAPI_MPI_CHECK(MPI_Comm_dup, comm.get(), &comm_);
    local_ = exported(data, extents);
    std::vector<PeerHaloBlock> blocks(std::size_t(comm.size()));
    KAPI_MPI_CHECK(MPI_Allgather, &local_, int(sizeof(PeerHaloBlock)), MPI_BYTE, blocks.data(),
                   int(sizeof(PeerHaloBlock)), MPI_BYTE, comm_);
    // Every face must meet a ghost plane of its extents; all ranks learn whether one does not.
    std::string mismatch;
    for (int d = 0; d < 3; ++d)
      for (int side = 0; side < 2; ++side) {
        const int r = neighbour_[d][side];
        if (r == MPI_PROC_NULL) continue;
        for (int e = 0; e < 3; ++e)
          if (e != d && blocks[std::size_t(r)].extents[e] != extents[std::size_t(e)] && mismatch.empty())
            mismatch = "the face " + std::to_string(d) + (side ? "+" : "-") + " of extent " +
                       std::to_string(extents[std::size_t(e)] - 2) + " along dimension " + std::to_string(e) +
                       " meets rank " + std::to_string(r) + "'s ghost plane of extent " +
                       std::to_string(blocks[std::size_t(r)].extents[e] - 2);
      }
    int ok = mismatch.empty(), all = 0;
    KAPI_MPI_CHECK(MPI_Allreduce, &ok, &all, 1, MPI_INT, MPI_MIN, comm_);
    if (!all)
      throw mpi_error(
          world_rank(), "kapi::mpi::HaloExchange", MPI_SUCCESS,
          mismatch.empty() ? "another rank's block does not match its neighbour's (its error says which)" : mismatch);
    for (int d = 0; d < 3; ++d)
      for (int side = 0; side < 2; ++side) {
        const int r = neighbour_[d][side];
        if (r == MPI_PROC_NULL) continue;
        Target& t = target_[d][side];
        const PeerHaloBlock& b = blocks[std::size_t(r)];
        t.extents = {b.extents[0], b.extents[1], b.extents[2]};
        if (r == me_) {
          t.data = data;
          continue;
        }
        t.data = reinterpret_cast<T*>(PeerImports::get().open_memory(b.owner, b.base, b.size, b.memory) + b.offset);
        t.free = open_event(b.free, r);
        t.delivered = open_event(b.delivered, r);
      }
  }
  ~PeerHalo() {
    for (auto& faces : target_)
      for (auto& t : faces) {
        if (t.free) cudaEventDestroy(t.free);
        if (t.delivered) cudaEventDestroy(t.delivered);
      }
    if (free_) cudaEventDestroy(free_);
    if (delivered_) cudaEventDestroy(delivered_);
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized) return;
    for (auto& r : sends_)
      if (r != MPI_REQUEST_NULL) MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Comm_free(&comm_);
  }
  PeerHalo(const PeerHalo&) = delete;
  PeerHalo& operator=(const PeerHalo&) = delete;

  /// Puts this rank's faces (planes 1 and n along each dimension of `u`) into the
  /// neighbours' ghost planes, on `space`'s stream. Every neighbour hears from this rank
  /// whatever fails here (the message says so), so that none waits for a put that will
  /// not come; the failure is thrown once they have.
  template <class ExecSpace, class PlaneOf>
  void start(const ExecSpace& space, const PlaneOf& plane) {
    const cudaStream_t stream = space.cuda_stream();
    std::exception_ptr error;
    int refused_by = -1;  // a target that could not start its exchange
    try {
      check_cuda(cudaEventRecord(free_, stream), "cudaEventRecord", "a halo exchange's start");
    } catch (...) {
      error = std::current_exception();
    }
    for (int d = 0; d < 3; ++d)
      for (int side = 0; side < 2; ++side)  // the writer of ghost (d, side) is the neighbour on that side
        if (neighbour_[d][side] != MPI_PROC_NULL) post(neighbour_[d][side], ghost_tag(d, side, free_message), !error);
    for (int d = 0; d < 3; ++d)
      for (int side = 0; side < 2; ++side) {
        const int r = neighbour_[d][side];
        if (r == MPI_PROC_NULL) continue;
        if (!receive(r, ghost_tag(d, 1 - side, free_message))) refused_by = r;  // the target's ghost on the other side
        if (error || refused_by >= 0) continue;
        try {
          put(space, stream, plane, d, side);
        } catch (...) {
          error = std::current_exception();
        }
      }
    if (!error && refused_by < 0) try {
        check_cuda(cudaEventRecord(delivered_, stream), "cudaEventRecord", "a halo exchange's puts");
      } catch (...) {
        error = std::current_exception();
      }
    const bool delivered = !error && refused_by < 0;
    for (int d = 0; d < 3; ++d)
      for (int side = 0; side < 2; ++side)
        if (neighbour_[d][side] != MPI_PROC_NULL)
          post(neighbour_[d][side], ghost_tag(d, 1 - side, delivered_message), delivered);
    if (error) std::rethrow_exception(error);
    if (refused_by >= 0) throw failed_neighbour("start", refused_by, "could not start the halo exchange");
  }

  /// Orders the work queued on `space` from now on after the neighbours' puts.
  template <class ExecSpace>
  void finish(const ExecSpace& space) {
    const cudaStream_t stream = space.cuda_stream();
    int failed = -1;
    for (int d = 0; d < 3; ++d)
      for (int side = 0; side < 2; ++side) {
        const int r = neighbour_[d][side];
        if (r == MPI_PROC_NULL) continue;
        if (!receive(r, ghost_tag(d, side, delivered_message))) {
          failed = r;
          continue;
        }
        const Target& t = target_[d][side];  // the writer of ghost (d, side) is also this face's target
        if (t.delivered)
          check_cuda(cudaStreamWaitEvent(stream, t.delivered, 0), "cudaStreamWaitEvent", "a halo exchange's finish");
      }
    for (auto& r : sends_) wait(r);
    sends_.clear();
    if (failed >= 0) throw failed_neighbour("finish", failed, "could not put its face into this rank's ghost layer");
  }

 private:
  enum { free_message = 0, delivered_message = 1 };
  static int ghost_tag(int d, int side, int message) { return 2 * (2 * d + side) + message; }

  struct Target {
    T* data = nullptr;
    std::array<std::size_t, 3> extents{};
    cudaEvent_t free = nullptr, delivered = nullptr;  // none for this rank itself
  };

  PeerHaloBlock exported(T* data, const std::array<std::size_t, 3>& extents) {
    PeerHaloBlock b{};
    allocation_ = peer_export(data);  // the allocation's handle, shared with the Buffers that receive into it
    b.memory = allocation_->memory();
    for (cudaEvent_t* e : {&free_, &delivered_})
      check_cuda(cudaEventCreateWithFlags(e, cudaEventDisableTiming | cudaEventInterprocess),
                 "cudaEventCreateWithFlags", "creating a halo exchange's event");
    check_cuda(cudaIpcGetEventHandle(&b.free, free_), "cudaIpcGetEventHandle", "exporting a halo exchange's event");
    check_cuda(cudaIpcGetEventHandle(&b.delivered, delivered_), "cudaIpcGetEventHandle",
               "exporting a halo exchange's event");
    b.base = std::uint64_t(allocation_->base());
    b.size = allocation_->size();
    b.offset = std::uint64_t(reinterpret_cast<CUdeviceptr>(data) - allocation_->base());
    for (int d = 0; d < 3; ++d) b.extents[d] = extents[std::size_t(d)];
    b.owner = world_rank();
    return b;
  }
  static cudaEvent_t open_event(const cudaIpcEventHandle_t& handle, int rank) {
    cudaEvent_t e = nullptr;
    check_cuda(cudaIpcOpenEventHandle(&e, handle), "cudaIpcOpenEventHandle",
               "opening rank " + std::to_string(rank) + "'s halo event");
    return e;
  }
  /// Queues the kernel that writes face (d, side) into its target's ghost plane.
  template <class ExecSpace, class PlaneOf>
  void put(const ExecSpace& space, cudaStream_t stream, const PlaneOf& plane, int d, int side) {
    const Target& t = target_[d][side];
    if (t.free) check_cuda(cudaStreamWaitEvent(stream, t.free, 0), "cudaStreamWaitEvent", "a halo put");
    const auto from = plane(d, side ? local_.extents[d] - 2 : 1);
    const std::size_t ghost = side ? 0 : t.extents[d] - 1;
    const std::size_t s[3] = {t.extents[1] * t.extents[2], t.extents[2], 1};
    const int e0 = d == 0 ? 1 : 0, e1 = d == 2 ? 1 : 2;  // the face's two dimensions, in order
    T* to = t.data + ghost * s[d] + s[e0] + s[e1];       // the ghost plane's interior
    Kokkos::parallel_for(std::string("kapi::mpi halo put ") + std::to_string(d) + (side ? "+" : "-"),
                         Kokkos::RangePolicy<ExecSpace>(space, 0, from.extent(0) * from.extent(1)),
                         PutFace<T, decltype(from)>{from, to, s[e0], s[e1], from.extent(1)});
  }
  static mpi_error failed_neighbour(const char* step, int rank, const std::string& what) {
    return mpi_error(world_rank(), std::string("kapi::mpi::HaloExchange::") + step, MPI_SUCCESS,
                     "rank " + std::to_string(rank) + " " + what + " (its error says why)");
  }
  /// Sends `rank` one flag: whether this rank's step went as it should.
  void post(int rank, int tag, bool ok) {
    static const std::int32_t flags[2] = {0, 1};
    sends_.push_back(MPI_REQUEST_NULL);
    KAPI_MPI_CHECK(MPI_Isend, &flags[ok ? 1 : 0], 1, MPI_INT32_T, rank, tag, comm_, &sends_.back());
  }
  /// Waits for `rank`'s flag, advancing the peer transfers in flight meanwhile (one of
  /// them may be what the sender waits for before it gets here).
  bool receive(int rank, int tag) {
    std::int32_t ok = 0;
    MPI_Request r = MPI_REQUEST_NULL;
    KAPI_MPI_CHECK(MPI_Irecv, &ok, 1, MPI_INT32_T, rank, tag, comm_, &r);
    wait(r);
    return ok != 0;
  }
  static void wait(MPI_Request& r) {
    int done = 0;
    while (true) {
      KAPI_MPI_CHECK(MPI_Test, &r, &done, MPI_STATUS_IGNORE);
      if (done) return;
      advance_peer_ops();
    }
  }

  MPI_Comm comm_ = MPI_COMM_NULL;
  Neighbours neighbour_;
  int me_;
  std::shared_ptr<PeerExport> allocation_;
  PeerHaloBlock local_{};
  std::array<std::array<Target, 2>, 3> target_{};
  cudaEvent_t free_ = nullptr, delivered_ = nullptr;
  std::vector<MPI_Request> sends_;
};

}  // namespace kapi::mpi::detail
#endif
