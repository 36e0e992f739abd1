// SPDX-License-Identifier: Apache-2.0
#pragma once
// Kokkos Views over MPI. A contiguous View of any memory space goes to MPI directly when
// MPI can read it (host memory; device memory with a CUDA-aware library,
// kapi::mpi::device_aware()), else through a host mirror in pinned memory
// (Kokkos::CudaHostPinnedSpace on CUDA builds): copied there before a send, back after a
// receive.
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
#include <exception>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "communicator.hpp"
#include "detail/datatype.hpp"
#include "detail/device_aware.hpp"
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

/// When a Buffer stages: `automatic` only when MPI cannot read the View's memory;
/// `always` also for host memory (exercises the staging path on host-only builds).
enum class Staging { automatic, always };

/// A transfer in flight. wait() completes it (a staged receive is copied into its View
/// then) and throws mpi_error if it failed; a Request destroyed unfinished is waited for.
class Request {
 public:
  Request() = default;
  Request(MPI_Request r, std::function<void()> on_done) : request_(r), on_done_(std::move(on_done)) {}
  Request(Request&& o) noexcept
      : request_(std::exchange(o.request_, MPI_REQUEST_NULL)), on_done_(std::move(o.on_done_)) {}
  Request& operator=(Request&& o) noexcept {
    if (this != &o) {
      finish_quietly();
      request_ = std::exchange(o.request_, MPI_REQUEST_NULL);
      on_done_ = std::move(o.on_done_);
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
  /// Completes the MPI transfer only; the staged copy waits for the next wait().
  void wait_transfer() {
    if (request_ != MPI_REQUEST_NULL) KAPI_MPI_CHECK(MPI_Wait, &request_, MPI_STATUS_IGNORE);
  }
  bool pending() const noexcept { return request_ != MPI_REQUEST_NULL || bool(on_done_); }

 private:
  void finish_quietly() noexcept {
    if (request_ != MPI_REQUEST_NULL) MPI_Wait(&request_, MPI_STATUS_IGNORE);
    on_done_ = nullptr;
  }
  MPI_Request request_ = MPI_REQUEST_NULL;
  std::function<void()> on_done_;
};

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
  explicit Buffer(const View& view, Staging staging = Staging::automatic) : view_(view) {
    static_assert(Kokkos::is_view<View>::value, "kapi::mpi::Buffer takes a Kokkos::View");
    if (!view.span_is_contiguous())
      throw mpi_error(detail::world_rank(), "kapi::mpi::Buffer", MPI_SUCCESS,
                      "the View '" + view.label() +
                          "' is not contiguous; MPI transfers need contiguous Views "
                          "(copy a strided subview into a contiguous one first)");
    if (staging == Staging::always || (!host_memory && !device_aware()))
      host_ = Host(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kapi::mpi staging " + view.label()), view.span());
  }

  const View& view() const { return view_; }
  bool staged() const { return host_.is_allocated(); }
  std::size_t size() const { return view_.span(); }

  // Each transfer moves the View's first `count` elements in memory order (all of them
  // by default): one Buffer serves messages of varying sizes, e.g. panels of varying width.
  static constexpr std::size_t all = std::size_t(-1);

  /// Sends the View's current contents (a staged View is copied to the host first).
  Request isend(const Communicator& comm, int dest, int tag, std::size_t count = all) {
    count = checked(count);
    to_host(count);
    MPI_Request r = MPI_REQUEST_NULL;
    KAPI_MPI_CHECK(MPI_Isend, mpi_data(), mpi_count(count), type(), dest, tag, comm.get(), &r);
    return Request(r, nullptr);
  }
  /// Receives into the View; it holds the data once the request's wait() returns.
  Request irecv(const Communicator& comm, int source, int tag, std::size_t count = all) {
    static_assert(!std::is_const_v<value_type>, "kapi::mpi: cannot receive into a View of const elements");
    count = checked(count);
    MPI_Request r = MPI_REQUEST_NULL;
    KAPI_MPI_CHECK(MPI_Irecv, mpi_data(), mpi_count(count), type(), source, tag, comm.get(), &r);
    return Request(r, staged() ? std::function<void()>([this, count] { from_host(count); }) : nullptr);
  }
  /// MPI_Ibcast from `root`: the root's View goes to every rank's.
  Request ibroadcast(const Communicator& comm, int root, std::size_t count = all) {
    static_assert(!std::is_const_v<value_type>, "kapi::mpi: cannot broadcast into a View of const elements");
    count = checked(count);
    if (comm.rank() == root) to_host(count);
    MPI_Request r = MPI_REQUEST_NULL;
    KAPI_MPI_CHECK(MPI_Ibcast, mpi_data(), mpi_count(count), type(), root, comm.get(), &r);
    const bool copy_back = staged() && comm.rank() != root;
    return Request(r, copy_back ? std::function<void()>([this, count] { from_host(count); }) : nullptr);
  }

  /// The staging copies of the first `count` elements (nothing when the View is not staged).
  void to_host(std::size_t count = all) {
    if (staged()) Kokkos::deep_copy(prefix(host_, count), flat(count));
  }
  void from_host(std::size_t count = all) {
    if constexpr (!std::is_const_v<value_type>)
      if (staged()) Kokkos::deep_copy(flat(count), prefix(host_, count));
  }

 private:
  using Host = Kokkos::View<element_type*, StagingSpace>;
  using Flat = Kokkos::View<value_type*, memory_space, Kokkos::MemoryUnmanaged>;
  Flat flat(std::size_t count) const { return Flat(view_.data(), std::min(count, view_.span())); }
  static auto prefix(const Host& h, std::size_t count) {
    return Kokkos::subview(h, std::make_pair(std::size_t(0), std::min(count, h.extent(0))));
  }
  value_type* mpi_data() const { return staged() ? host_.data() : view_.data(); }
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
