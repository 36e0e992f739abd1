// SPDX-License-Identifier: Apache-2.0
// The host engine's work-group machinery (kapi/host/detail/group.hpp says how a group runs),
// compiled once for every kernel.
#include <kapi/host/detail/group.hpp>

#include <initializer_list>

#include <kapi/host/detail/launch_rules.hpp>
#include <kapi/host/detail/stack_bytes.hpp>
#include <kapi/host/detail/stack_pool.hpp>
#include <kapi/host/detail/work_group_setting.hpp>
#include <kapi/integer_math.hpp>

#include "context.hpp"
#include "sanitizer.hpp"
#include "stack_overflow.hpp"

namespace kapi::detail {

void HostGroup::run(std::size_t count, std::size_t group_linear_id, LaunchStatus& status, Call run_item, Call run_rest,
                    bool next_group_follows) {
  begin(count, group_linear_id, status, Mode::flat);
  const HostKernelScope in_kernel;
  run_item_ = &run_item;
  const bool item0_ended = guarded(0, run_item, 0);
  if (!synchronised_) finish_overlap();  // work-item 0 reached no barrier to take the contexts over
  if (!item0_ended) {
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
  status_->note_host_engine(LaunchStatus::host_engine_fibers);
  // Work-item 0 ended after barriers: the others run their last phase, and must end too;
  // with another group to follow, in the same switches as that group's first phase.
  last_phase_could_overlap_ = count > 1 && !diverged_ && host_contexts_resumable;
  if (last_phase_could_overlap_ && next_group_follows) {
    overlap_pending_ = true;
    previous_group_ = group_;
    return;
  }
  if (count > 1) switch_to(1, 0);
  if (diverged_) unwind_waiting();
}

// The previous group's contexts end their work-items and park (the group now running
// reached no barrier, so none of them goes on into it).
void HostGroup::finish_overlap() {
  if (!overlap_pending_) return;
  start_overlap_phase();
  switch_to(1, 0);
}

// The waiting contexts are resumed from here on, each once, in the previous group.
void HostGroup::start_overlap_phase() {
  overlap_pending_ = false;
  overlap_ = true;
}

void HostGroup::run(std::size_t count, std::size_t group_linear_id, LaunchStatus& status, Call run_item, Call run_rest,
                    LoopsCall run_loops, const LocalShape& shape, bool next_group_follows) {
  // (With an overlap pending the kernel has no loop form: the previous group ran on fibers.)
  if (host_work_group_setting().loops && !overlap_pending_) {
    begin(count, group_linear_id, status, Mode::loops);
    shape_ = shape;
    loops_ran_ = false;
    {
      const HostKernelScope in_kernel;
      try {
        run_loops(this);
      } catch (const HostGroupUnwind&) {
      } catch (...) {
        status_->fail_with(std::current_exception(),
                           "work-item " + std::to_string(current_) + " of work-group " + std::to_string(group_));
      }
    }
    if (loops_ran_) {  // the pass made a loop form: it ran the group
      status_->note_host_engine(LaunchStatus::host_engine_loops);
      return;
    }
  }
  run(count, group_linear_id, status, run_item, run_rest, next_group_follows);
}

void HostGroup::run_phased(std::size_t count, std::size_t group_linear_id, LaunchStatus& status, Call run_group) {
  begin(count, group_linear_id, status, Mode::phased);
  const HostKernelScope in_kernel;
  guarded(0, run_group, 0);
}

void HostGroup::barrier() {
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
    case Mode::loops:  // a barrier in code the pass could not see (another translation unit)
      status_->fail("group_barrier reached in group " + std::to_string(group_) +
                    " from a function the work-group loops could not see (compiled elsewhere): run with "
                    "KAPI_WORK_GROUPS=fibers, or make the function visible where the kernel is compiled");
      throw HostGroupUnwind{};
    case Mode::flat:
      break;
  }
  if (current_group_ != group_) {  // the previous group's work-item 0 ended before this barrier
    status_->fail("work-items of group " + std::to_string(current_group_) +
                  " reached different numbers of group_barrier calls: every work-item of a group must reach the "
                  "same barriers");
    throw HostGroupUnwind{};
  }
  if (!synchronised_) {  // work-item 0's first barrier: the group needs contexts from here on
    synchronised_ = true;
    if (overlap_pending_) {  // the previous group's contexts (on this pool's stacks) go on into this one
      start_overlap_phase();
    } else {
      const std::size_t mapping = pool_->mapping();
      const std::string refused = count_ > 1 ? pool_->reserve(count_, stack_bytes_) : "";
      if (pool_->mapping() != mapping) parked_ = 0;  // new stacks: the parked contexts went with the old ones
      if (!refused.empty()) {
        status_->fail(refused);
        throw HostGroupUnwind{};
      }
    }
  }
  ++barriers_passed_[i];
  ++arrived_;
  const std::size_t next = next_after(i);
  if (next != i) switch_to(next, i);
  if (mode_ == Mode::unwinding || (i == 0 && diverged_)) throw HostGroupUnwind{};
}

void HostGroup::fail_in_work_item(std::size_t i, std::exception_ptr error) {
  try {
    std::rethrow_exception(error);
  } catch (const HostGroupDivergent&) {
    status_->fail("group_barrier reached by work-item " + std::to_string(i) + " of group " + std::to_string(group_) +
                  " but not by work-item 0: every work-item of a group must reach the same barriers");
  } catch (...) {
    status_->fail_with(error, "work-item " + std::to_string(i) + " of work-group " + std::to_string(group_));
  }
}
HostGroup& HostGroup::this_thread() {
  static thread_local HostGroup group;
  return group;
}

void HostGroup::grow(std::vector<Slot>& buffer, std::size_t bytes) {
  buffer.resize(kapi::ceil_div(bytes, sizeof(Slot)));
}

void HostGroup::release_large_buffers() {
  for (std::vector<Slot>* buffer : {&local_, &loop_storage_})
    if (buffer->size() * sizeof(Slot) > kept_buffer_bytes) std::vector<Slot>().swap(*buffer);
}

void HostGroup::begin(std::size_t count, std::size_t group_linear_id, LaunchStatus& status, Mode mode) {
  mode_ = mode;
  group_ = current_group_ = group_linear_id;
  status_ = &status;
  count_ = count;
  current_ = 0;
  phase_ = arrived_ = 0;
  started_ = 1;  // work-item 0 runs in the thread's own context
  diverged_ = false;
  synchronised_ = false;  // set at work-item 0's first barrier
  last_phase_could_overlap_ = false;
  // Two halves for each of the two groups an overlap runs; count <= host_max_work_group_size.
  const std::size_t collective_bytes = 4 * collective_half_bytes(count);
  if (collective_.size() * sizeof(Slot) < collective_bytes) grow(collective_, collective_bytes);
  if (contexts_.size() < count) {
    contexts_.resize(count);
    asan_fake_stacks_.resize(count);
    ended_.resize(count);
    barriers_passed_.resize(count);
  }
  barriers_passed_[0] = 0;
  stack_bytes_ = host_stack_setting().bytes;  // the launch has checked the setting
  fp_control_ = host_fp_control();            // every work-item starts with the group's
  pool_ = &HostStackPool::this_thread();
  info_ = &host_work_item_info();
  info_->stack_bytes = stack_bytes_;
  enter_group(group_linear_id);
}

// Makes `group` (the running work-item's) the running one: its id, collective buffer and
// record.
void HostGroup::enter_group(std::size_t group) {
  current_group_ = group;
  collective_now_ =
      reinterpret_cast<char*>(collective_.data()) + (current_group_ & 1) * 2 * collective_half_bytes(count_);
  info_->group = current_group_;
}

// Runs f(arg) as work-item `item`, its exceptions caught; false if it did not end normally.
bool HostGroup::guarded(std::size_t item, Call f, std::size_t arg) {
  info_->item = item;
  try {
    f(arg);
    return true;
  } catch (const HostGroupUnwind&) {
  } catch (...) {
    status_->fail_with(
        std::current_exception(),
        (mode_ == Mode::phased ? std::string("a phase of") : "work-item " + std::to_string(current_) + " of") +
            " work-group " + std::to_string(current_group_));
  }
  return false;
}

// Where work-item i goes when it reaches a barrier or ends: the next work-item; at the
// end of a phase work-item 0 (all waiting: a new phase; all ended; or diverged).
std::size_t HostGroup::next_after(std::size_t i) {
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
void HostGroup::switch_to(std::size_t next, std::size_t me) {
  if (next >= started_) start_context(next);
  from_ = me;
  current_ = next;
  if constexpr (asan_enabled) asan_start_switch(&asan_fake_stacks_[me], stack_bottom(next), stack_size(next));
  swap_host_context(contexts_[me], contexts_[next]);
  asan_finish_switch(asan_fake_stacks_[me]);
  current_ = me;
  info_->item = me;
  if (overlap_) resume_in_overlap(me);
}

// In the phase two groups share, every context resumed is still in the previous group
// (each resumes there once, ends that work-item and goes on into the running group);
// work-item 0, resumed at the phase's end, is in the running one.
void HostGroup::resume_in_overlap(std::size_t me) {
  if (me == 0) overlap_ = false;
  enter_group(me == 0 ? group_ : previous_group_);
}

void HostGroup::start_context(std::size_t i) {
  started_ = i + 1;
  if (i < parked_ && !ended_[i]) return;  // in the previous group's last phase (an overlap): it goes on from there
  ended_[i] = false;
  if (i < parked_) {  // the context that ran work-item i of an earlier group: resumed, it runs this one
    set_host_context_fp_control(contexts_[i], fp_control_);
    return;
  }
  const HostStackPool& pool = *pool_;
  asan_unpoison(pool.bottom(i), pool.size(i));  // poison left by an earlier context on this stack
  contexts_[i] = make_host_context(pool.top(i), pool.size(i), &entry, fp_control_);
  if (host_contexts_resumable) parked_ = i + 1;
}

const void* HostGroup::stack_bottom(std::size_t i) const { return i == 0 ? host_stack_bottom_ : pool_->bottom(i); }
std::size_t HostGroup::stack_size(std::size_t i) const { return i == 0 ? host_stack_size_ : pool_->size(i); }

// A context's first function. Where contexts can be resumed with a new floating-point
// control (host_contexts_resumable), a context that ended its work-item parks instead of
// ending: the next group's same work-item resumes it, which costs no new context, and its
// switch returns where every switch returns (swap_host_context in switch_to), so the CPU's
// return-address predictor keeps guessing right. Elsewhere it ends for good.
void HostGroup::entry() {
  HostGroup& g = this_thread();
  const bool from_thread = g.from_ == 0;
  asan_finish_switch(nullptr, from_thread ? &g.host_stack_bottom_ : nullptr,
                     from_thread ? &g.host_stack_size_ : nullptr);
  for (;;) {
    const std::size_t me = g.current_;
    g.barriers_passed_[me] = 0;
    if (g.current_group_ != g.group_) g.enter_group(g.group_);
    g.guarded(me, *g.run_item_, me);
    g.ended_[me] = true;
    if constexpr (host_contexts_resumable) {
      // It ended the previous group's work-item while the running group's work-item 0
      // waits at its first barrier (an overlap): on at once with this group's work-item.
      if (g.current_group_ != g.group_ && g.synchronised_) {
        g.ended_[me] = false;
        restore_host_fp_control(g.fp_control_);
        continue;
      }
      g.switch_to(g.next_after(me), me);  // resumed: work-item `me` of a later group
    } else {
      const std::size_t next = g.next_after(me);
      if (next >= g.started_) g.start_context(next);
      g.from_ = me;
      g.current_ = next;
      if constexpr (asan_enabled) asan_start_switch(nullptr, g.stack_bottom(next), g.stack_size(next));  // it ends
      Context ended;
      swap_host_context(ended, g.contexts_[next]);
    }
  }
}

// After divergence or an exception: end every work-item still waiting at a barrier.
void HostGroup::unwind_waiting() {
  mode_ = Mode::unwinding;
  for (std::size_t i = 1; i < started_; ++i)
    if (!ended_[i]) switch_to(i, 0);
}

}  // namespace kapi::detail
