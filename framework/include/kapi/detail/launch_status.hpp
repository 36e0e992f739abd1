// SPDX-License-Identifier: Apache-2.0
#pragma once
// Errors a kernel causes while it runs on host threads, reported after the launch: the
// first model violation or escaping exception wins. A failed launch whose event nobody
// waited on is kept as unreported and thrown at the next synchronisation (KernelEvent::
// wait, call_kernel) or printed when Kokkos finalizes: never silently lost. Compiled in
// the runtime (src/launch_status.cpp).
#include <atomic>
#include <cstddef>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace kapi::detail {

struct LaunchStatus {
  std::atomic<bool> failed{false};
  std::atomic<bool> reported{false};  // raised once by a wait, or printed at finalize
  /// Host backends: which engines ran the launch's groups with barriers (host_engine_*).
  std::atomic<unsigned> host_engines{0};
  static constexpr unsigned host_engine_loops = 1, host_engine_fibers = 2;
  void note_host_engine(unsigned engine) {  // read first: no shared writes once set
    if (!(host_engines.load(std::memory_order_relaxed) & engine))
      host_engines.fetch_or(engine, std::memory_order_relaxed);
  }

  void fail(const std::string& what) { fail_with(nullptr, what); }
  /// An exception escaped the kernel at `where`.
  void fail_with(std::exception_ptr error, const std::string& where);
  /// An exception escaped work-item `id` of a range kernel over `range` (`dimensions` each).
  void fail_in_range_item(std::exception_ptr error, const std::size_t* id, const std::size_t* range,
                          std::size_t dimensions);

  /// Throws the failure, if any: launch_error, with an escaped exception nested in it.
  void raise() {
    if (failed.load(std::memory_order_acquire)) raise_failure();
  }
  std::string message() const;

 private:
  [[noreturn]] void raise_failure();
  mutable std::mutex mutex_;
  std::exception_ptr exception_;
  std::string message_;
};

/// Failed launches whose events were dropped without a wait.
struct UnreportedLaunches {
  /// Called when an event is dropped: keeps its status if it failed and was not raised.
  static void keep_if_failed(const std::shared_ptr<LaunchStatus>& status);
  /// Takes every kept failure (oldest first).
  static std::vector<std::shared_ptr<LaunchStatus>> take();
};

}  // namespace kapi::detail
