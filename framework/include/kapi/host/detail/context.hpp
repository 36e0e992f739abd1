#pragma once
// Switching between work-item contexts on a host thread: a context is the stack pointer
// where a suspended context saved its callee-saved registers.
//
// On x86-64 (System V) the switch is kapi's own: it returns into the resumed context with
// `ret`. Every context suspends at the same call site, so the CPU's return-address
// predictor guesses right, and calls and returns stay paired. Boost.Context's fcontext
// (used on every other platform) returns with an indirect jump, which leaves one
// return-stack entry behind per switch: every later return of the work-item then
// mispredicts, about 60 cycles per switch measured here (bench_barrier). The switch saves
// and restores what the ABI makes callee-saved: rbx, rbp, r12-r15, and MXCSR's and the x87
// control word's control bits. Those two are loaded only when the resumed context's differ
// from the running one's (a kernel that changed its rounding mode): ldmxcsr and fldcw
// stall the pipeline, and skipping them made a barrier-heavy kernel 11% faster (the flat
// sliding-window matmul on a 2-core EPYC).
#include <cstddef>
#include <cstdint>

#if defined(__x86_64__) && defined(__linux__) && !defined(KAPI_HOST_CONTEXT_FCONTEXT)
#define KAPI_HOST_CONTEXT_OWN_SWITCH 1
#else
#define KAPI_HOST_CONTEXT_OWN_SWITCH 0
#include <boost/context/detail/fcontext.hpp>
#endif

#if KAPI_HOST_CONTEXT_OWN_SWITCH
// kapi_host_context_swap(save, target): pushes the callee-saved registers, stores the stack
// pointer in *save, loads target and pops its registers; `ret` resumes it.
// kapi_host_context_start: where a new context's first switch returns to; calls the entry
// function kept in r12 (and ends the stack for unwinders and debuggers).
// Emitted in a COMDAT group: every translation unit including this header defines them
// and the linker keeps one.
__asm__(
    ".pushsection .text.kapi_host_context_swap,\"axG\",@progbits,kapi_host_context_swap,comdat\n"
    ".globl kapi_host_context_swap\n"
    ".hidden kapi_host_context_swap\n"
    ".type kapi_host_context_swap,@function\n"
    ".p2align 4\n"
    "kapi_host_context_swap:\n"
    "  .cfi_startproc\n"
    "  pushq %rbp\n"
    "  pushq %rbx\n"
    "  pushq %r12\n"
    "  pushq %r13\n"
    "  pushq %r14\n"
    "  pushq %r15\n"
    "  subq $8, %rsp\n"
    "  stmxcsr (%rsp)\n"
    "  fnstcw 4(%rsp)\n"
    "  movq %rsp, (%rdi)\n"
    "  movl (%rsp), %eax\n"
    "  movzwl 4(%rsp), %ecx\n"
    "  movq %rsi, %rsp\n"
    "  xorl (%rsp), %eax\n"
    "  andl $0xffc0, %eax\n"
    "  movzwl 4(%rsp), %edx\n"
    "  xorl %edx, %ecx\n"
    "  orl %ecx, %eax\n"
    "  jnz .Lkapi_host_context_swap_fp\n"
    ".Lkapi_host_context_swap_pop:\n"
    "  addq $8, %rsp\n"
    "  popq %r15\n"
    "  popq %r14\n"
    "  popq %r13\n"
    "  popq %r12\n"
    "  popq %rbx\n"
    "  popq %rbp\n"
    "  ret\n"
    ".Lkapi_host_context_swap_fp:\n"
    "  ldmxcsr (%rsp)\n"
    "  fldcw 4(%rsp)\n"
    "  jmp .Lkapi_host_context_swap_pop\n"
    "  .cfi_endproc\n"
    ".size kapi_host_context_swap,.-kapi_host_context_swap\n"
    ".popsection\n"
    ".pushsection .text.kapi_host_context_start,\"axG\",@progbits,kapi_host_context_start,comdat\n"
    ".globl kapi_host_context_start\n"
    ".hidden kapi_host_context_start\n"
    ".type kapi_host_context_start,@function\n"
    ".p2align 4\n"
    "kapi_host_context_start:\n"
    "  .cfi_startproc\n"
    "  .cfi_undefined rip\n"
    "  callq *%r12\n"
    "  ud2\n"
    "  .cfi_endproc\n"
    ".size kapi_host_context_start,.-kapi_host_context_start\n"
    ".popsection\n");
extern "C" void kapi_host_context_swap(void** save, void* target);
extern "C" void kapi_host_context_start();
#endif

namespace kapi::detail {

/// A suspended context (its saved stack pointer), or a slot to save one into.
using HostContext = void*;

#if KAPI_HOST_CONTEXT_OWN_SWITCH

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

/// Suspends the running context into `save` and resumes `target`; returns when some
/// context resumes `save`.
inline void swap_host_context(HostContext& save, HostContext target) { kapi_host_context_swap(&save, target); }

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

#endif

}  // namespace kapi::detail
