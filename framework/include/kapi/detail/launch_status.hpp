#pragma once
// Errors a kernel causes while it runs on host threads, reported after the launch: the
// first model violation or escaping exception wins. A failed launch whose event nobody
// waited on is kept as unreported and thrown at the next synchronisation (KernelEvent::
// wait, call_kernel) or printed when Kokkos finalizes: never silently lost.
#include <atomic>
#include <cstdio>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <kapi/config.hpp>
#include <kapi/errors.hpp>

namespace kapi::detail {

struct LaunchStatus {
  std::atomic<bool> failed{false};
  std::atomic<bool> reported{false};  // raised once by a wait, or printed at finalize

  void fail(const std::string& what) { fail_with(nullptr, what); }
  /// An exception escaped the kernel at `where`.
  void fail_with(std::exception_ptr error, const std::string& where) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (failed.load(std::memory_order_relaxed)) return;
    exception_ = error;
    message_ = error ? "an exception escaped the kernel in " + where + ": " + describe(error) +
                           ". Kernels must not throw (device backends cannot; on host backends the launch "
                           "stops the work-group and reports it here, the exception nested)"
                     : where;
    failed.store(true, std::memory_order_release);
  }

  /// Throws the failure, if any: launch_error, with an escaped exception nested in it.
  void raise() {
    if (!failed.load(std::memory_order_acquire)) return;
    reported.store(true);
    std::lock_guard<std::mutex> lock(mutex_);
    if (!exception_) throw launch_error(message_);
    try {
      std::rethrow_exception(exception_);
    } catch (...) {
      std::throw_with_nested(launch_error(message_));
    }
  }
  std::string message() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return message_;
  }

 private:
  static std::string describe(const std::exception_ptr& error) {
    try {
      std::rethrow_exception(error);
    } catch (const std::exception& e) {
      return std::string("'") + e.what() + "'";
    } catch (...) {
      return "an exception not derived from std::exception";
    }
  }
  mutable std::mutex mutex_;
  std::exception_ptr exception_;
  std::string message_;
};

/// Failed launches whose events were dropped without a wait.
class UnreportedLaunches {
 public:
  /// Called when an event is dropped: keeps its status if it failed and was not raised.
  static void keep_if_failed(const std::shared_ptr<LaunchStatus>& status) {
    if (!status || !status->failed || status->reported) return;
    static std::once_flag hook;
    std::call_once(hook, [] { Kokkos::push_finalize_hook(&print_at_finalize); });
    auto& self = instance();
    std::lock_guard<std::mutex> lock(self.mutex_);
    self.statuses_.push_back(status);
    self.any_.store(true, std::memory_order_release);
  }
  /// Takes every kept failure (oldest first).
  static std::vector<std::shared_ptr<LaunchStatus>> take() {
    auto& self = instance();
    if (!self.any_.load(std::memory_order_acquire)) return {};
    std::lock_guard<std::mutex> lock(self.mutex_);
    std::vector<std::shared_ptr<LaunchStatus>> taken;
    taken.swap(self.statuses_);
    self.any_.store(false, std::memory_order_release);
    return taken;
  }

 private:
  static void print_at_finalize() {
    for (const auto& status : take())
      std::fprintf(stderr, "kapi: a launch whose event was never waited on failed: %s\n", status->message().c_str());
  }
  static UnreportedLaunches& instance() {
    static UnreportedLaunches self;
    return self;
  }
  std::mutex mutex_;
  std::atomic<bool> any_{false};
  std::vector<std::shared_ptr<LaunchStatus>> statuses_;
};

}  // namespace kapi::detail
