// SPDX-License-Identifier: Apache-2.0
#pragma once
// The exception every rejected launch throws.
#include <cstddef>
#include <stdexcept>
#include <string>

namespace kapi {

/// Thrown by call_kernel before anything runs when the launch is invalid, and after a
/// launch when the kernel broke the execution model (e.g. a divergent group_barrier).
/// The message names the problem and the values involved.
class launch_error : public std::invalid_argument {
 public:
  explicit launch_error(const std::string& what) : std::invalid_argument("kapi: " + what) {}
};

namespace detail {
/// "{a, b, c}": extents or ids in messages (src/validate.cpp).
std::string format_extents(const std::size_t* v, std::size_t n);

template <std::size_t N>
std::string format_extents(const std::size_t (&v)[N]) {
  return format_extents(v, N);
}
}  // namespace detail
}  // namespace kapi
