// SPDX-License-Identifier: Apache-2.0
#pragma once
// KAPI_HOST_STACK_BYTES: the stack of each work-item context on a host backend. Parsed
// strictly once per process; a bad value makes every launch that needs contexts throw
// launch_error naming the variable, the value and the accepted range (read on the
// launching thread, never inside a parallel region). Compiled in the runtime
// (src/host/stack_bytes.cpp).
#include <cstddef>
#include <string>

namespace kapi::detail {

inline constexpr std::size_t host_stack_default_bytes = std::size_t(128) << 10;
inline constexpr std::size_t host_stack_min_bytes = std::size_t(16) << 10;
// 1024 work-items × 64 MiB is 64 GiB of address space per host thread: the most that
// 128 threads can reserve inside a 47-bit user address space with room to spare.
inline constexpr std::size_t host_stack_max_bytes = std::size_t(64) << 20;

struct HostStackSetting {
  std::size_t bytes = host_stack_default_bytes;
  std::string error;  // empty when the setting is usable
};

/// Parses a byte count: decimal digits with an optional K, M or G suffix (powers of 1024).
HostStackSetting parse_host_stack_bytes(const char* text);

/// The process' setting (the environment is read once).
const HostStackSetting& host_stack_setting();

/// Bytes of stack per work-item context; throws launch_error when the setting is bad.
std::size_t host_stack_bytes();

}  // namespace kapi::detail
