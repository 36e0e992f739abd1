// SPDX-License-Identifier: Apache-2.0
#include <kapi/detail/validate.hpp>

#include <kapi/detail/kernel_args.hpp>

namespace kapi::detail {
std::string format_extents(const std::size_t* v, std::size_t n) {
  std::string s = "{";
  for (std::size_t d = 0; d < n; ++d) s += (d ? ", " : "") + std::to_string(v[d]);
  return s + "}";
}

std::size_t checked_size(const std::size_t* extent, int n, const char* what) {
  constexpr std::size_t max = static_cast<std::size_t>(INT64_MAX);
  for (int d = 0; d < n; ++d)
    if (extent[d] == 0) return 0;
  std::size_t size = 1;
  for (int d = 0; d < n; ++d)
    if (__builtin_mul_overflow(size, extent[d], &size) || size > max)
      throw launch_error(std::string(what) + " range " + format_extents(extent, std::size_t(n)) + " holds more than " +
                         std::to_string(max) +
                         " work-items (2^63 - 1, the most a launch indexes): its extents' product overflows");
  return size;
}

void reject_local_accessor_in_range_kernel(std::size_t argument) {
  throw launch_error("argument " + std::to_string(argument) +
                     " is a LocalAccessor, but the kernel is launched with a Range: local memory "
                     "exists only in nd-range kernels (launch with an NdRange)");
}

void reject_local_memory_overflow(std::size_t argument, const std::size_t* shape, std::size_t dimensions,
                                  std::size_t element_bytes) {
  throw launch_error("LocalAccessor argument " + std::to_string(argument) + " of shape " +
                     format_extents(shape, dimensions) + " (" + std::to_string(element_bytes) +
                     "-byte elements) needs more bytes than a size can count, with the other local memory");
}

void validate_nd_range(const std::size_t* global, const std::size_t* local, int n) {
  for (int d = 0; d < n; ++d)
    if (local[d] == 0)
      throw launch_error("local range " + format_extents(local, std::size_t(n)) + " has a zero extent in dimension " +
                         std::to_string(d) + "; every work-group needs at least one work-item per dimension");
  for (int d = 0; d < n; ++d)
    if (global[d] % local[d] != 0)
      throw launch_error("global range " + format_extents(global, std::size_t(n)) +
                         " is not divisible by local range " + format_extents(local, std::size_t(n)) +
                         " in dimension " + std::to_string(d) + " (" + std::to_string(global[d]) + " % " +
                         std::to_string(local[d]) + " = " + std::to_string(global[d] % local[d]) +
                         "); pad the global range up to a multiple of the local range");
}

void validate_group_size(std::size_t local, std::size_t max, const char* space, const char* why) {
  if (local > max)
    throw launch_error("work-group of " + std::to_string(local) + " work-items is larger than the " +
                       std::string(space) + " execution space allows (" + std::to_string(max) + why + ")");
}

void validate_local_memory(std::size_t bytes, std::size_t max, const char* space) {
  if (bytes > max)
    throw launch_error("local memory of " + std::to_string(bytes) +
                       " bytes per work-group (all LocalAccessor arguments) is more than the " + std::string(space) +
                       " execution space allows (" + std::to_string(max) + " bytes)");
}

void validate_group_count(std::size_t groups) {
  if (groups > max_group_count)
    throw launch_error(std::to_string(groups) + " work-groups are more than one launch takes (" +
                       std::to_string(max_group_count) + "); use larger work-groups");
}

}  // namespace kapi::detail
