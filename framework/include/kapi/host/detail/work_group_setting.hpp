// SPDX-License-Identifier: Apache-2.0
#pragma once
// KAPI_WORK_GROUPS=loops|fibers: which engine runs host work-groups with barriers, for
// tests and A/B measurements (README, "How work-groups run"). Default loops: a kernel's
// loop form where the Clang pass made one, fibers for the others. Parsed once per
// process; a bad value makes every nd-range launch on a host backend throw launch_error
// naming the variable and the value. Compiled in the runtime (src/host/work_group_loops.cpp).
#include <string>

namespace kapi::detail {

struct HostWorkGroupSetting {
  bool loops = true;
  std::string error;  // empty when the setting is usable
};

HostWorkGroupSetting parse_host_work_groups(const char* text);

/// The process' setting (the environment is read once).
const HostWorkGroupSetting& host_work_group_setting();

/// Throws launch_error when the setting is bad.
void check_host_work_groups();

}  // namespace kapi::detail
