// SPDX-License-Identifier: Apache-2.0
#pragma once
// Kokkos Views over MPI. A contiguous View of any memory space travels by the fastest way
// its memory and the two ranks allow (kapi::mpi::Transport):
//  - host memory, and device memory with a CUDA-aware library (kapi::mpi::device_aware()),
//    goes to MPI directly;
//  - device memory between ranks of one node, where MPI cannot read it (a CUDA build),
//    is copied GPU to GPU (peer copies through CUDA IPC, detail/peer_transfers.hpp), MPI
//    carrying only control messages;
//  - otherwise through a host mirror in pinned memory (Kokkos::CudaHostPinnedSpace on CUDA
//    builds): copied there before a send, back after a receive.
// KAPI_MPI_TRANSPORT=staged sends device memory through the host mirror whatever else is
// possible (to compare; every rank must be given the same value).
//
//   kapi::mpi::Buffer<View> face(view);            // owns the staging mirror, if any
//   auto r = face.irecv(comm, left, tag);          // ... overlap work here ...
//   r.wait();                                      // the data is in `view` now
//
// Blocking helpers for one-off transfers: send, recv, sendrecv, broadcast. Collectives
// that combine values do so on every rank in rank order (all_gather, ordered_reduce),
// so their results never depend on the order in which messages arrive.
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "communicator.hpp"
#include "detail/datatype.hpp"
#include "detail/device_aware.hpp"
#include "detail/peer_transfers.hpp"
#include "errors.hpp"

namespace kapi::mpi {

/// Whether device memory goes to MPI without staging (a CUDA-aware library on a CUDA build).
inline bool device_aware() { return detail::library_is_cuda_aware(); }

/// Host memory the staging mirrors live in: pinned where the backend has it, so that the
/// copies run at full speed and asynchronously.
#if defined(KOKKOS_ENABLE_CUDA)
using StagingSpace = Kokkos::CudaHostPinnedSpace;
#elif defined(KOKKOS_ENABLE_HIP)
using StagingSpace = Kokkos::Experimental::HIPHostPinnedSpace;
#else
using StagingSpace = Kokkos::HostSpace;
#endif

/// When a Buffer stages: `automatic` only when MPI cannot read the View's memory and no
/// peer copy reaches the other rank; `always` for every transfer, host memory too
/// (exercises the staging path on host-only builds).
enum class Staging { automatic, always };

/// How a transfer's data travels.
enum class Transport {
  host_memory,       // MPI reads and writes the View's host memory
  device_aware_mpi,  // MPI reads and writes device memory itself
  peer_copies,       // GPU to GPU on one node (CUDA IPC); MPI carries control messages
  staged             // through a pinned host mirror: device -> host -> MPI -> host -> device
};

inline const char* transport_name(Transport t) {
  switch (t) {
    case Transport::host_memory:
      return "host memory";
    case Transport::device_aware_mpi:
      return "device-aware MPI";
    case Transport::peer_copies:
      return "peer copies (CUDA IPC)";
    default:
      return "staged through pinned host memory";
  }
}

/// A KAPI_MPI_TRANSPORT value: true for "staged", false for "auto" or none; throws for
/// anything else, naming `who` ("rank 2 has").
inline bool parse_transport_setting(const std::string& value, int rank, const std::string& who) {
  if (value.empty() || value == "auto") return false;
  if (value == "staged") return true;
  throw mpi_error(rank, "KAPI_MPI_TRANSPORT", MPI_SUCCESS,
                  who + "'" + value + "', which is not a transport: expected auto (the fastest possible) or staged");
}

/// Whether KAPI_MPI_TRANSPORT asks for staging (read once).
inline bool staging_requested() {
  static const bool staged = [] {
    const char* v = std::getenv("KAPI_MPI_TRANSPORT");
    return parse_transport_setting(v ? v : "", detail::world_rank(), "this rank has ");
  }();
  return staged;
}

/// Whether peer copies can move this build's device memory at all.
inline constexpr bool peer_copies_built = KAPI_MPI_HAS_PEER_TRANSFERS != 0;

/// How device memory travels between `comm`'s rank and `peer` (between all of its ranks
/// with peer = -1, as broadcasts need), given the build, the MPI library and the setting.
inline Transport device_transport(const Communicator& comm, int peer = -1) {
  if (!staging_requested() && device_aware()) return Transport::device_aware_mpi;
  const bool local = peer < 0 ? comm.one_node() : comm.same_node(peer);
  if (!staging_requested() && peer_copies_built && local) return Transport::peer_copies;
  return Transport::staged;
}

/// How Views in MemorySpace travel between `comm`'s rank and `peer` (all of its ranks with
/// peer = -1): through host memory where the host reaches them, else device_transport.
template <class MemorySpace>
Transport transport(const Communicator& comm, int peer = -1) {
  if (Kokkos::SpaceAccessibility<Kokkos::HostSpace, MemorySpace>::accessible) return Transport::host_memory;
  return device_transport(comm, peer);
}

/// A transfer in flight. wait() completes it (a staged receive is copied into its View
/// then) and throws mpi_error if it failed; a Request destroyed unfinished is waited for.
class Request {
 public:
  Request() = default;
  Request(MPI_Request r, std::function<void()> on_done) : request_(r), on_done_(std::move(on_done)) {}
#if KAPI_MPI_HAS_PEER_TRANSFERS
  explicit Request(std::shared_ptr<detail::PeerOp> peer) : peer_(std::move(peer)) {}
#endif
  Request(Request&& o) noexcept
      : request_(std::exchange(o.request_, MPI_REQUEST_NULL)),
        on_done_(std::move(o.on_done_)),
        peer_(std::move(o.peer_)) {}
  Request& operator=(Request&& o) noexcept {
    if (this != &o) {
      finish_quietly();
      request_ = std::exchange(o.request_, MPI_REQUEST_NULL);
      on_done_ = std::move(o.on_done_);
      peer_ = std::move(o.peer_);
    }
    return *this;
  }
  Request(const Request&) = delete;
  Request& operator=(const Request&) = delete;
  ~Request() { finish_quietly(); }

  void wait() {
    wait_transfer();
    if (on_done_) std::exchange(on_done_, nullptr)();
  }
  /// Completes the MPI transfer (or the peer copy) only; the staged copy waits for the
  /// next wait().
  void wait_transfer() {
    if (request_ != MPI_REQUEST_NULL) KAPI_MPI_CHECK(MPI_Wait, &request_, MPI_STATUS_IGNORE);
#if KAPI_MPI_HAS_PEER_TRANSFERS
    if (peer_) {
      const auto op = std::exchange(peer_, nullptr);
      detail::wait_peer_op(*op);
    }
#endif
  }
  bool pending() const noexcept { return request_ != MPI_REQUEST_NULL || bool(on_done_) || bool(peer_); }

 private:
  void finish_quietly() noexcept {
    if (request_ != MPI_REQUEST_NULL) MPI_Wait(&request_, MPI_STATUS_IGNORE);
#if KAPI_MPI_HAS_PEER_TRANSFERS
    if (peer_) detail::complete_peer_op(*std::exchange(peer_, nullptr));
#endif
    on_done_ = nullptr;
  }
  MPI_Request request_ = MPI_REQUEST_NULL;
  std::function<void()> on_done_;
#if KAPI_MPI_HAS_PEER_TRANSFERS
  std::shared_ptr<detail::PeerOp> peer_;
#else
  std::shared_ptr<void> peer_;  // never set
#endif
};

/// How Views of MemorySpace travel between `comm`'s ranks, in words (an app's summary).
template <class MemorySpace>
std::string describe_transport(const Communicator& comm) {
  const Transport t = mpi::transport<MemorySpace>(comm);
  if (t == Transport::staged && peer_copies_built && !staging_requested() && comm.node_size() > 1)
    return std::string(transport_name(Transport::peer_copies)) + " within a node, " +
           transport_name(Transport::staged) + " between nodes";
  return transport_name(t);
}

/// Waits for every request (each one's failure is thrown after all have been waited for).
/// Every transfer completes before the first staged copy: a copy into device memory
/// waits for the device, and MPI would make no progress meanwhile (kernels launched
/// before wait_all then overlap the whole exchange).
inline void wait_all(std::vector<Request>& requests) {
  std::exception_ptr first;
  for (auto& r : requests) {
    try {
      r.wait_transfer();
    } catch (...) {
      if (!first) first = std::current_exception();
    }
  }
  for (auto& r : requests) {
    try {
      r.wait();
    } catch (...) {
      if (!first) first = std::current_exception();
    }
  }
  requests.clear();
  if (first) std::rethrow_exception(first);
}

/// A contiguous View and the memory MPI reads and writes it through.
template <class View>
class Buffer {
 public:
  using value_type = typename View::value_type;
  using element_type = typename View::non_const_value_type;
  using memory_space = typename View::memory_space;
  static constexpr bool host_memory = Kokkos::SpaceAccessibility<Kokkos::HostSpace, memory_space>::accessible;

  Buffer() = default;
  explicit Buffer(const View& view, Staging staging = Staging::automatic) : view_(view), staging_(staging) {
    static_assert(Kokkos::is_view<View>::value, "kapi::mpi::Buffer takes a Kokkos::View");
    if (!view.span_is_contiguous())
      throw mpi_error(detail::world_rank(), "kapi::mpi::Buffer", MPI_SUCCESS,
                      "the View '" + view.label() +
                          "' is not contiguous; MPI transfers need contiguous Views "
                          "(copy a strided subview into a contiguous one first)");
    if (staging == Staging::always) stage();
  }

  const View& view() const { return view_; }
  /// Whether the Buffer has its host mirror (allocated by its first staged transfer, or
  /// by the constructor with Staging::always).
  bool staged() const { return host_.is_allocated(); }
  std::size_t size() const { return view_.span(); }

  /// How this Buffer's transfers with `peer` travel (with every rank of `comm` for peer = -1,
  /// as broadcasts do).
  Transport transport(const Communicator& comm, int peer = -1) const {
    if (staging_ == Staging::always) return Transport::staged;
    return mpi::transport<memory_space>(comm, peer);
  }

  // Each transfer moves the View's first `count` elements in memory order (all of them
  // by default): one Buffer serves messages of varying sizes, e.g. panels of varying width.
  static constexpr std::size_t all = std::size_t(-1);

  /// Sends the View's current contents: the work queued before on the device's blocking
  /// streams is done before they leave (a staged View is copied to the host first).
  Request isend(const Communicator& comm, int dest, int tag, std::size_t count = all) {
    count = checked(count);
    const Transport t = transport(comm, dest);
#if KAPI_MPI_HAS_PEER_TRANSFERS
    if (t == Transport::peer_copies)
      return Request(detail::start_peer_op(std::make_shared<detail::PeerSend>(
          comm.control_p2p(), std::vector<int>{dest}, detail::peer_tag(tag, 0), detail::peer_tag(tag, 1), view_.data(),
          bytes(count), what("a send to rank " + std::to_string(dest)))));
#endif
    if (t == Transport::staged) to_host_mirror(count);
    MPI_Request r = MPI_REQUEST_NULL;
    KAPI_MPI_CHECK(MPI_Isend, mpi_data(t), mpi_count(count), type(), dest, tag, comm.get(), &r);
    return Request(r, nullptr);
  }
  /// Receives into the View; it holds the data once the request's wait() returns.
  Request irecv(const Communicator& comm, int source, int tag, std::size_t count = all) {
    static_assert(!std::is_const_v<value_type>, "kapi::mpi: cannot receive into a View of const elements");
    count = checked(count);
    const Transport t = transport(comm, source);
#if KAPI_MPI_HAS_PEER_TRANSFERS
    if (source == MPI_ANY_SOURCE && staging_ != Staging::always && !host_memory && !device_aware())
      throw mpi_error(comm.rank(), "kapi::mpi::Buffer::irecv", MPI_SUCCESS,
                      "a receive into device memory (the View '" + view_.label() +
                          "') names its source: the sender's rank decides how the data travels");
    if (t == Transport::peer_copies)
      return Request(detail::start_peer_op(std::make_shared<detail::PeerReceive>(
          comm.control_p2p(), source, detail::peer_tag(tag, 0), detail::peer_tag(tag, 1), endpoint(count),
          what("a receive from rank " + std::to_string(source)))));
#endif
    if (t == Transport::staged) stage();
    MPI_Request r = MPI_REQUEST_NULL;
    KAPI_MPI_CHECK(MPI_Irecv, mpi_data(t), mpi_count(count), type(), source, tag, comm.get(), &r);
    return Request(
        r, t == Transport::staged ? std::function<void()>([this, count] { from_host_mirror(count); }) : nullptr);
  }
  /// Broadcast from `root`: the root's View goes to every rank's (MPI_Ibcast, or peer
  /// copies from the root when every rank is on its node).
  Request ibroadcast(const Communicator& comm, int root, std::size_t count = all) {
    static_assert(!std::is_const_v<value_type>, "kapi::mpi: cannot broadcast into a View of const elements");
    count = checked(count);
    const Transport t = transport(comm);
#if KAPI_MPI_HAS_PEER_TRANSFERS
    if (t == Transport::peer_copies) {
      const std::string broadcast = what("a broadcast from rank " + std::to_string(root));
      if (comm.rank() != root)
        return Request(detail::start_peer_op(
            std::make_shared<detail::PeerReceive>(comm.control_broadcast(), root, 0, 1, endpoint(count), broadcast)));
      std::vector<int> others;
      for (int r = 0; r < comm.size(); ++r)
        if (r != root) others.push_back(r);
      return Request(detail::start_peer_op(std::make_shared<detail::PeerSend>(comm.control_broadcast(), others, 0, 1,
                                                                              view_.data(), bytes(count), broadcast)));
    }
#endif
    if (t == Transport::staged) {
      stage();
      if (comm.rank() == root) to_host_mirror(count);
    }
    MPI_Request r = MPI_REQUEST_NULL;
    KAPI_MPI_CHECK(MPI_Ibcast, mpi_data(t), mpi_count(count), type(), root, comm.get(), &r);
    const bool copy_back = t == Transport::staged && comm.rank() != root;
    return Request(r, copy_back ? std::function<void()>([this, count] { from_host_mirror(count); }) : nullptr);
  }

  /// The staging copies of the first `count` elements (nothing when the View has no mirror).
  void to_host(std::size_t count = all) {
    if (staged()) to_host_mirror(count);
  }
  void from_host(std::size_t count = all) {
    if (staged()) from_host_mirror(count);
  }

 private:
  using Host = Kokkos::View<element_type*, StagingSpace>;
  using Flat = Kokkos::View<value_type*, memory_space, Kokkos::MemoryUnmanaged>;
  Flat flat(std::size_t count) const { return Flat(view_.data(), std::min(count, view_.span())); }
  static auto prefix(const Host& h, std::size_t count) {
    return Kokkos::subview(h, std::make_pair(std::size_t(0), std::min(count, h.extent(0))));
  }
  void stage() {
    if (!staged())
      host_ = Host(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kapi::mpi staging " + view_.label()), view_.span());
  }
  void to_host_mirror(std::size_t count) {
    stage();
    Kokkos::deep_copy(prefix(host_, count), flat(count));
  }
  void from_host_mirror(std::size_t count) {
    if constexpr (!std::is_const_v<value_type>) Kokkos::deep_copy(flat(count), prefix(host_, count));
  }
  value_type* mpi_data(Transport t) const { return t == Transport::staged ? host_.data() : view_.data(); }
  std::size_t bytes(std::size_t count) const { return count * sizeof(element_type); }
  std::string what(const std::string& transfer) const {
    return "kapi::mpi::Buffer of the View '" + view_.label() + "', " + transfer;
  }
#if KAPI_MPI_HAS_PEER_TRANSFERS
  detail::PeerEndpoint endpoint(std::size_t count) {
    if (!export_) export_ = detail::peer_export(view_.data());
    return export_->post(view_.data(), bytes(count));
  }
  std::shared_ptr<detail::PeerExport> export_;
#endif
  std::size_t checked(std::size_t count) const {
    if (count == all) return view_.span();
    if (count > view_.span())
      throw mpi_error(detail::world_rank(), "kapi::mpi::Buffer", MPI_SUCCESS,
                      "a transfer of " + std::to_string(count) + " elements from the View '" + view_.label() + "' of " +
                          std::to_string(view_.span()));
    return count;
  }
  int mpi_count(std::size_t count) const {
    const int n = detail::message_count(count, detail::Datatype<element_type>::scale);
    if (n < 0)
      throw mpi_error(detail::world_rank(), "kapi::mpi::Buffer", MPI_SUCCESS,
                      "a transfer of " + std::to_string(count) + " elements of the View '" + view_.label() +
                          "' is more than one MPI message's int count allows; split it");
    return n;
  }
  static MPI_Datatype type() { return detail::Datatype<element_type>::type(); }

  View view_;
  Staging staging_ = Staging::automatic;
  Host host_;
};

/// Blocking transfers of a whole contiguous View (staged through a temporary mirror when
/// MPI cannot read its memory; keep a Buffer for repeated transfers).
template <class View>
void send(const Communicator& comm, const View& view, int dest, int tag) {
  Buffer<View>(view).isend(comm, dest, tag).wait();
}
template <class View>
void recv(const Communicator& comm, const View& view, int source, int tag) {
  Buffer<View>(view).irecv(comm, source, tag).wait();
}
template <class SendView, class RecvView>
void sendrecv(const Communicator& comm, const SendView& out, int dest, const RecvView& in, int source, int tag) {
  Buffer<SendView> s(out);
  Buffer<RecvView> r(in);
  auto rr = r.irecv(comm, source, tag);
  auto sr = s.isend(comm, dest, tag);
  sr.wait();
  rr.wait();
}
template <class View>
void broadcast(const Communicator& comm, const View& view, int root) {
  Buffer<View>(view).ibroadcast(comm, root).wait();
}

/// Every rank's `mine`, concatenated in rank order, on every rank (MPI_Allgatherv).
/// A contribution too large for MPI's int counts is an error on every rank (each rank
/// learns every count first: no rank is left waiting in the collective).
template <class T>
std::vector<T> all_gather(const Communicator& comm, const std::vector<T>& mine) {
  using D = detail::Datatype<T>;
  const int scale = D::scale;
  const int n = detail::message_count(mine.size(), scale);  // -1: too large
  std::vector<int> counts(std::size_t(comm.size())), offsets(std::size_t(comm.size()), 0);
  KAPI_MPI_CHECK(MPI_Allgather, &n, 1, MPI_INT, counts.data(), 1, MPI_INT, comm.get());
  for (std::size_t r = 0; r < counts.size(); ++r)
    if (counts[r] < 0)
      throw mpi_error(comm.rank(), "MPI_Allgatherv", MPI_SUCCESS,
                      "rank " + std::to_string(r) + "'s contribution" +
                          (int(r) == comm.rank() ? " of " + std::to_string(mine.size()) + " elements" : std::string()) +
                          " is more than one MPI message's int count allows");
  long long total = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    if (total > std::numeric_limits<int>::max())
      throw mpi_error(comm.rank(), "MPI_Allgatherv", MPI_SUCCESS, "more than 2^31 elements gathered");
    offsets[r] = int(total);
    total += counts[r];
  }
  std::vector<T> all(std::size_t(total / scale));
  KAPI_MPI_CHECK(MPI_Allgatherv, mine.data(), n, D::type(), all.data(), counts.data(), offsets.data(), D::type(),
                 comm.get());
  return all;
}

/// Every rank's text, in rank order, on every rank.
inline std::vector<std::string> all_gather_text(const Communicator& comm, const std::string& mine) {
  const auto lengths = all_gather(comm, std::vector<std::uint64_t>{mine.size()});
  const auto chars = all_gather(comm, std::vector<char>(mine.begin(), mine.end()));
  std::vector<std::string> texts;
  std::size_t at = 0;
  for (const std::uint64_t length : lengths) {
    texts.emplace_back(chars.begin() + std::ptrdiff_t(at), chars.begin() + std::ptrdiff_t(at + length));
    at += length;
  }
  return texts;
}

/// op over every rank's value, combined left to right in rank order on every rank:
/// the same bits whatever the timing (MPI_Allreduce promises no order).
template <class T, class Op>
T ordered_reduce(const Communicator& comm, const T& value, const Op& op) {
  const auto all = all_gather(comm, std::vector<T>{value});
  T result = all[0];
  for (std::size_t r = 1; r < all.size(); ++r) result = op(result, all[r]);
  return result;
}

}  // namespace kapi::mpi
