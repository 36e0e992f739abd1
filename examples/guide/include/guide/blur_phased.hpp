// SPDX-License-Identifier: Apache-2.0
#pragma once
// The box blur in the phased form: BoxBlurNdRange (blur_flat.hpp) written once per
// work-group, its two steps as phases with the group barrier implied between them.
//
//   guide::blur_phased(space, in, out, radius, 256);
#include <kapi/kapi.hpp>

#include <cstddef>

#include "blur_flat.hpp"
#include "blur_window.hpp"

namespace guide {

// [guide:phased-kernel]
struct BoxBlurPhased {
  template <class In, class Out>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::WorkGroup<1>& wg, const In& in, const Out& out,
                                         const kapi::LocalAccessor<float, 1>& tile, int radius) const {
    const std::size_t local = wg.get_local_range(0);
    const std::ptrdiff_t tile_start = std::ptrdiff_t(wg.get_group_id(0) * local) - radius;
    kapi::for_each_work_item(wg, [&](const kapi::NdItem<1>& it) {
      load_tile_share(tile, in, tile_start, it.get_local_id(0), local);
    });  // the group barrier between phases is implied
    kapi::for_each_work_item(wg, [&](const kapi::NdItem<1>& it) {
      const std::size_t i = it.get_global_id(0);
      if (i < in.extent(0))
        out(i) = window_mean([&](std::ptrdiff_t t) { return tile[t]; }, std::ptrdiff_t(it.get_local_id(0)), radius);
    });
  }
};

template <class ExecSpace, class In, class Out>
void blur_phased(const ExecSpace& space, const In& in, const Out& out, int radius, std::size_t local) {
  blur_in_groups(space, BoxBlurPhased{}, in, out, radius, local);
}
// [guide:end]

}  // namespace guide
