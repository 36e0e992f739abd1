// SPDX-License-Identifier: Apache-2.0
#pragma once
// Peer transfers: device memory moved between the GPUs of one node by the GPUs themselves
// (CUDA IPC, over NVLink or PCIe), for an MPI library that cannot read device memory.
// MPI carries only small control messages, on the Communicator's own duplicates:
//  1. the receiver, when it posts its receive, sends the sender where its View lives (the
//     allocation's IPC handle and the View's offset in it), how many bytes it takes, and an
//     interprocess event recorded after the work already queued on its device (the View may
//     still be read by kernels of the previous step);
//  2. the sender opens that memory once (the mapping is kept), and queues the copy on its
//     copy stream behind its own queued work and the receiver's event;
//  3. when the copy is done, the sender tells the receiver, whose wait() then returns.
// Transfers advance whenever any of them is posted or waited for (a rank waiting for its
// receive also carries out its own sends), so the orders MPI allows (post the receives,
// post the sends, wait in any order) cannot deadlock.
#include <mpi.h>

#include <Kokkos_Core.hpp>

#if defined(KOKKOS_ENABLE_CUDA)
#define KAPI_MPI_HAS_PEER_TRANSFERS 1
#include <cuda.h>
#include <cuda_runtime.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "../communicator.hpp"
#include "../errors.hpp"

namespace kapi::mpi::detail {

inline void check_cuda(cudaError_t rc, const char* call, const std::string& what) {
  if (rc == cudaSuccess) return;
  (void)cudaGetLastError();
  throw mpi_error(world_rank(), call, MPI_SUCCESS, what + ": " + cudaGetErrorString(rc));
}

/// What a receiver sends the sender when it posts a peer receive.
struct PeerEndpoint {
  cudaIpcMemHandle_t memory;   // the allocation that holds the receiver's View
  cudaIpcEventHandle_t ready;  // recorded after the work queued on the receiver's device
  std::uint64_t base, size;    // the allocation, in the receiver's process
  std::uint64_t offset;        // of the View's data in that allocation
  std::uint64_t capacity;      // bytes the receive takes
  std::int32_t owner;          // the receiver's rank in MPI_COMM_WORLD
};

/// What the sender answers once the data is in place (or why it is not).
struct PeerDone {
  enum : std::int32_t { copied = 0, truncated = 1, failed = 2 };
  std::uint64_t bytes = 0;
  std::int32_t status = copied;  // truncated: more bytes than the receive takes; failed: see the sender's error
};

/// A device allocation as the node's other ranks see it: its IPC handle, and the event its
/// receives record. One per allocation in a process (peer_export), whichever Buffers and
/// Views receive into it, so that a sender opens each allocation and event once.
class PeerExport {
 public:
  PeerExport(CUdeviceptr base, std::size_t size) : base_(base), size_(size) {
    check_cuda(cudaIpcGetMemHandle(&memory_, reinterpret_cast<void*>(base)), "cudaIpcGetMemHandle",
               "exporting a View's memory to the node's other ranks");
    check_cuda(cudaEventCreateWithFlags(&ready_, cudaEventDisableTiming | cudaEventInterprocess),
               "cudaEventCreateWithFlags", "creating a peer transfer's event");
    check_cuda(cudaIpcGetEventHandle(&ready_handle_, ready_), "cudaIpcGetEventHandle",
               "exporting a peer transfer's event");
  }
  ~PeerExport() {
    if (ready_) cudaEventDestroy(ready_);
  }
  PeerExport(const PeerExport&) = delete;
  PeerExport& operator=(const PeerExport&) = delete;

  /// The endpoint of a receive of `bytes` at `data` (in this allocation), ready once the
  /// device's queued work is done (every blocking stream's: the legacy default stream
  /// waits for them).
  PeerEndpoint post(const void* data, std::size_t bytes) {
    check_cuda(cudaEventRecord(ready_, cudaStreamLegacy), "cudaEventRecord", "posting a peer receive");
    PeerEndpoint e{};
    e.memory = memory_;
    e.ready = ready_handle_;
    e.base = std::uint64_t(base_);
    e.size = size_;
    e.offset = std::uint64_t(reinterpret_cast<CUdeviceptr>(data) - base_);
    e.capacity = bytes;
    e.owner = world_rank();
    return e;
  }
  const cudaIpcMemHandle_t& memory() const { return memory_; }
  CUdeviceptr base() const { return base_; }
  std::size_t size() const { return size_; }

 private:
  CUdeviceptr base_;
  std::size_t size_;
  cudaIpcMemHandle_t memory_{};
  cudaIpcEventHandle_t ready_handle_{};
  cudaEvent_t ready_ = nullptr;
};

/// The export of the allocation that holds `data`, shared while any Buffer holds it.
inline std::shared_ptr<PeerExport> peer_export(const void* data) {
  CUdeviceptr base = 0;
  std::size_t size = 0;
  if (cuMemGetAddressRange(&base, &size, reinterpret_cast<CUdeviceptr>(data)) != CUDA_SUCCESS)
    throw mpi_error(world_rank(), "cuMemGetAddressRange", MPI_SUCCESS,
                    "a peer transfer's View is not in device memory that cudaMalloc allocated");
  static std::map<CUdeviceptr, std::weak_ptr<PeerExport>> exports;
  auto& slot = exports[base];
  auto e = slot.lock();
  if (!e) slot = e = std::make_shared<PeerExport>(base, size);  // a new allocation, maybe at a freed one's place
  return e;
}

/// The other ranks' allocations and events this process opened, and the stream its peer
/// copies run on. An allocation is opened once and kept while its owner keeps it; when the
/// owner freed it and allocated again where it was (a new handle at the same place), the
/// old mapping is closed first (CUDA refuses a second mapping of that memory). Closed when
/// the kapi::mpi::Environment ends.
class PeerImports {
 public:
  static PeerImports& get() {
    static PeerImports imports;
    return imports;
  }
  /// The receiver's View's data in this process, and its event.
  std::pair<char*, cudaEvent_t> open(const PeerEndpoint& e) {
    const auto ready = key(e.ready);
    auto& m = map(e.owner, e.base, e.size, e.memory);
    if (m.event && m.ready != ready) {
      cudaEventDestroy(m.event);
      m.event = nullptr;
    }
    if (!m.event) {
      check_cuda(cudaIpcOpenEventHandle(&m.event, e.ready), "cudaIpcOpenEventHandle",
                 "opening rank " + std::to_string(e.owner) + "'s event for a peer transfer");
      m.ready = ready;
    }
    return {m.pointer + e.offset, m.event};
  }
  /// Rank `owner`'s allocation of `size` bytes at `base` (in its process), given its
  /// handle: where this process sees it.
  char* open_memory(std::int32_t owner, std::uint64_t base, std::uint64_t size, const cudaIpcMemHandle_t& memory) {
    return map(owner, base, size, memory).pointer;
  }
  cudaStream_t stream() {
    if (!stream_)
      check_cuda(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreateWithFlags",
                 "creating the peer transfers' stream");
    return stream_;
  }
  void close() noexcept {
    if (stream_) cudaStreamSynchronize(stream_);
    for (auto& [k, m] : mappings_) close(m);
    if (stream_) cudaStreamDestroy(stream_);
    mappings_.clear();
    stream_ = nullptr;
  }

 private:
  PeerImports() = default;
  using Key = std::array<char, CUDA_IPC_HANDLE_SIZE>;
  template <class Handle>
  static Key key(const Handle& h) {
    static_assert(sizeof(Handle) == CUDA_IPC_HANDLE_SIZE);
    Key k;
    std::memcpy(k.data(), &h, k.size());
    return k;
  }
  struct Mapping {
    Key memory{}, ready{};
    std::uint64_t size = 0;
    char* pointer = nullptr;
    cudaEvent_t event = nullptr;
  };
  Mapping& map(std::int32_t owner, std::uint64_t base, std::uint64_t size, const cudaIpcMemHandle_t& handle) {
    const auto memory = key(handle);
    auto& m = mappings_[{owner, base}];
    if (m.pointer && (m.memory != memory || m.size != size)) close(m);
    for (auto it = mappings_.begin(); it != mappings_.end(); ++it)  // what the new allocation overlaps
      if (it->second.pointer && it->first.first == owner && it->first.second != base &&
          it->first.second < base + size && base < it->first.second + it->second.size)
        close(it->second);
    if (!m.pointer) {
      void* opened = nullptr;
      check_cuda(cudaIpcOpenMemHandle(&opened, handle, cudaIpcMemLazyEnablePeerAccess), "cudaIpcOpenMemHandle",
                 "opening rank " + std::to_string(owner) + "'s View for a peer transfer");
      m.pointer = static_cast<char*>(opened);
      m.memory = memory;
      m.size = size;
    }
    return m;
  }
  void close(Mapping& m) noexcept {
    if (m.pointer) cudaIpcCloseMemHandle(m.pointer);
    if (m.event) cudaEventDestroy(m.event);
    m = Mapping{};
  }
  std::map<std::pair<std::int32_t, std::uint64_t>, Mapping> mappings_;  // by owner and base
  cudaStream_t stream_ = nullptr;
};

/// A peer transfer in flight.
class PeerOp {
 public:
  virtual ~PeerOp() = default;
  /// Takes every step that needs no waiting; true once the transfer is complete (failed
  /// ones too: rethrow() throws their error, for the rank that waits for them).
  bool advance() noexcept {
    if (!complete_) try {
        complete_ = step();
      } catch (...) {
        error_ = std::current_exception();
        complete_ = true;
      }
    return complete_;
  }
  void rethrow() const {
    if (error_) std::rethrow_exception(error_);
  }

 protected:
  virtual bool step() = 0;
  /// MPI_Test of `r` (completed requests are MPI_REQUEST_NULL and test as done).
  static bool done(MPI_Request& r) {
    if (r == MPI_REQUEST_NULL) return true;
    int flag = 0;
    KAPI_MPI_CHECK(MPI_Test, &r, &flag, MPI_STATUS_IGNORE);
    return flag != 0;
  }

 private:
  bool complete_ = false;
  std::exception_ptr error_;
};

inline std::vector<std::weak_ptr<PeerOp>>& peer_ops() {
  static std::vector<std::weak_ptr<PeerOp>> ops;
  return ops;
}

/// Advances every peer transfer in flight; forgets the complete ones.
inline void advance_peer_ops() {
  auto& ops = peer_ops();
  for (std::size_t i = 0; i < ops.size();) {
    const auto op = ops[i].lock();
    if (!op || op->advance())
      ops.erase(ops.begin() + std::ptrdiff_t(i));
    else
      ++i;
  }
}

/// Registers `op` and advances every transfer (this one may start at once).
inline std::shared_ptr<PeerOp> start_peer_op(std::shared_ptr<PeerOp> op) {
  peer_ops().push_back(op);
  advance_peer_ops();
  return op;
}

/// Waits for `op` to complete (or fail), advancing every transfer meanwhile.
inline void complete_peer_op(PeerOp& op) {
  while (!op.advance()) advance_peer_ops();
}

/// Waits for `op`; throws its error.
inline void wait_peer_op(PeerOp& op) {
  complete_peer_op(op);
  op.rethrow();
}

/// Control-message tags: a point-to-point transfer's tag t becomes 2t (the endpoint) and
/// 2t + 1 (done) on the control communicator, within MPI's tag bound.
inline int peer_tag(int tag, int kind) {
  static const int bound = [] {
    void* value = nullptr;
    int flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &value, &flag);
    return flag ? *static_cast<int*>(value) : 32767;
  }();
  if (tag < 0 || tag > (bound - 1) / 2)
    throw mpi_error(world_rank(), "kapi::mpi peer transfer", MPI_SUCCESS,
                    "tag " + std::to_string(tag) + " is outside 0.." + std::to_string((bound - 1) / 2) +
                        " (peer transfers use two control tags per tag, within MPI_TAG_UB " + std::to_string(bound) +
                        ")");
  return 2 * tag + kind;
}

/// The receiving side: posts its endpoint, completes when the sender says the data is in.
class PeerReceive : public PeerOp {
 public:
  PeerReceive(MPI_Comm control, int source, int endpoint_tag, int done_tag, const PeerEndpoint& endpoint,
              std::string what)
      : endpoint_(endpoint), source_(source), what_(std::move(what)) {
    KAPI_MPI_CHECK(MPI_Irecv, &done_, int(sizeof(PeerDone)), MPI_BYTE, source, done_tag, control, &done_request_);
    KAPI_MPI_CHECK(MPI_Isend, &endpoint_, int(sizeof(PeerEndpoint)), MPI_BYTE, source, endpoint_tag, control,
                   &endpoint_request_);
  }
  ~PeerReceive() override {
    // Abandoned (its Request destroyed unwaited, during an exception): the peer may still
    // write, so the requests are completed rather than freed under MPI.
    if (endpoint_request_ != MPI_REQUEST_NULL) MPI_Wait(&endpoint_request_, MPI_STATUS_IGNORE);
    if (done_request_ != MPI_REQUEST_NULL) MPI_Wait(&done_request_, MPI_STATUS_IGNORE);
  }

 protected:
  bool step() override {
    if (!done(endpoint_request_) || !done(done_request_)) return false;
    if (done_.status == PeerDone::truncated)
      throw mpi_error(world_rank(), "kapi::mpi peer transfer", MPI_SUCCESS,
                      what_ + ": rank " + std::to_string(source_) + " sent " + std::to_string(done_.bytes) +
                          " bytes, more than the " + std::to_string(endpoint_.capacity) + " this receive takes");
    if (done_.status != PeerDone::copied)
      throw mpi_error(world_rank(), "kapi::mpi peer transfer", MPI_SUCCESS,
                      what_ + ": rank " + std::to_string(source_) + " could not copy the data (its error says why)");
    return true;
  }

 private:
  PeerEndpoint endpoint_;
  PeerDone done_;
  MPI_Request endpoint_request_ = MPI_REQUEST_NULL, done_request_ = MPI_REQUEST_NULL;
  int source_;
  std::string what_;
};

/// Whether the previous send to the same (control communicator, rank, tag) has told its
/// receiver, and the flag this send sets when it has: done messages of one such key leave
/// in the order their sends were posted, since the receiver matches them to its receives in
/// that order (a rank may wait for its second send first, whose copy then runs first).
struct DoneOrder {
  std::weak_ptr<bool> previous;  // gone with its send: a send abandoned unsent holds none back
  std::shared_ptr<bool> mine;
  DoneOrder(MPI_Comm control, int rank, int tag) : mine(std::make_shared<bool>(false)) {
    static std::map<std::tuple<MPI_Fint, int, int>, std::weak_ptr<bool>> last;
    auto& slot = last[{MPI_Comm_c2f(control), rank, tag}];
    previous = slot;
    slot = mine;
  }
  bool may_signal() const {
    const auto p = previous.lock();
    return !p || *p;
  }
};

/// The sending side, to one rank (a send) or several (a broadcast's root): each target's
/// copy starts as soon as its endpoint arrives.
class PeerSend : public PeerOp {
 public:
  PeerSend(MPI_Comm control, const std::vector<int>& targets, int endpoint_tag, int done_tag, const void* data,
           std::size_t bytes, std::string what)
      : control_(control), done_tag_(done_tag), data_(data), bytes_(bytes), what_(std::move(what)) {
    check_cuda(cudaEventCreateWithFlags(&source_ready_, cudaEventDisableTiming), "cudaEventCreateWithFlags",
               "creating a peer transfer's event");
    check_cuda(cudaEventRecord(source_ready_, cudaStreamLegacy), "cudaEventRecord", "posting a peer send");
    targets_.reserve(targets.size());
    for (std::size_t t = 0; t < targets.size(); ++t) {
      targets_.emplace_back(DoneOrder(control, targets[t], done_tag));
      targets_[t].rank = targets[t];
      KAPI_MPI_CHECK(MPI_Irecv, &targets_[t].endpoint, int(sizeof(PeerEndpoint)), MPI_BYTE, targets[t], endpoint_tag,
                     control, &targets_[t].endpoint_request);
    }
  }
  ~PeerSend() override {
    for (auto& t : targets_) {
      if (t.endpoint_request != MPI_REQUEST_NULL) MPI_Wait(&t.endpoint_request, MPI_STATUS_IGNORE);
      if (t.copied) {
        cudaEventSynchronize(t.copied);
        cudaEventDestroy(t.copied);
      }
      if (t.done_request != MPI_REQUEST_NULL) MPI_Wait(&t.done_request, MPI_STATUS_IGNORE);
    }
    if (source_ready_) cudaEventDestroy(source_ready_);
    if (self_ready_) cudaEventDestroy(self_ready_);
  }

 protected:
  bool step() override {
    bool all = true;
    for (auto& t : targets_) all = step(t) && all;
    if (all && failure_) std::rethrow_exception(failure_);
    if (all && truncated_)
      throw mpi_error(world_rank(), "kapi::mpi peer transfer", MPI_SUCCESS,
                      what_ + ": " + std::to_string(bytes_) + " bytes for rank " + std::to_string(truncated_rank_) +
                          ", whose receive takes " + std::to_string(truncated_capacity_));
    return all;
  }

 private:
  enum class State { awaiting_endpoint, copying, to_signal, signalling, complete };
  struct Target {
    explicit Target(DoneOrder o) : order(std::move(o)) {}
    DoneOrder order;
    int rank = -1;
    State state = State::awaiting_endpoint;
    PeerEndpoint endpoint{};
    PeerDone done;
    MPI_Request endpoint_request = MPI_REQUEST_NULL, done_request = MPI_REQUEST_NULL;
    cudaEvent_t copied = nullptr;
  };

  bool step(Target& t) {
    if (t.state == State::awaiting_endpoint && done(t.endpoint_request)) {
      t.done.bytes = bytes_;
      if (bytes_ > t.endpoint.capacity) {
        t.done.status = PeerDone::truncated;
        truncated_ = true;
        truncated_rank_ = t.rank;
        truncated_capacity_ = t.endpoint.capacity;
        t.state = State::to_signal;
      } else {
        try {
          copy(t);
        } catch (...) {  // the receiver hears of it (never left waiting); this rank throws it
          if (!failure_) failure_ = std::current_exception();
          t.done.status = PeerDone::failed;
          t.state = State::to_signal;
        }
      }
    }
    if (t.state == State::copying) {
      const cudaError_t rc = cudaEventQuery(t.copied);
      if (rc == cudaSuccess)
        t.state = State::to_signal;
      else if (rc != cudaErrorNotReady)
        check_cuda(rc, "cudaEventQuery", what_ + ": the copy to rank " + std::to_string(t.rank));
    }
    if (t.state == State::to_signal && t.order.may_signal()) signal(t);
    if (t.state == State::signalling && done(t.done_request)) t.state = State::complete;
    return t.state == State::complete;
  }
  void copy(Target& t) {
    auto& imports = PeerImports::get();
    const cudaStream_t stream = imports.stream();
    const std::string to = what_ + ": the copy to rank " + std::to_string(t.rank);
    const bool self = t.endpoint.owner == world_rank();
    // The receiver's queued work: its event, or, for a rank sending to itself, this
    // process's work queued by now (the receive was posted before the endpoint arrived).
    char* dst = nullptr;
    cudaEvent_t ready = nullptr;
    if (!self) {
      std::tie(dst, ready) = imports.open(t.endpoint);
    } else {
      dst = reinterpret_cast<char*>(t.endpoint.base + t.endpoint.offset);
      check_cuda(cudaEventCreateWithFlags(&self_ready_, cudaEventDisableTiming), "cudaEventCreateWithFlags", to);
      check_cuda(cudaEventRecord(self_ready_, cudaStreamLegacy), "cudaEventRecord", to);
      ready = self_ready_;
    }
    check_cuda(cudaStreamWaitEvent(stream, source_ready_, 0), "cudaStreamWaitEvent", to);
    check_cuda(cudaStreamWaitEvent(stream, ready, 0), "cudaStreamWaitEvent", to);
    if (bytes_)
      check_cuda(cudaMemcpyAsync(dst, data_, bytes_, cudaMemcpyDeviceToDevice, stream), "cudaMemcpyAsync", to);
    check_cuda(cudaEventCreateWithFlags(&t.copied, cudaEventDisableTiming), "cudaEventCreateWithFlags", to);
    check_cuda(cudaEventRecord(t.copied, stream), "cudaEventRecord", to);
    t.state = State::copying;
  }
  void signal(Target& t) {
    KAPI_MPI_CHECK(MPI_Isend, &t.done, int(sizeof(PeerDone)), MPI_BYTE, t.rank, done_tag_, control_, &t.done_request);
    *t.order.mine = true;
    t.state = State::signalling;
  }

  MPI_Comm control_;
  int done_tag_;
  const void* data_;
  std::size_t bytes_;
  std::string what_;
  cudaEvent_t source_ready_ = nullptr, self_ready_ = nullptr;
  std::vector<Target> targets_;
  std::exception_ptr failure_;
  bool truncated_ = false;
  int truncated_rank_ = -1;
  std::uint64_t truncated_capacity_ = 0;
};

}  // namespace kapi::mpi::detail
#else
#define KAPI_MPI_HAS_PEER_TRANSFERS 0
#endif
