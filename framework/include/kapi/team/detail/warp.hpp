// SPDX-License-Identifier: Apache-2.0
#pragma once
// Warp algorithms of the team backend's device code, over the first `lanes` lanes of a
// hardware warp (CUDA: 32 lanes, HIP: a 64-lane wavefront), written once over the
// primitives each device backend supplies (cuda/detail/warp.hpp, hip/detail/wavefront.hpp,
// picked by kapi/detail/device_primitives.hpp). A work-group is one block whose thread
// index is the local linear id (launch.hpp asks Kokkos for vector length 1), so a
// sub-group, kapi::SubGroup, is exactly one warp, and the last warp of a group whose size
// is not a multiple of the warp is partial: its lanes past the group do not exist. Every
// primitive therefore takes the lane count and (CUDA) the mask of the existing lanes
// computed from it (the primitives say how).
//  - shuffles move any value as its bits, 4-byte word by word (arithmetic values up to
//    8 bytes directly): the public sub-group shuffles take trivially copyable values only
//    (sub_group_algorithms.hpp), group reductions of a phase any value (Kokkos::complex);
//  - reductions combine in one fixed order-preserving pairwise tree (lanes 2k and 2k+1,
//    then pairs of pairs, ...), so an associative operator need not commute and every
//    lane gets bit-identical results, floating point included;
//  - scans are Hillis-Steele (log2(lanes) shuffles).
#include <kapi/config.hpp>

#include <type_traits>

#include <kapi/detail/copy_bytes.hpp>
#include <kapi/detail/device_primitives.hpp>

#if KAPI_COMPILING_DEVICE_CODE
namespace kapi::detail::warp {

/// Lane `src`'s v (src must be an existing lane; every lane of the mask calls it).
template <class T>
__device__ T shuffle(const T& v, int src, Mask mask) {
  if constexpr (std::is_arithmetic_v<T> && sizeof(T) < sizeof(int)) {
    return T(shuffle_word(static_cast<int>(v), src, mask));
  } else if constexpr (direct_shuffles && (std::is_integral_v<T> || std::is_same_v<T, float> ||
                                           std::is_same_v<T, double>)&&sizeof(T) <= 8) {
    return shuffle_direct(v, src, mask);
  } else {
    constexpr int words = int((sizeof(T) + sizeof(int) - 1) / sizeof(int));
    int w[words];
    w[words - 1] = 0;  // the tail word of a size that is not a multiple of 4
    copy_bytes(w, static_cast<const void*>(&v), sizeof(T));
    for (int i = 0; i < words; ++i) w[i] = shuffle_word(w[i], src, mask);
    T r = v;
    copy_bytes(static_cast<void*>(&r), w, sizeof(T));  // bits (see above)
    return r;
  }
}

/// op over lanes 0 … lanes-1 of the warp, in lane order, to every lane.
template <class T, class Op>
__device__ T reduce(T v, const Op& op, int lane, int lanes, Mask mask) {
  if (lanes == size) {
    // Butterfly: at step d, the lanes with bit d clear hold the lower half of a block of 2d.
    for (int d = 1; d < size; d *= 2) {
      const T other = shuffle(v, lane ^ d, mask);
      v = (lane & d) ? T(op(other, v)) : T(op(v, other));
    }
    return v;
  }
  // The same pairwise tree, gathered in lane 0 (a partner past the last lane is skipped), then broadcast.
  for (int d = 1; d < lanes; d *= 2) {
    const bool take = (lane & (2 * d - 1)) == 0 && lane + d < lanes;
    const T other = shuffle(v, lane + d < lanes ? lane + d : lane, mask);
    if (take) v = T(op(v, other));
  }
  return shuffle(v, 0, mask);
}

/// op over lanes 0 … lane (inclusive scan).
template <class T, class Op>
__device__ T inclusive_scan(T v, const Op& op, int lane, int lanes, Mask mask) {
  for (int d = 1; d < lanes; d *= 2) {
    const T lower = shuffle(v, lane >= d ? lane - d : lane, mask);
    if (lane >= d) v = T(op(lower, v));
  }
  return v;
}

}  // namespace kapi::detail::warp
#endif  // KAPI_COMPILING_DEVICE_CODE
