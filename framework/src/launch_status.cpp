// SPDX-License-Identifier: Apache-2.0
#include <kapi/detail/launch_status.hpp>

#include <cstdio>

#include <Kokkos_Core.hpp>
#include <kapi/errors.hpp>

namespace kapi::detail {
namespace {

std::string describe(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    return std::string("'") + e.what() + "'";
  } catch (...) {
    return "an exception not derived from std::exception";
  }
}

struct Unreported {
  std::mutex mutex;
  std::atomic<bool> any{false};
  std::vector<std::shared_ptr<LaunchStatus>> statuses;
};

Unreported& unreported() {
  static Unreported self;
  return self;
}

void print_at_finalize() {
  for (const auto& status : UnreportedLaunches::take())
    std::fprintf(stderr, "kapi: a launch whose event was never waited on failed: %s\n", status->message().c_str());
}

}  // namespace

void LaunchStatus::fail_in_range_item(std::exception_ptr error, const std::size_t* id, const std::size_t* range,
                                      std::size_t dimensions) {
  fail_with(error,
            "work-item " + format_extents(id, dimensions) + " of the range " + format_extents(range, dimensions));
}

void LaunchStatus::fail_with(std::exception_ptr error, const std::string& where) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (failed.load(std::memory_order_relaxed)) return;
  exception_ = error;
  message_ = error ? "an exception escaped the kernel in " + where + ": " + describe(error) +
                         ". Kernels must not throw (device backends cannot; on host backends the launch "
                         "stops the work-group and reports it here, the exception nested)"
                   : where;
  failed.store(true, std::memory_order_release);
}

void LaunchStatus::raise_failure() {
  reported.store(true);
  std::lock_guard<std::mutex> lock(mutex_);
  if (!exception_) throw launch_error(message_);
  try {
    std::rethrow_exception(exception_);
  } catch (...) {
    std::throw_with_nested(launch_error(message_));
  }
}

std::string LaunchStatus::message() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return message_;
}

void UnreportedLaunches::keep_if_failed(const std::shared_ptr<LaunchStatus>& status) {
  if (!status || !status->failed || status->reported) return;
  static std::once_flag hook;
  std::call_once(hook, [] { Kokkos::push_finalize_hook(&print_at_finalize); });
  Unreported& self = unreported();
  std::lock_guard<std::mutex> lock(self.mutex);
  self.statuses.push_back(status);
  self.any.store(true, std::memory_order_release);
}

std::vector<std::shared_ptr<LaunchStatus>> UnreportedLaunches::take() {
  Unreported& self = unreported();
  if (!self.any.load(std::memory_order_acquire)) return {};
  std::lock_guard<std::mutex> lock(self.mutex);
  std::vector<std::shared_ptr<LaunchStatus>> taken;
  taken.swap(self.statuses);
  self.any.store(false, std::memory_order_release);
  return taken;
}

}  // namespace kapi::detail
