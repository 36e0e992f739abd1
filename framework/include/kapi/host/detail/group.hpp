#pragma once
// How a work-group runs on a host backend. One host thread runs the whole group.
//
// - Work-item 0 runs directly on the thread's own stack. If it finishes without reaching
//   group_barrier, no work-item of the group can reach one (SYCL requires barriers in
//   group-converged control flow), so the others run as a plain loop on the same stack,
//   which the launch makes one the compiler can vectorise: a barrier-free group costs
//   what a loop costs.
// - When work-item 0 reaches a barrier, the others run up to theirs, each in its own
//   context (host/detail/context.hpp, on a pooled stack, host/detail/stack_pool.hpp,
//   created when first needed): every work-item switches straight to the next one, and
//   the last one of a phase back to work-item 0 on the thread's stack. A barrier costs
//   one context switch per work-item and nothing more.
// - Work-items that end in a phase where others wait at a barrier have diverged: the
//   launch reports it, and the waiting work-items are unwound (their barrier throws an
//   internal exception) so that their frames are destroyed properly.
// - An exception leaving a work-item is caught at the work-item's boundary, ends its
//   group, and is reported by the launch (kapi::launch_error, the exception nested).
// Under AddressSanitizer every switch between stacks is announced to it
// (detail/sanitizer.hpp), so ASan checks the contexts' frames too.
#include <cstddef>
#include <exception>
#include <string>
#include <vector>

#include <kapi/host/detail/context.hpp>
#include <kapi/host/detail/function_ref.hpp>
#include <kapi/host/detail/launch_rules.hpp>
#include <kapi/host/detail/stack_bytes.hpp>
#include <kapi/host/detail/stack_overflow.hpp>
#include <kapi/host/detail/stack_pool.hpp>
#include <kapi/detail/launch_status.hpp>
#include <kapi/host/detail/sanitizer.hpp>

namespace kapi::detail {

/// Thrown inside a waiting work-item to unwind it after its group diverged; not derived
/// from std::exception, so kernels that catch those do not swallow it.
struct HostGroupUnwind {};
/// Thrown by a barrier in the barrier-free rest of a group (work-item 0 reached none).
struct HostGroupDivergent {};

class HostGroup {
 public:
  HostGroup() = default;
  HostGroup(const HostGroup&) = delete;
  HostGroup& operator=(const HostGroup&) = delete;

  /// What runs a work-item: f(local linear id), compiled per kernel; the machinery
  /// around it below is compiled once (function_ref.hpp).
  using Call = FunctionRef<std::size_t>;

  /// Runs work-items 0 … count-1 of group `group_linear_id`: run_item(i) runs the kernel
  /// for local linear id i; run_rest(first) runs first … count-1 in order (the
  /// barrier-free rest of the group).
  [[gnu::noinline]] void run(std::size_t count, std::size_t group_linear_id, LaunchStatus& status, Call run_item,
                             Call run_rest) {
    begin(count, group_linear_id, status, Mode::flat);
    const HostKernelScope in_kernel;
    run_item_ = &run_item;
    if (!guarded(0, run_item, 0)) {
      unwind_waiting();
      return;
    }
    if (!synchronised_) {  // work-item 0 reached no barrier: neither will the others
      mode_ = Mode::direct;
      guarded(1, run_rest, 1);
      if (diverged_)
        status_->fail("group_barrier reached in group " + std::to_string(group_) +
                      " by a work-item other than work-item 0, which reached none: every work-item of a group must "
                      "reach the same barriers");
      return;
    }
    // Work-item 0 ended after barriers: the others run their last phase, and must end too.
    if (count > 1) switch_to(1, 0);
    if (diverged_) unwind_waiting();
  }

  /// Runs a phased kernel's group (one call of the kernel with a WorkGroup, run_group(0)):
  /// no contexts; a group_barrier or flat group algorithm reached meanwhile is an error.
  [[gnu::noinline]] void run_phased(std::size_t count, std::size_t group_linear_id, LaunchStatus& status,
                                    Call run_group) {
    begin(count, group_linear_id, status, Mode::phased);
    const HostKernelScope in_kernel;
    guarded(0, run_group, 0);
  }

  /// Called by work-item current_ at a group_barrier.
  void barrier() {
    const std::size_t i = current_;
    switch (mode_) {
      case Mode::phased:
        status_->fail("group_barrier or a flat group algorithm was called in a phased kernel (group " +
                      std::to_string(group_) +
                      "): there the phases are the barriers; use for_each_work_item, reduce_over_work_items and the "
                      "*_scan_over_work_items functions");
        return;
      case Mode::direct:
        diverged_ = true;  // reported even if the kernel swallows the exception
        throw HostGroupDivergent{};
      case Mode::unwinding:
        throw HostGroupUnwind{};
      case Mode::flat:
        break;
    }
    if (!synchronised_) {  // work-item 0's first barrier: the group needs contexts from here on
      synchronised_ = true;
      barriers_passed_.assign(count_, 0);
      const std::string refused = count_ > 1 ? HostStackPool::this_thread().reserve(count_, stack_bytes_) : "";
      if (!refused.empty()) {
        status_->fail(refused);
        throw HostGroupUnwind{};
      }
    }
    ++barriers_passed_[i];
    ++arrived_;
    const std::size_t next = next_after(i);
    if (next != i) switch_to(next, i);
    if (mode_ == Mode::unwinding || (i == 0 && diverged_)) throw HostGroupUnwind{};
  }

  /// Records a model violation found while the group runs; the launch reports the first
  /// one as launch_error.
  void fail(const std::string& message) { status_->fail(message); }
  std::size_t group_linear_id() const { return group_; }

  std::size_t current_work_item() const { return current_; }

  /// For the barrier-free rest of a group, which runs as the launch's own loop: work-item
  /// i ended with an exception (a divergent barrier there throws HostGroupDivergent).
  void fail_in_work_item(std::size_t i, std::exception_ptr error) {
    try {
      std::rethrow_exception(error);
    } catch (const HostGroupDivergent&) {
      status_->fail("group_barrier reached by work-item " + std::to_string(i) + " of group " + std::to_string(group_) +
                    " but not by work-item 0: every work-item of a group must reach the same barriers");
    } catch (...) {
      status_->fail_with(error, "work-item " + std::to_string(i) + " of work-group " + std::to_string(group_));
    }
  }
  std::size_t size() const { return count_; }
  /// Barriers the current work-item has passed in this group (the same for every
  /// work-item at a converged point, which lets collectives alternate buffers).
  std::size_t barriers_passed() const { return synchronised_ ? barriers_passed_[current_] : 0; }

  /// The group's scratch for collectives (group algorithms): at least `bytes`, aligned
  /// for any scalar, shared by the group's work-items until the group ends.
  void* collective_buffer(std::size_t bytes) {
    if (collective_.size() * sizeof(Slot) < bytes) collective_.resize(kapi::ceil_div(bytes, sizeof(Slot)));
    return collective_.data();
  }

  /// The running group's local memory (every LocalAccessor): this thread's buffer, at
  /// least `bytes`, aligned to 16 bytes; SYCL leaves local memory undefined at a group's
  /// start, so one buffer serves every group the thread runs.
  char* local_memory(std::size_t bytes) {
    if (local_.size() * sizeof(Slot) < bytes) local_.resize(kapi::ceil_div(bytes, sizeof(Slot)));
    return reinterpret_cast<char*>(local_.data());
  }

  static HostGroup& this_thread() {
    static thread_local HostGroup group;
    return group;
  }

 private:
  enum class Mode { flat, direct, phased, unwinding };
  struct alignas(16) Slot {
    unsigned char bytes[16];
  };

  void begin(std::size_t count, std::size_t group_linear_id, LaunchStatus& status, Mode mode) {
    mode_ = mode;
    group_ = group_linear_id;
    status_ = &status;
    count_ = count;
    current_ = 0;
    phase_ = arrived_ = 0;
    started_ = 1;  // work-item 0 runs in the thread's own context
    diverged_ = false;
    synchronised_ = false;  // barriers_passed_ is set up at work-item 0's first barrier
    if (contexts_.size() < count) {
      contexts_.resize(count);
      asan_fake_stacks_.resize(count);
      ended_.resize(count);
    }
    stack_bytes_ = host_stack_setting().bytes;  // the launch has checked the setting
    fp_control_ = host_fp_control();            // every work-item starts with the group's
    HostWorkItemInfo& info = host_work_item_info();
    info.group = group_linear_id;
    info.stack_bytes = stack_bytes_;
  }

  // Runs f(arg) as work-item `item`, its exceptions caught; false if it did not end normally.
  bool guarded(std::size_t item, Call f, std::size_t arg) {
    host_work_item_info().item = item;
    try {
      f(arg);
      return true;
    } catch (const HostGroupUnwind&) {
    } catch (...) {
      status_->fail_with(
          std::current_exception(),
          (mode_ == Mode::phased ? std::string("a phase of") : "work-item " + std::to_string(current_) + " of") +
              " work-group " + std::to_string(group_));
    }
    return false;
  }

  // Where work-item i goes when it reaches a barrier or ends: the next work-item; at the
  // end of a phase work-item 0 (all waiting: a new phase; all ended; or diverged).
  std::size_t next_after(std::size_t i) {
    if (mode_ == Mode::unwinding) return 0;
    if (i + 1 < count_) return i + 1;
    if (arrived_ == count_) {
      ++phase_;
      arrived_ = 0;
    } else if (arrived_ != 0) {  // some wait at a barrier, the others ended
      diverged_ = true;
      status_->fail("work-items of group " + std::to_string(group_) +
                    " reached different numbers of group_barrier calls: every work-item of a group must reach the "
                    "same barriers");
    }
    return 0;
  }

  // Leaves context `me` for context `next` (started there if new); returns when some
  // context switches back to `me`.
  void switch_to(std::size_t next, std::size_t me) {
    if (next >= started_) start_context(next);
    from_ = me;
    current_ = next;
    asan_start_switch(&asan_fake_stacks_[me], stack_bottom(next), stack_size(next));
    swap_host_context(contexts_[me], contexts_[next]);
    asan_finish_switch(asan_fake_stacks_[me]);
    current_ = me;
    host_work_item_info().item = me;
  }

  void start_context(std::size_t i) {
    const HostStackPool& pool = HostStackPool::this_thread();
    asan_unpoison(pool.bottom(i), pool.size(i));  // poison left by an earlier context on this stack
    contexts_[i] = make_host_context(pool.top(i), pool.size(i), &entry, fp_control_);
    ended_[i] = false;
    started_ = i + 1;
  }

  const void* stack_bottom(std::size_t i) const {
    return i == 0 ? host_stack_bottom_ : HostStackPool::this_thread().bottom(i);
  }
  std::size_t stack_size(std::size_t i) const {
    return i == 0 ? host_stack_size_ : HostStackPool::this_thread().size(i);
  }

  // A context's first function (it never returns: it ends by switching away for good).
  static void entry() {
    HostGroup& g = this_thread();
    const bool from_thread = g.from_ == 0;
    asan_finish_switch(nullptr, from_thread ? &g.host_stack_bottom_ : nullptr,
                       from_thread ? &g.host_stack_size_ : nullptr);
    const std::size_t me = g.current_;
    g.guarded(me, *g.run_item_, me);
    g.ended_[me] = true;
    const std::size_t next = g.next_after(me);
    if (next >= g.started_) g.start_context(next);
    g.from_ = me;
    g.current_ = next;
    asan_start_switch(nullptr, g.stack_bottom(next), g.stack_size(next));  // this context ends
    HostContext ended;
    swap_host_context(ended, g.contexts_[next]);
  }

  // After divergence or an exception: end every work-item still waiting at a barrier.
  void unwind_waiting() {
    mode_ = Mode::unwinding;
    for (std::size_t i = 1; i < started_; ++i)
      if (!ended_[i]) switch_to(i, 0);
  }

  Mode mode_ = Mode::flat;
  std::size_t count_ = 0, current_ = 0, from_ = 0, group_ = 0;
  std::size_t phase_ = 0, arrived_ = 0, started_ = 0;
  std::size_t stack_bytes_ = 0;
  HostFpControl fp_control_ = 0;
  bool diverged_ = false, synchronised_ = false;
  LaunchStatus* status_ = nullptr;
  const Call* run_item_ = nullptr;     // what every context runs
  std::vector<HostContext> contexts_;  // per work-item; work-item 0's is the thread's own
  std::vector<void*> asan_fake_stacks_;
  std::vector<char> ended_;
  const void* host_stack_bottom_ = nullptr;  // the thread's own stack (for ASan)
  std::size_t host_stack_size_ = 0;
  std::vector<std::size_t> barriers_passed_;
  std::vector<Slot> collective_;
  std::vector<Slot> local_;
};

}  // namespace kapi::detail
