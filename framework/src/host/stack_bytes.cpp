// SPDX-License-Identifier: Apache-2.0
#include <kapi/host/detail/stack_bytes.hpp>

#include <unistd.h>

#include <cstdint>
#include <cstdlib>

#include <kapi/errors.hpp>

#include "../environment.hpp"

namespace kapi::detail {

/// Parses a byte count: decimal digits with an optional K, M or G suffix (powers of 1024).
HostStackSetting parse_host_stack_bytes(const char* text) {
  HostStackSetting s;
  const std::string value = text ? text : "";
  auto reject = [&](const std::string& why) {
    s.error = "KAPI_HOST_STACK_BYTES='" + value + "' " + why + "; give a byte count from " +
              std::to_string(host_stack_min_bytes) + " (16K) to " + std::to_string(host_stack_max_bytes) +
              " (64M), optionally with a K, M or G suffix (e.g. 256K)";
    return s;
  };
  std::size_t i = 0;
  std::uint64_t n = 0;
  for (; i < value.size() && value[i] >= '0' && value[i] <= '9'; ++i) {
    if (n > (UINT64_MAX - 9) / 10) return reject("is too large");
    n = n * 10 + std::uint64_t(value[i] - '0');
  }
  if (i == 0) return reject("is not a byte count");
  unsigned shift = 0;
  if (i < value.size()) {
    const char unit = value[i++];
    if (unit == 'K' || unit == 'k')
      shift = 10;
    else if (unit == 'M' || unit == 'm')
      shift = 20;
    else if (unit == 'G' || unit == 'g')
      shift = 30;
    else
      return reject("is not a byte count");
    if (i < value.size()) return reject("is not a byte count");
  }
  if (n > (UINT64_MAX >> shift)) return reject("is too large");
  n <<= shift;
  if (n < host_stack_min_bytes) return reject("is too small");
  if (n > host_stack_max_bytes) return reject("is too large");
  const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  s.bytes = (static_cast<std::size_t>(n) + page - 1) / page * page;  // n <= 64M: no overflow
  return s;
}

/// The process' setting (the environment is read once).
const HostStackSetting& host_stack_setting() {
  static const HostStackSetting setting =
      setting_from_environment<HostStackSetting>("KAPI_HOST_STACK_BYTES", parse_host_stack_bytes);
  return setting;
}

/// Bytes of stack per work-item context; throws launch_error when the setting is bad.
std::size_t host_stack_bytes() {
  const HostStackSetting& s = host_stack_setting();
  if (!s.error.empty()) throw launch_error(s.error);
  return s.bytes;
}

}  // namespace kapi::detail
