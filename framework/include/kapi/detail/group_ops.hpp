#pragma once
// The one place the group algorithms and phases pick their backend: detail::group_ops is
// host_group_ops (host/detail/group_algorithms.hpp) in host code and device_group_ops
// (device/detail/group_algorithms.hpp) in device code. Both offer the same functions; the
// public headers (group_algorithms.hpp, phased.hpp) forward to them.
#include <kapi/config.hpp>

#if KAPI_COMPILING_DEVICE_CODE
#include <kapi/device/detail/group_algorithms.hpp>
namespace kapi::detail {
namespace group_ops = device_group_ops;
}
#else
#include <kapi/host/detail/group_algorithms.hpp>
namespace kapi::detail {
namespace group_ops = host_group_ops;
}
#endif
