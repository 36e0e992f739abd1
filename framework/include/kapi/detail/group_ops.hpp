// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one place the group algorithms and phases pick their backend: detail::group_ops is
// host_group_ops (host/detail/group_algorithms.hpp) in host code and device_group_ops
// (team/detail/group_algorithms.hpp, over the device pass's warp and block primitives:
// detail/device_primitives.hpp) in device code. Both offer the same functions; the
// public headers (group_algorithms.hpp, phased.hpp) forward to them. The same for the
// sub-group algorithms (sub_group_algorithms.hpp): detail::sub_group_ops.
#include <kapi/config.hpp>

#if KAPI_COMPILING_DEVICE_CODE
#include <kapi/team/detail/group_algorithms.hpp>
#include <kapi/team/detail/sub_group_ops.hpp>
namespace kapi::detail {
namespace group_ops = device_group_ops;
namespace sub_group_ops = device_sub_group_ops;
}  // namespace kapi::detail
#else
#include <kapi/host/detail/group_algorithms.hpp>
#include <kapi/host/detail/sub_group_ops.hpp>
namespace kapi::detail {
namespace group_ops = host_group_ops;
namespace sub_group_ops = host_sub_group_ops;
}  // namespace kapi::detail
#endif
