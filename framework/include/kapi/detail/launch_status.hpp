#pragma once
// Errors a kernel causes while it runs on host threads, reported after the launch.
#include <atomic>
#include <string>

namespace kapi::detail {

struct LaunchStatus {
  std::atomic<bool> failed{false};
  std::string message;  // written once, by the thread that set `failed`

  void fail(const std::string& what) {
    bool expected = false;
    if (failed.compare_exchange_strong(expected, true)) message = what;
  }
};

}  // namespace kapi::detail
