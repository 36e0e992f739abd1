// SPDX-License-Identifier: Apache-2.0
#pragma once
// The exception every rejected launch throws.
#include <array>
#include <cstddef>
#include <sstream>
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
template <class T, std::size_t N>
std::string format_extents(const T (&v)[N]) {
  std::ostringstream s;
  s << '{';
  for (std::size_t d = 0; d < N; ++d) s << (d ? ", " : "") << v[d];
  s << '}';
  return s.str();
}
}  // namespace detail
}  // namespace kapi
