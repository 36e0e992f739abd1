// SPDX-License-Identifier: Apache-2.0
#pragma once
// Stacks for work-item contexts on host backends, one pool per host thread, reused by
// every group the thread runs. A pool is one mapping holding, per work-item, a guard
// region below a stack:
//
//   [guard 64 KiB][stack i, top staggered][guard][stack i+1] ...
//
// Guards are installed with MADV_GUARD_INSTALL where the kernel has it (Linux >= 6.13):
// they cost no extra memory mapping, so 128 threads x 1024 work-items fit in any process.
// Elsewhere they are PROT_NONE pages, two mappings per stack; the pool then checks the
// process' vm.max_map_count budget first and reports what is missing instead of running
// with stacks that have no guard. Every mmap/madvise/mprotect result is checked.
// Stack tops are staggered by work-item so the hot top frames of a group's contexts do
// not all fall into the same cache sets. Compiled in the runtime (src/host/stack_pool.cpp).
#include <cstddef>
#include <string>

namespace kapi::detail {

class HostStackPool {
 public:
  static constexpr std::size_t guard_bytes = std::size_t(64) << 10;
  static constexpr std::size_t stagger_bytes = 4096;  // tops move by 256 bytes per work-item, within a page

  HostStackPool() = default;
  HostStackPool(const HostStackPool&) = delete;
  HostStackPool& operator=(const HostStackPool&) = delete;
  ~HostStackPool() { release(); }

  /// Makes room for `count` stacks of `stack_bytes` each (at least). Returns an empty
  /// string on success, else what the system refused, with the numbers.
  std::string reserve(std::size_t count, std::size_t stack_bytes);

  /// Stack i: [bottom(i), bottom(i) + size(i)); contexts start at its top.
  char* bottom(std::size_t i) const { return base_ + i * stride_ + guard_bytes; }
  std::size_t size(std::size_t i) const { return stack_bytes_ + stagger_bytes - stagger(i); }
  char* top(std::size_t i) const { return bottom(i) + size(i); }
  std::size_t capacity() const { return capacity_; }
  /// Changes whenever reserve() maps new stacks (contexts on the old ones are gone).
  std::size_t mapping() const { return mappings_; }

  static HostStackPool& this_thread();

  /// Whether guard regions cost no mapping here (MADV_GUARD_INSTALL works, and
  /// KAPI_HOST_STACK_GUARDS=mprotect does not ask for the portable kind).
  static bool lightweight_guards();

 private:
  static std::size_t stagger(std::size_t i) { return (i * 256) % stagger_bytes; }
  std::string install_guard(char* guard);
  void release();

  char* base_ = nullptr;
  std::size_t bytes_ = 0, stride_ = 0, capacity_ = 0, stack_bytes_ = 0, mappings_ = 0;
};

}  // namespace kapi::detail
