// SPDX-License-Identifier: Apache-2.0
#pragma once
// LocalAccessors captured by the kernel (SYCL's way) rather than passed as arguments
// (numba-dpex's way). The launch looks through the kernel object's bytes for accessor tags
// (detail/capture_tags.hpp), places each accessor in the group's local memory after the
// argument accessors (a copy of an argument accessor, or of another capture, shares its
// place), and records where each captured copy sits inside the kernel. Whoever runs a
// group then points those copies at the group's memory in its own copy of the kernel
// (bind), once per group or per run of groups: the kernel's accesses are the same plain
// pointer accesses as an argument accessor's.
// A kapi::reduction found among the captures is a launch_error: it is an argument.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include <kapi/config.hpp>
#include <kapi/detail/capture_tags.hpp>
#include <kapi/errors.hpp>

namespace kapi::detail {

/// The bytes a captured LocalAccessor occupies at least: its tag and its data pointer.
inline constexpr std::size_t captured_accessor_min_bytes = sizeof(LocalMemoryTag) + sizeof(void*);

/// Whether a kernel object is large enough to hold a LocalAccessor: launches of smaller
/// kernels compile no code for captures.
template <class Kernel>
inline constexpr bool may_capture_local_memory = sizeof(Kernel) >= captured_accessor_min_bytes;

struct CapturedLocals {
  static constexpr unsigned capacity = 8;
  unsigned count = 0;
  std::uint32_t kernel_offset[capacity] = {};  // where the accessor's data pointer is in the kernel
  std::size_t scratch_offset[capacity] = {};   // where its memory is in the group's

  /// Points the kernel's captured accessors at the group's local memory.
  template <class Kernel>
  KAPI_FUNCTION void bind(Kernel& kernel, char* scratch) const {
    for (unsigned i = 0; i < count; ++i) {
      char* const data = scratch + scratch_offset[i];
      memcpy(reinterpret_cast<char*>(&kernel) + kernel_offset[i], &data, sizeof data);
    }
  }
};

/// What a launch that compiled no code for captures carries in their place: nothing.
struct NoCapturedLocals {
  NoCapturedLocals() = default;
  KAPI_FUNCTION NoCapturedLocals(const CapturedLocals&) {}
};
template <bool Captured>
using CapturedLocalsIf = std::conditional_t<Captured, CapturedLocals, NoCapturedLocals>;

/// An accessor passed as an argument: its id and place.
struct PlacedAccessor {
  std::uint64_t id;
  std::size_t offset;
};

/// Finds the kernel's captured LocalAccessors and places them after `total` bytes of local
/// memory (updated). `placed` are the argument accessors; a kernel that has some may capture
/// none (devices compile the binding form only for kernels without accessor arguments). `launch` names the launch's kind
/// for errors; a Range launch (nd_range false) may capture none.
template <class Kernel>
CapturedLocals capture_local_memory(const Kernel& kernel, std::size_t& total, const PlacedAccessor* placed,
                                    std::size_t placed_count, bool nd_range, std::size_t alignment) {
  CapturedLocals captured;
  if constexpr (sizeof(Kernel) >= sizeof(ReductionTag)) {
    const auto* bytes = reinterpret_cast<const unsigned char*>(&kernel);
    const std::uint64_t last_id = LocalMemoryTag::last();
    std::uint64_t ids[CapturedLocals::capacity] = {};
    for (std::size_t at = 0; at + sizeof(ReductionTag) <= sizeof(Kernel); at += alignof(std::uint64_t)) {
      ReductionTag reduction;
      std::memcpy(&reduction, bytes + at, sizeof reduction);
      if (reduction.magic == ReductionTag::reduction_magic && reduction.check == ~ReductionTag::reduction_magic)
        throw launch_error(
            "the kernel captures a kapi::reduction: pass it to call_kernel as an argument (as SYCL passes it to "
            "parallel_for); the kernel then receives a kapi::Reducer in that position");
      if (at + captured_accessor_min_bytes > sizeof(Kernel)) continue;
      LocalMemoryTag tag;
      std::memcpy(&tag, bytes + at, sizeof tag);
      if (tag.magic != LocalMemoryTag::local_magic || tag.id == 0 || tag.id > last_id) continue;
      if (!nd_range)
        throw launch_error(
            "the kernel captures a LocalAccessor, but it is launched with a Range: local memory exists only in "
            "nd-range kernels (launch with an NdRange)");
      if (placed_count != 0)
        throw launch_error(
            "the kernel takes LocalAccessor arguments and also captures a LocalAccessor: give one kernel one form, "
            "every accessor an argument (numba-dpex's way) or every accessor captured (SYCL's way)");
      if (captured.count == CapturedLocals::capacity)
        throw launch_error("the kernel captures more than " + std::to_string(CapturedLocals::capacity) +
                           " LocalAccessors (copies included); pass the others as kernel arguments");
      std::size_t offset = 0;
      bool found = false;
      for (std::size_t i = 0; i < placed_count && !found; ++i)
        if (placed[i].id == tag.id) offset = placed[i].offset, found = true;
      for (unsigned i = 0; i < captured.count && !found; ++i)
        if (ids[i] == tag.id) offset = captured.scratch_offset[i], found = true;
      if (!found) {
        offset = total;
        const bool overflow =
            tag.bytes > std::uint64_t(~std::size_t(0) - alignment) ||
            __builtin_add_overflow(total, (std::size_t(tag.bytes) + alignment - 1) / alignment * alignment, &total);
        if (overflow)
          throw launch_error(
              "a LocalAccessor captured by the kernel needs more bytes than a size can count, with the other local "
              "memory");
      }
      ids[captured.count] = tag.id;
      captured.kernel_offset[captured.count] = static_cast<std::uint32_t>(at + sizeof(LocalMemoryTag));
      captured.scratch_offset[captured.count] = offset;
      ++captured.count;
    }
  } else {
    (void)kernel, (void)total, (void)placed, (void)placed_count, (void)nd_range, (void)alignment;
  }
  return captured;
}

}  // namespace kapi::detail
