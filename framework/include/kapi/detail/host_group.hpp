#pragma once
// How a work-group runs on a host backend. One host thread runs the whole group.
// Work-item 0 runs first in its own context (a Boost.Context fiber). If it finishes
// without reaching group_barrier, no work-item of the group can reach one (SYCL requires
// barriers in group-converged control flow), so the others run as a plain loop. If it
// stops at a barrier, every other work-item gets a context too, and the thread sweeps
// them phase by phase: each runs up to its next barrier, then the next one runs.
// Under AddressSanitizer every switch between the thread's stack and a context's stack
// is announced to it (detail/sanitizer.hpp), so ASan checks the contexts' frames too.
#include <atomic>
#include <boost/context/fiber.hpp>
#include <cstddef>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "host_stack_pool.hpp"
#include "launch_status.hpp"
#include "sanitizer.hpp"

namespace kapi::detail {

class HostGroup {
 public:
  HostGroup() = default;
  HostGroup(const HostGroup&) = delete;
  HostGroup& operator=(const HostGroup&) = delete;

  /// Runs work-items 0 … count-1; run_item(i) runs the kernel for local linear id i.
  template <class RunItem>
  void run(std::size_t count, std::size_t group_linear_id, LaunchStatus& status, const RunItem& run_item) {
    group_ = group_linear_id;
    status_ = &status;
    count_ = count;
    contexts_.clear();
    resize_slots(count);

    mode_ = Mode::contexts;
    contexts_.push_back(make_context(0, run_item));
    resume(0);
    if (!contexts_[0]) {  // barrier-free group: the rest run without contexts
      mode_ = Mode::direct;
      for (std::size_t i = 1; i < count; ++i) {
        current_ = i;
        run_item(i);
      }
      return;
    }
    for (std::size_t i = 1; i < count; ++i) {
      contexts_.push_back(make_context(i, run_item));
      resume(i);
    }
    sweep_phases();
  }

  /// Runs a phased kernel's group (one call of the kernel with a WorkGroup): no contexts;
  /// a group_barrier or flat group algorithm reached meanwhile is an error.
  template <class RunGroup>
  void run_phased(std::size_t count, std::size_t group_linear_id, LaunchStatus& status, const RunGroup& run_group) {
    group_ = group_linear_id;
    status_ = &status;
    count_ = count;
    current_ = 0;
    resize_slots(count);
    mode_ = Mode::phased;
    run_group();
  }

  /// Called by work-item current_ at a group_barrier.
  void barrier() {
    if (mode_ == Mode::phased) {
      status_->fail("group_barrier or a flat group algorithm was called in a phased kernel (group " +
                    std::to_string(group_) +
                    "): there the phases are the barriers; use for_each_work_item, reduce_over_work_items and the "
                    "*_scan_over_work_items functions");
      return;
    }
    if (mode_ == Mode::direct) {
      status_->fail("group_barrier reached by work-item " + std::to_string(current_) + " of group " +
                    std::to_string(group_) +
                    " but not by work-item 0: every work-item of a group must reach the same barriers");
      return;
    }
    const std::size_t i = current_;
    ++barriers_passed_[i];
    void* fake_stack = nullptr;
    asan_start_switch(&fake_stack, host_stack_bottom_, host_stack_size_);
    sinks_[i] = std::move(sinks_[i]).resume();
    asan_finish_switch(fake_stack);
  }

  /// Records a model violation found while the group runs; the launch reports the first
  /// one as launch_error.
  void fail(const std::string& message) { status_->fail(message); }
  std::size_t group_linear_id() const { return group_; }

  std::size_t current_work_item() const { return current_; }
  std::size_t size() const { return count_; }
  /// Barriers the current work-item has passed in this group (the same for every
  /// work-item at a converged point, which lets collectives alternate buffers).
  std::size_t barriers_passed() const { return barriers_passed_.empty() ? 0 : barriers_passed_[current_]; }

  /// The group's scratch for collectives (group algorithms): at least `bytes`, aligned
  /// for any scalar, shared by the group's work-items until the group ends.
  void* collective_buffer(std::size_t bytes) {
    if (collective_.size() * sizeof(Slot) < bytes) collective_.resize((bytes + sizeof(Slot) - 1) / sizeof(Slot));
    return collective_.data();
  }

  static HostGroup& this_thread() {
    thread_local HostGroup group;
    return group;
  }

 private:
  enum class Mode { contexts, direct, phased };
  struct alignas(16) Slot {
    unsigned char bytes[16];
  };

  template <class RunItem>
  boost::context::fiber make_context(std::size_t i, const RunItem& run_item) {
    return boost::context::fiber(std::allocator_arg, PooledStackAllocator{&HostStackPool::this_thread(), &stacks_[i]},
                                 [this, i, &run_item](boost::context::fiber&& sink) {
                                   asan_finish_switch(nullptr, &host_stack_bottom_, &host_stack_size_);
                                   sinks_[i] = std::move(sink);
                                   run_item(i);
                                   asan_start_switch(nullptr, host_stack_bottom_, host_stack_size_);  // ends here
                                   return std::move(sinks_[i]);
                                 });
  }

  void resume(std::size_t i) {
    current_ = i;
    void* fake_stack = nullptr;
    asan_start_switch(&fake_stack, static_cast<char*>(stacks_[i].sp) - stacks_[i].size, stacks_[i].size);
    contexts_[i] = std::move(contexts_[i]).resume();
    asan_finish_switch(fake_stack);
  }

  void resize_slots(std::size_t count) {
    if (sinks_.size() < count) sinks_.resize(count);
    if (stacks_.size() < count) stacks_.resize(count);
    barriers_passed_.assign(count, 0);
  }

  // Every context stopped at its first barrier; run phase after phase.
  void sweep_phases() {
    for (;;) {
      std::size_t finished = 0;
      for (std::size_t i = 0; i < count_; ++i)
        if (!contexts_[i]) ++finished;
      if (finished == count_) return;
      if (finished != 0 || !same_barrier_count()) {
        status_->fail("work-items of group " + std::to_string(group_) +
                      " reached different numbers of group_barrier calls: every work-item of a group must "
                      "reach the same barriers");
        drain();
        return;
      }
      for (std::size_t i = 0; i < count_; ++i) resume(i);
    }
  }

  bool same_barrier_count() const {
    for (std::size_t i = 1; i < count_; ++i)
      if (barriers_passed_[i] != barriers_passed_[0]) return false;
    return true;
  }

  // After divergence: let every context run to its end so its stack unwinds cleanly.
  void drain() {
    for (std::size_t i = 0; i < count_; ++i)
      while (contexts_[i]) resume(i);
  }

  Mode mode_ = Mode::contexts;
  std::size_t count_ = 0;
  std::size_t current_ = 0;
  std::size_t group_ = 0;
  LaunchStatus* status_ = nullptr;
  std::vector<boost::context::fiber> contexts_;
  std::vector<boost::context::fiber> sinks_;
  std::vector<boost::context::stack_context> stacks_;  // where each context's stack is
  const void* host_stack_bottom_ = nullptr;             // the thread's own stack (for ASan)
  std::size_t host_stack_size_ = 0;
  std::vector<std::size_t> barriers_passed_;
  std::vector<Slot> collective_;
};

}  // namespace kapi::detail
