// SPDX-License-Identifier: Apache-2.0
#pragma once
// Who may launch on a host backend, and when (check_launching_thread, host_dispatch_turn,
// HostKernelScope): the host backend's rules (host/detail/launch_rules.hpp), for the
// public headers that launch on host spaces themselves (the loop-nest policies, nest/).
#include <kapi/host/detail/launch_rules.hpp>
