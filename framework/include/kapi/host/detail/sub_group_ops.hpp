// SPDX-License-Identifier: Apache-2.0
#pragma once
// The sub-group algorithms (sub_group_algorithms.hpp) on host backends, where every
// work-item is a sub-group of its own (sub_group.hpp says why): a shuffle's only source
// is the work-item itself, a reduction or a vote is its own value, a scan its first step.
#include <cstddef>

#include <kapi/detail/sequential_scan.hpp>
#include <kapi/sub_group.hpp>

namespace kapi::detail::host_sub_group_ops {

static_assert(compiled_sub_group_size == 1, "host sub-groups are single work-items");

template <class T>
T shuffle(const SubGroup&, const T& x, std::size_t) {
  return x;
}

template <class T, class Op>
T reduce(const SubGroup&, const T& x, const Op&) {
  return x;
}

template <bool Inclusive, bool HasInit, class T, class Op>
T scan(const SubGroup&, const T& x, const Op& op, const T& init) {
  if constexpr (Inclusive) {
    return HasInit ? T(op(init, x)) : x;
  } else {
    return scan_first_value<Inclusive, HasInit, Op>(init);
  }
}

inline bool any(const SubGroup&, bool p) { return p; }
inline bool all(const SubGroup&, bool p) { return p; }

}  // namespace kapi::detail::host_sub_group_ops
