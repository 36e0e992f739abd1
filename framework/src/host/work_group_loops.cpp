// SPDX-License-Identifier: Apache-2.0
// The C functions of kapi/host/detail/work_group_loops.hpp and KAPI_WORK_GROUPS. Without
// the pass they are the fiber engine's barrier, id and barrier count (group.cpp); code the
// pass rewrote calls only the loops' entry points.
#include <kapi/host/detail/work_group_loops.hpp>

#include <cstdint>
#include <cstdlib>
#include <string>

#include <kapi/errors.hpp>
#include <kapi/host/detail/group.hpp>
#include <kapi/host/detail/work_group_setting.hpp>

#include "../environment.hpp"

namespace kapi::detail {

HostWorkGroupSetting parse_host_work_groups(const char* text) {
  HostWorkGroupSetting s;
  const std::string value = text ? text : "";
  if (value == "loops")
    s.loops = true;
  else if (value == "fibers")
    s.loops = false;
  else
    s.error = "KAPI_WORK_GROUPS='" + value +
              "' is not an engine for host work-groups with barriers; give 'loops' (the kernel's loop form where "
              "the Clang pass made one, fibers otherwise) or 'fibers' (one context per work-item)";
  return s;
}

const HostWorkGroupSetting& host_work_group_setting() {
  static const HostWorkGroupSetting setting =
      setting_from_environment<HostWorkGroupSetting>("KAPI_WORK_GROUPS", parse_host_work_groups);
  return setting;
}

void check_host_work_groups() {
  const HostWorkGroupSetting& s = host_work_group_setting();
  if (!s.error.empty()) throw launch_error(s.error);
}

std::size_t HostGroup::enter_loops() {
  loops_ran_ = true;
  return count_;
}

std::size_t HostGroup::local_id(unsigned level) const {
  std::size_t linear = current_;
  for (unsigned d = 2; d > level; --d) linear /= shape_.extent[d];
  return level < 3 ? linear % shape_.extent[level] : 0;
}

void* HostGroup::loop_storage(std::size_t bytes) {
  constexpr std::size_t align = 64;
  if (loop_storage_.size() * sizeof(Slot) < bytes + align) grow(loop_storage_, bytes + align);
  const auto p = reinterpret_cast<std::uintptr_t>(loop_storage_.data());
  return reinterpret_cast<void*>((p + align - 1) & ~std::uintptr_t(align - 1));
}

}  // namespace kapi::detail

using kapi::detail::HostGroup;

extern "C" {

void kapi_host_group_barrier(HostGroup* group) { group->barrier(); }
std::size_t kapi_host_work_item(const HostGroup* group) { return group->current_work_item(); }
std::size_t kapi_host_barriers_passed(const HostGroup* group) { return group->barriers_passed(); }
std::size_t kapi_host_local_id(const HostGroup* group, unsigned level) { return group->local_id(level); }
bool kapi_host_loops_available(HostGroup*) { return false; }

std::size_t kapi_host_loops_enter(HostGroup* group) { return group->enter_loops(); }
std::size_t kapi_host_loops_extent(const HostGroup* group, unsigned level) { return group->loops_extent(level); }
void* kapi_host_loop_storage(HostGroup* group, std::size_t bytes) { return group->loop_storage(bytes); }
std::size_t* kapi_host_loops_item(HostGroup* group) { return group->loops_item(); }
void kapi_host_loops_diverged(HostGroup* group) {
  group->fail("work-items of group " + std::to_string(group->group_linear_id()) +
              " reached different group_barrier calls (work-group loops): every work-item of a group must reach the "
              "same barriers");
}
}
