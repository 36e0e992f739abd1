// SPDX-License-Identifier: Apache-2.0
#pragma once
// Switching between work-item contexts on a host thread (the runtime's own header, not
// installed): a context is the stack pointer where a suspended context saved its
// callee-saved registers.
//
// On x86-64 (System V) and aarch64 (AAPCS64) Linux the switch is kapi's own (context.cpp):
// it returns into the resumed context with a return instruction. Every context suspends at
// the same call site, so the CPU's return-address predictor guesses right. Boost.Context's
// fcontext (used on every other platform) returns with an indirect jump, which leaves one
// return-stack entry behind per switch, so every later return of the work-item mispredicts
// (bench_barrier shows the cost). The switch saves what the ABI makes callee-saved and the
// floating-point control:
// - x86-64: rbx, rbp, r12-r15, and MXCSR's and the x87 control word's control bits;
// - aarch64: x19-x28, the frame pointer x29, the link register x30, the low halves of
//   v8-v15 (d8-d15), and FPCR.
// The floating-point control is loaded only when the resumed context's differs from the
// running one's (a kernel that changed its rounding mode): ldmxcsr, fldcw and a write of
// FPCR stall the pipeline.
#include <cstddef>
#include <cstdint>

#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__)) && !defined(KAPI_HOST_CONTEXT_FCONTEXT)
#define KAPI_HOST_CONTEXT_OWN_SWITCH 1
#else
#define KAPI_HOST_CONTEXT_OWN_SWITCH 0
#include <boost/context/detail/fcontext.hpp>
#endif

#if KAPI_HOST_CONTEXT_OWN_SWITCH
// Defined in context.cpp (assembly).
extern "C" void kapi_host_context_swap(void** save, void* target);
extern "C" void kapi_host_context_start();
#endif

namespace kapi::detail {

/// A suspended context (its saved stack pointer), or a slot to save one into.
using HostContext = void*;

#if KAPI_HOST_CONTEXT_OWN_SWITCH

#if defined(__x86_64__)
/// The running thread's floating-point control: MXCSR and the x87 control word, which
/// is what a new context starts with.
using HostFpControl = std::uint64_t;
inline HostFpControl host_fp_control() {
  std::uint32_t control[2] = {0, 0};
  __asm__ volatile("stmxcsr %0\n fnstcw %1" : "=m"(control[0]), "=m"(control[1]));
  return std::uint64_t(control[0]) | (std::uint64_t(control[1] & 0xffff) << 32);
}

/// A context on the stack that ends at `top` which, when first switched to, calls
/// entry() (which must never return: it ends by switching away for good) under the
/// floating-point control `fp` (host_fp_control(); read once per group by the caller:
/// reading it per context cost a tenth of a barrier-once-per-group kernel).
inline HostContext make_host_context(void* top, std::size_t /*size*/, void (*entry)(), HostFpControl fp) {
  auto* t = reinterpret_cast<std::uintptr_t*>(reinterpret_cast<std::uintptr_t>(top) & ~std::uintptr_t(15));
  // From the top down: the return address (the start routine), rbp, rbx, r12 (entry),
  // r13, r14, r15, and the floating-point control words.
  t[-1] = reinterpret_cast<std::uintptr_t>(&kapi_host_context_start);
  t[-2] = 0;
  t[-3] = 0;
  t[-4] = reinterpret_cast<std::uintptr_t>(entry);
  t[-5] = t[-6] = t[-7] = 0;
  t[-8] = std::uintptr_t(fp);
  return t - 8;
}
#else
/// The running thread's floating-point control: FPCR (rounding mode, flush-to-zero,
/// default NaN, trap enables), which is what a new context starts with.
using HostFpControl = std::uint64_t;
inline HostFpControl host_fp_control() {
  std::uint64_t fpcr = 0;
  __asm__ volatile("mrs %0, fpcr" : "=r"(fpcr));
  return fpcr;
}

/// Words in a suspended context's frame (context.cpp): x19-x28, x29, x30, d8-d15, FPCR and
/// one word that keeps the stack pointer 16-byte aligned.
inline constexpr std::size_t host_context_frame_words = 22;

/// As on x86-64: a context on the stack that ends at `top`, whose first switch calls
/// entry() under `fp`.
inline HostContext make_host_context(void* top, std::size_t /*size*/, void (*entry)(), HostFpControl fp) {
  auto* t = reinterpret_cast<std::uintptr_t*>(reinterpret_cast<std::uintptr_t>(top) & ~std::uintptr_t(15));
  auto* frame = t - host_context_frame_words;
  for (std::size_t i = 0; i < host_context_frame_words; ++i) frame[i] = 0;
  frame[0] = reinterpret_cast<std::uintptr_t>(entry);                      // x19
  frame[11] = reinterpret_cast<std::uintptr_t>(&kapi_host_context_start);  // x30: where ret goes
  frame[20] = std::uintptr_t(fp);
  return frame;
}
#endif

/// Suspends the running context into `save` and resumes `target`; returns when some
/// context resumes `save`.
inline void swap_host_context(HostContext& save, HostContext target) { kapi_host_context_swap(&save, target); }

/// A suspended context can be given the floating-point control it resumes with, so one
/// that ended a work-item can run another one instead of a new context.
inline constexpr bool host_contexts_resumable = true;

/// Makes the suspended context `c` resume under `fp`: its saved control is the frame's
/// word that make_host_context and the switch write.
inline void set_host_context_fp_control(HostContext c, HostFpControl fp) {
#if defined(__x86_64__)
  static_cast<std::uintptr_t*>(c)[0] = std::uintptr_t(fp);
#else
  static_cast<std::uintptr_t*>(c)[20] = std::uintptr_t(fp);
#endif
}

/// Puts the running context under the control `fp` where it differs (a context that goes
/// on from one work-item to the next starts that one under the group's control). Only the
/// control bits count, as in the switch: MXCSR's exception flags stay as they are.
inline void restore_host_fp_control(HostFpControl fp) {
#if defined(__x86_64__)
  std::uint32_t control[2] = {0, 0};
  __asm__ volatile("stmxcsr %0\n fnstcw %1" : "=m"(control[0]), "=m"(control[1]));
  const auto mxcsr = std::uint32_t(fp), cw = std::uint32_t(fp >> 32) & 0xffff;
  if (((control[0] ^ mxcsr) & 0xffc0) == 0 && (control[1] & 0xffff) == cw) return;
  control[0] = (mxcsr & 0xffc0) | (control[0] & 0x3f);
  control[1] = cw;
  __asm__ volatile("ldmxcsr %0\n fldcw %1" : : "m"(control[0]), "m"(control[1]));
#else
  std::uint64_t fpcr = 0;
  __asm__ volatile("mrs %0, fpcr" : "=r"(fpcr));
  if (fpcr != fp) __asm__ volatile("msr fpcr, %0" : : "r"(fp));
#endif
}

#else

namespace host_context_impl {
using Entry = void (*)();
inline thread_local Entry pending_entry = nullptr;
inline void start_pending(boost::context::detail::transfer_t t) {
  const Entry entry = pending_entry;
  *static_cast<void**>(t.data) = t.fctx;
  entry();
}
}  // namespace host_context_impl

/// fcontext saves and restores the floating-point control itself.
using HostFpControl = std::uint64_t;
inline HostFpControl host_fp_control() { return 0; }

inline HostContext make_host_context(void* top, std::size_t size, void (*entry)(), HostFpControl) {
  host_context_impl::pending_entry = entry;  // read by the context's first instructions
  return boost::context::detail::make_fcontext(top, size, &host_context_impl::start_pending);
}

inline void swap_host_context(HostContext& save, HostContext target) {
  const auto t = boost::context::detail::jump_fcontext(target, &save);
  *static_cast<void**>(t.data) = t.fctx;  // whoever resumed us saved itself where it asked
}

/// fcontext restores a resumed context's own control: a context runs one work-item.
inline constexpr bool host_contexts_resumable = false;
inline void set_host_context_fp_control(HostContext, HostFpControl) {}
inline void restore_host_fp_control(HostFpControl) {}

#endif

}  // namespace kapi::detail
