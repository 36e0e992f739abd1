// SPDX-License-Identifier: Apache-2.0
#pragma once
// Turns a work-item stack overflow into a message (the runtime's own header). Every
// context stack sits above a guard region (stack_pool.cpp) and code using kapi is built
// with stack-clash protection, so an overflowing frame faults in a guard instead of
// writing into a neighbour. A SIGSEGV handler, run on an alternate signal stack (the
// faulting stack is exhausted), recognises a fault inside a registered pool, prints which
// work-item overflowed and what to change, and lets the default action end the process.
// Faults elsewhere go to the handler that was installed before (ASan's, a debugger's, ...).
#include <cstddef>

namespace kapi::detail {

/// What the fault message reports about the work-item running on this thread.
struct HostWorkItemInfo {
  std::size_t group = 0, item = 0, stack_bytes = 0;
  bool in_context = false;
};

HostWorkItemInfo& host_work_item_info();

namespace stack_overflow {
/// Registers [begin, begin + bytes) (a pool's whole mapping) and makes sure the handler
/// and this thread's alternate signal stack are in place.
void add_pool(const void* begin, std::size_t bytes);
void remove_pool(const void* begin);
}  // namespace stack_overflow

}  // namespace kapi::detail
