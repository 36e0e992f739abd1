// SPDX-License-Identifier: Apache-2.0
#pragma once
// How a work-group runs on a host backend. One host thread runs the whole group.
//
// - Work-item 0 runs directly on the thread's own stack. If it finishes without reaching
//   group_barrier, no work-item of the group can reach one (SYCL requires barriers in
//   group-converged control flow), so the others run as a plain loop on the same stack,
//   which the launch makes one the compiler can vectorise: a barrier-free group costs
//   what a loop costs.
// - When work-item 0 reaches a barrier, the others run up to theirs, each in its own
//   context (src/host/context.hpp, on a pooled stack, host/detail/stack_pool.hpp,
//   created when the thread first needs it and, once its work-item ends, parked to run
//   the same work-item of the thread's next group): every work-item switches straight
//   to the next one, and the last one of a phase back to work-item 0 on the thread's
//   stack. A barrier costs one context switch per work-item and nothing more.
// - Consecutive groups of a thread overlap by one phase: when work-item 0 ends a group that
//   had barriers and another group follows, the next group's work-item 0 starts at once,
//   and each context, once its work-item of the old group ends, runs its work-item of the
//   new group up to that group's first barrier. The end of a group and the start of the
//   next are then one switch per work-item, from a barrier to a barrier: the same call
//   chain on every stack, so the CPU's return predictions hold (ending a work-item and
//   resuming another, which leave by different chains, mispredicted every return). The two
//   groups in flight have their own collective buffer and local memory (group parity).
// - Work-items that end in a phase where others wait at a barrier have diverged: the
//   launch reports it, and the waiting work-items are unwound (their barrier throws an
//   internal exception) so that their frames are destroyed properly.
// - An exception leaving a work-item is caught at the work-item's boundary, ends its
//   group, and is reported by the launch (kapi::launch_error, the exception nested).
// - Built with the Clang pass plugin (KAPI_WORK_GROUP_LOOPS), a kernel with barriers also
//   has a loop form (host/detail/work_group_loops.hpp): one loop over the group's
//   work-items per barrier-free region, on the thread's own stack. The engine runs it when
//   the pass made one (and KAPI_WORK_GROUPS does not say fibers), the contexts otherwise.
// Under AddressSanitizer every switch between stacks is announced to it
// (src/host/sanitizer.hpp), so ASan checks the contexts' frames too.
// The machinery is compiled once, in the runtime (src/host/group.cpp); what a kernel
// compiles is its own loops, handed over as FunctionRefs.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <vector>

#include <kapi/detail/launch_status.hpp>
#include <kapi/host/detail/function_ref.hpp>

namespace kapi::detail {

class HostStackPool;
struct HostWorkItemInfo;

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
  /// around it is compiled once (function_ref.hpp).
  using Call = FunctionRef<std::size_t>;
  /// A kernel's loop form, f(group): it runs the whole group, or returns at once when the
  /// pass left it alone (work_group_loops.hpp).
  using LoopsCall = FunctionRef<HostGroup*>;

  /// Runs work-items 0 … count-1 of group `group_linear_id`: run_item(i) runs the kernel
  /// for local linear id i; run_rest(first) runs first … count-1 in order (the
  /// barrier-free rest of the group).
  /// `next_group_follows`: the caller runs another group of the same launch next, so this
  /// one's last phase may overlap the next one's first (the contexts stay mid-work-item
  /// until then). run_item and run_rest must outlive that next call, and read the group
  /// they run from group_linear_id(), which is the running work-item's.
  void run(std::size_t count, std::size_t group_linear_id, LaunchStatus& status, Call run_item, Call run_rest,
           bool next_group_follows = false);
  /// The group's local range as the loop form sees it: three extents, the last fastest,
  /// those in front of an N-d range's (N < 3) 1.
  struct LocalShape {
    std::size_t extent[3];
  };
  /// The same, trying the kernel's loop form first (where KAPI_WORK_GROUPS allows); the
  /// loop form runs its regions over `shape` (count work-items).
  void run(std::size_t count, std::size_t group_linear_id, LaunchStatus& status, Call run_item, Call run_rest,
           LoopsCall run_loops, const LocalShape& shape, bool next_group_follows = false);

  /// Runs a phased kernel's group (one call of the kernel with a WorkGroup, run_group(0)):
  /// no contexts; a group_barrier or flat group algorithm reached meanwhile is an error.
  void run_phased(std::size_t count, std::size_t group_linear_id, LaunchStatus& status, Call run_group);

  /// Called by work-item current_ at a group_barrier.
  void barrier();

  /// Records a model violation found while the group runs; the launch reports the first
  /// one as launch_error.
  void fail(const std::string& message) { status_->fail(message); }
  /// The running work-item's group (while two groups overlap, a context may still run
  /// the earlier one).
  std::size_t group_linear_id() const { return current_group_; }

  std::size_t current_work_item() const { return current_; }
  /// The group run last ended on fibers after barriers: with next_group_follows its last
  /// phase would have overlapped the next group's first.
  bool last_phase_could_overlap() const { return last_phase_could_overlap_; }
  /// This thread's local memory buffer, in bytes (what local_memory has grown it to).
  std::size_t local_memory_bytes() const { return local_.size() * sizeof(Slot); }
  /// This thread's storage for the loop form's per-work-item values, in bytes.
  std::size_t loop_storage_bytes() const { return loop_storage_.size() * sizeof(Slot); }

  /// The local memory and loop storage a thread keeps between chunks of groups: buffers
  /// of the sizes kernels commonly ask for stay allocated from launch to launch, while one
  /// launch with a large local memory (or large private arrays) does not leave its buffer
  /// on every host thread for the life of the process.
  static constexpr std::size_t kept_buffer_bytes = std::size_t(16) << 20;
  /// Frees the local memory and loop storage where they exceed kept_buffer_bytes. Called
  /// where no group is in flight: the end of a chunk.
  void release_large_buffers();

  /// For the barrier-free rest of a group, which runs as the launch's own loop: work-item
  /// i ended with an exception (a divergent barrier there throws HostGroupDivergent).
  void fail_in_work_item(std::size_t i, std::exception_ptr error);
  std::size_t size() const { return count_; }
  /// Barriers the current work-item has passed in this group (the same for every
  /// work-item at a converged point, which lets collectives alternate buffers).
  std::size_t barriers_passed() const { return mode_ == Mode::flat ? barriers_passed_[current_] : 0; }

  /// The running work-item's group's scratch for collectives (group algorithms): two
  /// halves, each a result and one slot per work-item, of collective_slot_bytes each,
  /// aligned for any scalar (another two serve the other group of an overlap). Sized when
  /// the group starts, so it stays where it is for the whole group: a
  /// collective's loops over work-items (the work-group loop pass) keep its address in a
  /// register instead of asking for it per work-item.
  static constexpr std::size_t collective_slot_bytes = 16;
  static constexpr std::size_t collective_header_bytes = collective_slot_bytes;  // the result
  static constexpr std::size_t collective_half_bytes(std::size_t count) {
    return collective_header_bytes + count * collective_slot_bytes;
  }
  void* collective_buffer() { return collective_now_; }

  /// The running group's local memory (every LocalAccessor): this thread's buffer, at
  /// least `bytes`, aligned to 16 bytes; SYCL leaves local memory undefined at a group's
  /// start, so one buffer serves every group the thread runs.
  char* local_memory(std::size_t bytes) {
    if (local_.size() * sizeof(Slot) < bytes) grow(local_, bytes);
    return reinterpret_cast<char*>(local_.data());
  }

  static HostGroup& this_thread();

  // The loop form's calls into the engine (src/host/work_group_loops.cpp).
  bool in_loops() const { return mode_ == Mode::loops; }
  std::size_t enter_loops();
  std::size_t loops_extent(unsigned level) const { return level < 3 ? shape_.extent[level] : 1; }
  std::size_t local_id(unsigned level) const;
  void* loop_storage(std::size_t bytes);
  std::size_t* loops_item() { return &current_; }

 private:
  enum class Mode { flat, direct, phased, unwinding, loops };
  struct alignas(16) Slot {
    unsigned char bytes[16];
  };
  using Context = void*;  // a suspended work-item: its saved stack pointer (src/host/context.hpp)

  static void grow(std::vector<Slot>& buffer, std::size_t bytes);
  void begin(std::size_t count, std::size_t group_linear_id, LaunchStatus& status, Mode mode);
  bool guarded(std::size_t item, Call f, std::size_t arg);
  std::size_t next_after(std::size_t i);
  void switch_to(std::size_t next, std::size_t me);
  void start_context(std::size_t i);
  const void* stack_bottom(std::size_t i) const;
  std::size_t stack_size(std::size_t i) const;
  static void entry();
  void unwind_waiting();
  void finish_overlap();
  void start_overlap_phase();
  void enter_group(std::size_t group);
  void resume_in_overlap(std::size_t me);

  Mode mode_ = Mode::flat;
  std::size_t count_ = 0, current_ = 0, from_ = 0, group_ = 0;
  std::size_t phase_ = 0, arrived_ = 0, started_ = 0;
  std::size_t parked_ = 0;  // contexts 1 … parked_-1 exist and wait for a later group's work-item
  std::size_t stack_bytes_ = 0;
  std::uint64_t fp_control_ = 0;  // the floating-point control every work-item starts with
  bool diverged_ = false, synchronised_ = false;
  bool last_phase_could_overlap_ = false;  // last_phase_could_overlap()
  // Contexts 1 … count-1 are still in the previous group's last phase (its work-item 0
  // ended; the group now starting takes them over at its first barrier).
  bool overlap_pending_ = false;
  bool overlap_ = false;  // in the phase two groups share (resume_in_overlap)
  std::size_t previous_group_ = 0;
  std::size_t current_group_ = 0;   // group_linear_id()
  void* collective_now_ = nullptr;  // collective_buffer()
  LaunchStatus* status_ = nullptr;
  // This thread's stack pool and work-item record (thread-locals of other files, looked up
  // once per group rather than at every switch).
  HostStackPool* pool_ = nullptr;
  HostWorkItemInfo* info_ = nullptr;
  const Call* run_item_ = nullptr;  // what every context runs
  std::vector<Context> contexts_;   // per work-item; work-item 0's is the thread's own
  std::vector<void*> asan_fake_stacks_;
  std::vector<char> ended_;
  const void* host_stack_bottom_ = nullptr;  // the thread's own stack (for ASan)
  std::size_t host_stack_size_ = 0;
  std::vector<std::size_t> barriers_passed_;
  std::vector<Slot> collective_;
  std::vector<Slot> local_;
  std::vector<Slot> loop_storage_;
  bool loops_ran_ = false;
  LocalShape shape_{{1, 1, 1}};
};

}  // namespace kapi::detail
