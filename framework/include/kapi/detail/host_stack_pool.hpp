#pragma once
// Stacks for work-item contexts on host backends: mmap'd with a guard page below each,
// kept per host thread and reused by every group that thread runs, so a barrier kernel
// pays for a stack once per thread and not once per work-item launch.
#include <sys/mman.h>
#include <unistd.h>

#include <boost/context/stack_context.hpp>
#include <cstddef>
#include <cstdlib>
#include <new>
#include <vector>

#include "sanitizer.hpp"

namespace kapi::detail {

/// Bytes of stack each work-item context gets on a host backend. Default 128 KiB, enough
/// for kernels with a few KiB of PrivateArray; KAPI_HOST_STACK_BYTES overrides it.
inline std::size_t host_stack_bytes() {
  static const std::size_t bytes = [] {
    const char* env = std::getenv("KAPI_HOST_STACK_BYTES");
    const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    std::size_t b = env ? std::strtoull(env, nullptr, 10) : std::size_t(128) << 10;
    if (b < 4 * page) b = 4 * page;
    return (b + page - 1) / page * page;
  }();
  return bytes;
}

class HostStackPool {
 public:
  ~HostStackPool() {
    for (auto& s : free_) ::munmap(static_cast<char*>(s.sp) - s.size - guard(), s.size + guard());
  }

  boost::context::stack_context allocate() {
    if (!free_.empty()) {
      auto s = free_.back();
      free_.pop_back();
      asan_unpoison(static_cast<char*>(s.sp) - s.size, s.size);
      return s;
    }
    const std::size_t size = host_stack_bytes();
    void* base = ::mmap(nullptr, size + guard(), PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED) throw std::bad_alloc();
    ::mprotect(base, guard(), PROT_NONE);  // a stack overflow faults instead of corrupting
    boost::context::stack_context s;
    s.size = size;
    s.sp = static_cast<char*>(base) + guard() + size;
    return s;
  }
  void release(boost::context::stack_context& s) { free_.push_back(s); }

  static HostStackPool& this_thread() {
    thread_local HostStackPool pool;
    return pool;
  }

 private:
  static std::size_t guard() { return static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)); }
  std::vector<boost::context::stack_context> free_;
};

/// Boost.Context StackAllocator over the calling thread's pool. `placed` (optional)
/// learns where the stack is, for the sanitizer's stack-switch hooks.
struct PooledStackAllocator {
  HostStackPool* pool;
  boost::context::stack_context* placed = nullptr;
  boost::context::stack_context allocate() {
    auto s = pool->allocate();
    if (placed) *placed = s;
    return s;
  }
  void deallocate(boost::context::stack_context& s) noexcept { pool->release(s); }
};

}  // namespace kapi::detail
