// SPDX-License-Identifier: Apache-2.0
#pragma once
// The host engine's work-group operations as out-of-line C functions: the fiber engine's
// barrier, work-item ids and barrier count, and the entry points of a kernel's loop form.
// The Clang pass plugin kapi_work_group_loops (framework/compiler/) recognises them by
// name: it rewrites a kernel's loop-form function (launcher.hpp, compiled only under
// KAPI_WORK_GROUP_LOOPS) into one loop over the group's work-items per barrier-free region,
// replacing these calls by the loop's id, its barrier count and its own storage. Without
// the pass (or where it left a kernel alone) they run the fiber engine (group.hpp), and
// kapi_host_loops_available says false, so the engine runs the kernel on fibers.
// Compiled in the runtime (src/host/work_group_loops.cpp).
#include <cstddef>

#if defined(KAPI_WORK_GROUP_LOOPS_PASS)
namespace kapi::detail {
// The pass's version (a hash of its source, from the build) in every kernel's preprocessed
// source: a compiler cache that hashes that and not the command line's definitions (ccache's
// preprocessor mode) would otherwise hand back objects the previous pass compiled.
#define KAPI_WORK_GROUP_LOOPS_STRING2(x) #x
#define KAPI_WORK_GROUP_LOOPS_STRING(x) KAPI_WORK_GROUP_LOOPS_STRING2(x)
inline constexpr char work_group_loops_pass[] = KAPI_WORK_GROUP_LOOPS_STRING(KAPI_WORK_GROUP_LOOPS_PASS);
#undef KAPI_WORK_GROUP_LOOPS_STRING
#undef KAPI_WORK_GROUP_LOOPS_STRING2
}  // namespace kapi::detail
#endif

namespace kapi::detail {
class HostGroup;
}

// The barrier must not be duplicated or moved across control flow by the optimizer before
// the pass sees it (as a GPU barrier): Clang's `convergent`.
#if defined(__clang__)
#define KAPI_HOST_CONVERGENT __attribute__((convergent))
#else
#define KAPI_HOST_CONVERGENT
#endif

extern "C" {
/// group_barrier on a host backend.
KAPI_HOST_CONVERGENT void kapi_host_group_barrier(kapi::detail::HostGroup* group);
/// The calling work-item's local linear id.
__attribute__((pure)) std::size_t kapi_host_work_item(const kapi::detail::HostGroup* group);
/// The calling work-item's id along `level` (0, 1, 2; the last fastest) of the group's
/// local range seen as 3-d (HostGroup::LocalShape): the pass makes the loop form's regions
/// nests over the three, so that these are loop counters, not divisions of the linear id.
__attribute__((pure)) std::size_t kapi_host_local_id(const kapi::detail::HostGroup* group, unsigned level);
/// Barriers the calling work-item has passed in its group.
__attribute__((pure)) std::size_t kapi_host_barriers_passed(const kapi::detail::HostGroup* group);
/// A loop-form function's first question: false, unless the pass rewrote the function.
bool kapi_host_loops_available(kapi::detail::HostGroup* group);

// Called by the rewritten loop form only.
/// Starts the group as loops; returns its number of work-items.
std::size_t kapi_host_loops_enter(kapi::detail::HostGroup* group);
/// The group's extent along `level` of its 3-d local shape.
std::size_t kapi_host_loops_extent(const kapi::detail::HostGroup* group, unsigned level);
/// Storage for the group's per-work-item values and private memory: `bytes`, aligned to
/// 64, this thread's, reused by every group it runs.
void* kapi_host_loop_storage(kapi::detail::HostGroup* group, std::size_t bytes);
/// Where the loops keep the running work-item's id, for error reports.
std::size_t* kapi_host_loops_item(kapi::detail::HostGroup* group);
/// The work-items of a region left it at different barriers: reported, the group ends.
void kapi_host_loops_diverged(kapi::detail::HostGroup* group);
}
