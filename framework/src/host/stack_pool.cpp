// SPDX-License-Identifier: Apache-2.0
#include <kapi/host/detail/stack_pool.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <thread>

#include "stack_overflow.hpp"

#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102  // Linux 6.13 uapi; older kernels answer EINVAL
#endif

namespace kapi::detail {
namespace {

std::size_t max_map_count() {
  std::ifstream in("/proc/sys/vm/max_map_count");
  std::size_t n = 65530;
  if (!(in >> n)) n = 65530;
  return n;
}

std::size_t current_mappings() {
  std::FILE* f = std::fopen("/proc/self/maps", "r");
  if (!f) return 0;
  std::size_t lines = 0;
  for (int c; (c = std::fgetc(f)) != EOF;) lines += c == '\n';
  std::fclose(f);
  return lines;
}

std::mutex& growth_mutex() {
  static std::mutex m;
  return m;
}

// Without lightweight guards every stack costs two mappings: they must fit in the
// process' budget (vm.max_map_count less what is mapped now, less headroom for the rest
// of the program).
std::string check_mapping_budget(std::size_t vmas, std::size_t stacks) {
  const std::size_t limit = max_map_count(), headroom = std::max<std::size_t>(1024, limit / 8);
  const std::size_t mapped = current_mappings();
  const std::size_t left = mapped + headroom < limit ? limit - mapped - headroom : 0;
  if (vmas <= left) return {};
  return "work-groups of up to " + std::to_string(stacks) + " work-items with barriers need " + std::to_string(vmas) +
         " memory mappings for guarded work-item stacks on this host thread, but only " + std::to_string(left) +
         " of the process' limit of " + std::to_string(limit) + " (vm.max_map_count; " + std::to_string(mapped) +
         " in use) are left, and MADV_GUARD_INSTALL does not work here (Linux 6.13 or newer, "
         "not under an emulator, needs no extra mappings). Raise the limit (sysctl -w "
         "vm.max_map_count=" +
         std::to_string(mapped + headroom + vmas * std::max(1u, std::thread::hardware_concurrency())) +
         "), run fewer host threads, use smaller work-groups, or write the kernel in the phased form";
}

}  // namespace

std::string HostStackPool::reserve(std::size_t count, std::size_t stack_bytes) {
  if (count <= capacity_ && stack_bytes == stack_bytes_) return {};
  release();
  std::size_t want = 1;
  while (want < count) want *= 2;
  const std::size_t stride = guard_bytes + stack_bytes + stagger_bytes, bytes = want * stride;
  // Without lightweight guards, growing pools take turns: each counts the process'
  // mappings before adding its own.
  std::unique_lock<std::mutex> turn(growth_mutex(), std::defer_lock);
  if (!lightweight_guards()) {
    turn.lock();
    const std::string refused = check_mapping_budget(2 * want + 1, want);
    if (!refused.empty()) return refused;
  }
  void* base = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (base == MAP_FAILED)
    return "could not reserve " + std::to_string(bytes) + " bytes of address space for " + std::to_string(want) +
           " work-item stacks of " + std::to_string(stack_bytes) + " bytes (mmap: " + std::strerror(errno) +
           "); lower KAPI_HOST_STACK_BYTES, use smaller work-groups or fewer host threads";
  base_ = static_cast<char*>(base);
  ++mappings_;
  bytes_ = bytes;
  stride_ = stride;
  capacity_ = want;
  stack_bytes_ = stack_bytes;
  for (std::size_t i = 0; i < want; ++i) {
    const std::string refused = install_guard(base_ + i * stride_);
    if (!refused.empty()) {
      release();
      return refused;
    }
  }
  stack_overflow::add_pool(base_, bytes_);
  return {};
}

HostStackPool& HostStackPool::this_thread() {
  static thread_local HostStackPool pool;
  return pool;
}

bool HostStackPool::lightweight_guards() {
  static const bool works = [] {
    const char* kind = std::getenv("KAPI_HOST_STACK_GUARDS");
    if (kind && std::strcmp(kind, "mprotect") == 0) return false;
    const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    void* probe = ::mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (probe == MAP_FAILED) return false;
    bool ok = ::madvise(probe, page, MADV_GUARD_INSTALL) == 0;
    // A guard must also stop a read: qemu-user accepts advice it does not know and ignores
    // it. The kernel reading the page for write(2) fails with EFAULT if the guard is there.
    int fds[2];
    if (ok && ::pipe(fds) == 0) {
      ok = ::write(fds[1], probe, 1) < 0 && errno == EFAULT;
      ::close(fds[0]);
      ::close(fds[1]);
    }
    ::munmap(probe, 2 * page);
    return ok;
  }();
  return works;
}

std::string HostStackPool::install_guard(char* guard) {
  const int rc = lightweight_guards() ? ::madvise(guard, guard_bytes, MADV_GUARD_INSTALL)
                                      : ::mprotect(guard, guard_bytes, PROT_NONE);
  if (rc == 0) return {};
  return std::string("could not install the guard region below a work-item stack (") +
         (lightweight_guards() ? "madvise" : "mprotect") + ": " + std::strerror(errno) +
         "); a work-item stack without one could be overrun silently, so the group does not run";
}

void HostStackPool::release() {
  if (!base_) return;
  stack_overflow::remove_pool(base_);
  ::munmap(base_, bytes_);
  base_ = nullptr;
  capacity_ = stack_bytes_ = bytes_ = 0;
}

}  // namespace kapi::detail
