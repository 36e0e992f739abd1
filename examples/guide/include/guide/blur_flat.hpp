// SPDX-License-Identifier: Apache-2.0
#pragma once
// The box blur in the flat form: a range kernel (every read from global memory) and an
// nd-range kernel (the work-group's inputs staged once in local memory), and their launches.
//
//   guide::blur_range(space, in, out, radius);
//   guide::blur_nd_range(space, in, out, radius, 256);   // work-groups of 256, any n
//   float change = guide::blur_range_max_change(space, in, out, radius);  // and max |out - in|
#include <kapi/kapi.hpp>

#include <cstddef>
#include <stdexcept>
#include <string>

#include "blur_window.hpp"

namespace guide {

// [guide:range-kernel]
/// out(i) = the mean of in(i - radius) ... in(i + radius): one work-item per element,
/// each reading its 2 * radius + 1 inputs from global memory.
struct BoxBlurRange {
  template <class In, class Out>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::Item<1>& it, const In& in, const Out& out, int radius) const {
    const std::size_t i = it.get_id(0), n = in.extent(0);
    out(i) = window_mean([&](std::ptrdiff_t j) { return in(clamp_index(j, n)); }, std::ptrdiff_t(i) - radius, radius);
  }
};
// [guide:end]

// [guide:nd-range-kernel]
/// The same blur with the group's inputs staged in local memory: the group copies its
/// local + 2 * radius inputs (its own and a halo of `radius` on each side) into the
/// tile once, waits at the barrier, and every work-item reads its window from the tile.
struct BoxBlurNdRange {
  template <class In, class Out>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it, const In& in, const Out& out,
                                         const kapi::LocalAccessor<float, 1>& tile, int radius) const {
    const std::size_t local = it.get_local_range(0), local_id = it.get_local_id(0), i = it.get_global_id(0);
    const std::ptrdiff_t tile_start = std::ptrdiff_t(it.get_group().get_group_id(0) * local) - radius;
    load_tile_share(tile, in, tile_start, local_id, local);
    kapi::group_barrier(it.get_group());
    // The global range is padded up to whole groups: the padding work-items stop here,
    // after the barrier that every work-item of the group must reach.
    if (i < in.extent(0))
      out(i) = window_mean([&](std::ptrdiff_t t) { return tile[t]; }, std::ptrdiff_t(local_id), radius);
  }
};
// [guide:end]

/// Rejects what no form of the blur can do, naming the values.
template <class In, class Out>
void check_blur_arguments(const In& in, const Out& out, int radius) {
  if (radius < 0) throw std::invalid_argument("box blur: radius " + std::to_string(radius) + " is negative");
  if (in.extent(0) != out.extent(0))
    throw std::invalid_argument("box blur: output of " + std::to_string(out.extent(0)) + " elements for an input of " +
                                std::to_string(in.extent(0)));
}

// [guide:range-launch]
template <class ExecSpace, class In, class Out>
void blur_range(const ExecSpace& space, const In& in, const Out& out, int radius) {
  check_blur_arguments(in, out, radius);
  kapi::call_kernel(space, BoxBlurRange{}, kapi::Range<1>(in.extent(0)), in, out, radius);
}
// [guide:end]

// [guide:reduction-kernel]
/// The range blur that also measures, in the same launch, the largest change it makes:
/// every work-item combines |out(i) - in(i)| into a reduction variable.
struct BoxBlurRangeMaxChange {
  template <class In, class Out, class MaxChange>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::Item<1>& it, const In& in, const Out& out, int radius,
                                         MaxChange& max_change) const {
    const std::size_t i = it.get_id(0), n = in.extent(0);
    const float blurred =
        window_mean([&](std::ptrdiff_t j) { return in(clamp_index(j, n)); }, std::ptrdiff_t(i) - radius, radius);
    out(i) = blurred;
    max_change.combine(kapi::fabs(blurred - in(i)));
  }
};

/// Blurs `in` into `out` and returns the largest |out(i) - in(i)|.
template <class ExecSpace, class In, class Out>
float blur_range_max_change(const ExecSpace& space, const In& in, const Out& out, int radius) {
  check_blur_arguments(in, out, radius);
  Kokkos::View<float, typename ExecSpace::memory_space> max_change("max_change");  // 0: max combines with it
  kapi::call_kernel(space, BoxBlurRangeMaxChange{}, kapi::Range{in.extent(0)}, in, out, radius,
                    kapi::reduction(max_change, kapi::maximum<>()));
  float result;
  Kokkos::deep_copy(result, max_change);
  return result;
}
// [guide:end]

// [guide:nd-range-launch]
/// n rounded up to whole work-groups of `local` (a zero `local` is left for call_kernel
/// to reject).
inline std::size_t padded_range(std::size_t n, std::size_t local) {
  return local == 0 ? n : (n + local - 1) / local * local;
}

/// Runs a work-group form of the blur (flat or phased: same arguments, same nd-range)
/// with groups of `local` work-items, each with a tile of local + 2 * radius floats.
template <class ExecSpace, class Kernel, class In, class Out>
void blur_in_groups(const ExecSpace& space, const Kernel& kernel, const In& in, const Out& out, int radius,
                    std::size_t local) {
  check_blur_arguments(in, out, radius);
  kapi::LocalAccessor<float, 1> tile(local + 2 * std::size_t(radius));
  kapi::call_kernel(space, kernel, kapi::NdRange<1>({padded_range(in.extent(0), local)}, {local}), in, out, tile,
                    radius);
}

template <class ExecSpace, class In, class Out>
void blur_nd_range(const ExecSpace& space, const In& in, const Out& out, int radius, std::size_t local) {
  blur_in_groups(space, BoxBlurNdRange{}, in, out, radius, local);
}
// [guide:end]

}  // namespace guide
