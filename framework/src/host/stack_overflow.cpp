// SPDX-License-Identifier: Apache-2.0
#include "stack_overflow.hpp"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <mutex>

namespace kapi::detail {

HostWorkItemInfo& host_work_item_info() {
  static thread_local HostWorkItemInfo info;
  return info;
}

namespace {

constexpr std::size_t max_pools = 4096;
struct Range {
  std::atomic<std::uintptr_t> begin{0}, end{0};
};
Range (&pools())[max_pools] {
  static Range ranges[max_pools];
  return ranges;
}
struct sigaction& previous() {
  static struct sigaction action;
  return action;
}

void on_fault(int sig, siginfo_t* info, void* context);

void install_handler() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction action = {};
    action.sa_sigaction = &on_fault;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGSEGV, &action, &previous());
  });
}

// sigaltstack is per thread; the stack is freed when the thread ends.
void install_alternate_stack() {
  struct AlternateStack {
    void* memory = nullptr;
    std::size_t bytes = 0;
    AlternateStack() {
      stack_t current = {};
      if (::sigaltstack(nullptr, &current) == 0 && !(current.ss_flags & SS_DISABLE)) return;  // the user's
      bytes = std::size_t(64) << 10;
      memory = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (memory == MAP_FAILED) {
        memory = nullptr;
        return;
      }
      stack_t s = {};
      s.ss_sp = memory;
      s.ss_size = bytes;
      if (::sigaltstack(&s, nullptr) != 0) {
        ::munmap(memory, bytes);
        memory = nullptr;
      }
    }
    ~AlternateStack() {
      if (!memory) return;
      stack_t off = {};
      off.ss_flags = SS_DISABLE;
      ::sigaltstack(&off, nullptr);
      ::munmap(memory, bytes);
    }
  };
  static thread_local AlternateStack stack;
  (void)stack;
}

bool in_pool(std::uintptr_t address) {
  for (auto& p : pools()) {
    const std::uintptr_t b = p.begin.load(std::memory_order_relaxed);
    if (b && address >= b && address < p.end.load(std::memory_order_relaxed)) return true;
  }
  return false;
}

// Async-signal-safe output: write(2) and hand-made number formatting only.
void put(const char* s) {
  std::size_t n = 0;
  while (s[n]) ++n;
  while (n > 0) {
    const ssize_t w = ::write(STDERR_FILENO, s, n);
    if (w <= 0) return;
    s += w;
    n -= static_cast<std::size_t>(w);
  }
}
void put(std::size_t v) {
  char digits[24];
  int i = 23;
  digits[i] = '\0';
  do {
    digits[--i] = char('0' + v % 10);
    v /= 10;
  } while (v && i > 0);
  put(digits + i);
}

void on_fault(int sig, siginfo_t* info, void* context) {
  const auto address = reinterpret_cast<std::uintptr_t>(info->si_addr);
  if (in_pool(address)) {
    const HostWorkItemInfo& w = host_work_item_info();
    put("kapi: stack overflow in work-item ");
    put(w.item);
    put(" of work-group ");
    put(w.group);
    put(": its frame is larger than the ");
    put(w.stack_bytes);
    put("-byte stack each work-item context gets on a host backend (KAPI_HOST_STACK_BYTES). "
        "Set KAPI_HOST_STACK_BYTES to a larger value (up to 64M), or keep large arrays out of the "
        "work-item's frame (a LocalAccessor or a View).\n");
    ::signal(SIGSEGV, SIG_DFL);  // returning re-runs the access: the default action ends the process
    return;
  }
  const struct sigaction& before = previous();
  if (before.sa_flags & SA_SIGINFO) {
    if (before.sa_sigaction) before.sa_sigaction(sig, info, context);
  } else if (before.sa_handler != SIG_DFL && before.sa_handler != SIG_IGN) {
    before.sa_handler(sig);
  } else {
    ::signal(SIGSEGV, SIG_DFL);  // a fault cannot be ignored: the default action
  }
}

}  // namespace

namespace stack_overflow {

void add_pool(const void* begin, std::size_t bytes) {
  install_handler();
  install_alternate_stack();
  const auto b = reinterpret_cast<std::uintptr_t>(begin);
  for (auto& p : pools()) {
    std::uintptr_t expected = 0;
    if (p.begin.compare_exchange_strong(expected, b)) {
      p.end.store(b + bytes);
      return;
    }
  }
  // More pools than slots: faults there still end the process, without the message.
}

void remove_pool(const void* begin) {
  const auto b = reinterpret_cast<std::uintptr_t>(begin);
  for (auto& p : pools())
    if (p.begin.load() == b) {
      p.end.store(0);
      p.begin.store(0);
      return;
    }
}

}  // namespace stack_overflow
}  // namespace kapi::detail
