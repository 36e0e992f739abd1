// SPDX-License-Identifier: Apache-2.0
#pragma once
// The sub-group algorithms (sub_group_algorithms.hpp) in the team backend's device code,
// where a sub-group is one warp (warp.hpp): shuffles and votes are the device backend's
// warp primitives over the sub-group's existing lanes, reductions and scans shuffle trees.
#include <cstddef>

#include <kapi/detail/sequential_scan.hpp>
#include <kapi/team/detail/warp.hpp>
#include <kapi/sub_group.hpp>

#if KAPI_COMPILING_DEVICE_CODE
namespace kapi::detail::device_sub_group_ops {

struct Lanes {
  int lane, lanes;
  warp::Mask mask;
};
__device__ inline Lanes lanes_of(const SubGroup& sg) {
  const int lanes = static_cast<int>(sg.get_local_range());
  return {static_cast<int>(sg.get_local_id()), lanes, warp::mask_of(lanes)};
}

/// Work-item `src`'s x (src: a local id of the sub-group, checked by the caller).
template <class T>
__device__ T shuffle(const SubGroup& sg, const T& x, std::size_t src) {
  return warp::shuffle(x, static_cast<int>(src), lanes_of(sg).mask);
}

template <class T, class Op>
__device__ T reduce(const SubGroup& sg, const T& x, const Op& op) {
  const Lanes l = lanes_of(sg);
  return warp::reduce(x, op, l.lane, l.lanes, l.mask);
}

template <bool Inclusive, bool HasInit, class T, class Op>
__device__ T scan(const SubGroup& sg, const T& x, const Op& op, const T& init) {
  const Lanes l = lanes_of(sg);
  const T incl = warp::inclusive_scan(x, op, l.lane, l.lanes, l.mask);
  if constexpr (Inclusive) {
    return HasInit ? T(op(init, incl)) : incl;
  } else {
    const T below = warp::shuffle(incl, l.lane > 0 ? l.lane - 1 : 0, l.mask);
    if (l.lane == 0) return scan_first_value<Inclusive, HasInit, Op>(init);
    return HasInit ? T(op(init, below)) : below;
  }
}

__device__ inline bool any(const SubGroup& sg, bool p) { return warp::any(p, lanes_of(sg).mask); }
__device__ inline bool all(const SubGroup& sg, bool p) { return warp::all(p, lanes_of(sg).mask); }

}  // namespace kapi::detail::device_sub_group_ops
#endif  // KAPI_COMPILING_DEVICE_CODE
