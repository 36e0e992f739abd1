// SPDX-License-Identifier: Apache-2.0
#pragma once
// AddressSanitizer hooks for the host work-item contexts (the runtime's own header). ASan tracks one stack per
// thread; when a thread jumps onto a context's stack it must be told (the fiber-switch
// API), or it reports false stack errors and loses track of fake stacks. Without ASan
// every hook compiles to nothing.
#include <cstddef>

#ifndef KAPI_ASAN  // predefine KAPI_ASAN=0 to leave the hooks out
#if defined(__SANITIZE_ADDRESS__)
#define KAPI_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KAPI_ASAN 1
#endif
#endif
#endif
#ifndef KAPI_ASAN
#define KAPI_ASAN 0
#endif

#if KAPI_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

namespace kapi::detail {

/// Whether the hooks do anything (arguments only they need are computed only then).
inline constexpr bool asan_enabled = KAPI_ASAN != 0;

/// Call right before jumping to the stack [bottom, bottom + size). `fake_stack_save`
/// keeps the leaving context's fake stack; nullptr says the leaving context ends.
inline void asan_start_switch(void** fake_stack_save, const void* bottom, std::size_t size) {
#if KAPI_ASAN
  __sanitizer_start_switch_fiber(fake_stack_save, bottom, size);
#else
  (void)fake_stack_save, (void)bottom, (void)size;
#endif
}

/// Call first thing after arriving on a stack; `fake_stack` is what this context saved
/// when it left (nullptr on its first entry). Optionally learns the stack just left.
inline void asan_finish_switch(void* fake_stack, const void** bottom_old = nullptr, std::size_t* size_old = nullptr) {
#if KAPI_ASAN
  __sanitizer_finish_switch_fiber(fake_stack, bottom_old, size_old);
#else
  (void)fake_stack, (void)bottom_old, (void)size_old;
#endif
}

/// A reused context stack may still carry poison from frames of its last context that
/// never returned (the context's entry frame ends with a jump); clear it.
inline void asan_unpoison(const void* memory, std::size_t size) {
#if KAPI_ASAN
  __asan_unpoison_memory_region(memory, size);
#else
  (void)memory, (void)size;
#endif
}

}  // namespace kapi::detail
