// SPDX-License-Identifier: Apache-2.0
#pragma once
// What every loop-nest policy shares: the index type the body receives, the extents of
// the nest, and the checks and arithmetic the mappings use.
#include <cstddef>
#include <cstdint>
#include <string>

#include <kapi/detail/kernel_names.hpp>
#include <kapi/errors.hpp>
#include <kapi/execution_space.hpp>
#include <kapi/integer_math.hpp>
#include <kapi/range.hpp>

namespace kapi::nest {

/// The type of i, j and k handed to a loop-nest body: 64-bit, so that linear offsets
/// such as i * nj * nk never overflow for large grids.
using index_type = std::int64_t;

namespace detail {

/// The extents of the three loops, i (outermost, slowest in a LayoutRight array),
/// j, and k (innermost, contiguous in a LayoutRight array).
struct Extents {
  index_type n[3];
};

inline Extents extents_of(const Range<3>& r) {
  return Extents{{static_cast<index_type>(r.extent[0]), static_cast<index_type>(r.extent[1]),
                  static_cast<index_type>(r.extent[2])}};
}

/// What Kokkos Tools shows for a loop nest: "kapi::nest <policy name> <body type>".
template <class Body>
std::string label(const std::string& policy_name) {
  return "kapi::nest " + policy_name + " " + kapi::detail::type_name<Body>();
}

/// Policy shapes are written x×y×z, as CUDA and RAJA write them: x is the contiguous
/// k loop, z the outer i loop. Internally they are kept in loop order {i, j, k}.
inline std::string shape_name(const index_type (&ijk)[3]) {
  return std::to_string(ijk[2]) + "x" + std::to_string(ijk[1]) + "x" + std::to_string(ijk[0]);
}

inline void require_positive_shape(const index_type (&ijk)[3], const std::string& policy, const char* what) {
  for (int d = 0; d < 3; ++d)
    if (ijk[d] <= 0)
      throw launch_error("loop-nest policy " + policy + ": every " + what + " extent must be positive (got " +
                         shape_name(ijk) + ", written x×y×z with x the contiguous k loop)");
}

inline int checked_league(index_type count, const std::string& policy) {
  if (count > static_cast<index_type>(INT32_MAX))
    throw launch_error("loop-nest policy " + policy + " needs " + std::to_string(count) +
                       " blocks, more than one launch takes (" + std::to_string(INT32_MAX) +
                       "); use larger blocks or tiles");
  return static_cast<int>(count);
}

}  // namespace detail
}  // namespace kapi::nest
