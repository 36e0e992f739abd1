// SPDX-License-Identifier: Apache-2.0
#pragma once
// The loop-nest policies that run the body as a kapi kernel: a Range<3> kernel (one
// work-item per point) and an NdRange<3> kernel (work-groups tiling the points).
#include <algorithm>
#include <string>

#include <kapi/launch.hpp>
#include <kapi/nest/detail/extents.hpp>

namespace kapi::nest {

namespace detail {

// The body travels as the kernel's argument (call_kernel carries arguments to every
// work-item); the kernels themselves are stateless.
struct BodyAsRangeKernel {
  template <class Body>
  KAPI_FUNCTION void operator()(const Item<3>& it, const Body& body) const {
    body(static_cast<index_type>(it.get_id(0)), static_cast<index_type>(it.get_id(1)),
         static_cast<index_type>(it.get_id(2)));
  }
};

// The global range is padded up to whole work-groups; padding work-items do nothing.
// Without padding the kernel needs no bounds test (a conditional store keeps GCC from
// vectorising the host loop over a group's work-items).
struct BodyAsExactNdRangeKernel {
  template <class Body>
  KAPI_FUNCTION void operator()(const NdItem<3>& it, const Body& body) const {
    body(static_cast<index_type>(it.get_global_id(0)), static_cast<index_type>(it.get_global_id(1)),
         static_cast<index_type>(it.get_global_id(2)));
  }
};
struct BodyAsNdRangeKernel {
  Extents e;
  template <class Body>
  KAPI_FUNCTION void operator()(const NdItem<3>& it, const Body& body) const {
    const auto i = static_cast<index_type>(it.get_global_id(0)), j = static_cast<index_type>(it.get_global_id(1)),
               k = static_cast<index_type>(it.get_global_id(2));
    if (i < e.n[0] && j < e.n[1] && k < e.n[2]) body(i, j, k);
  }
};
// The common padding, rows of k only: one test, the same for every group a work-item runs
// (on CUDA a work-item runs several groups along i, whose tests the compiler then shares).
struct BodyAsRowPaddedNdRangeKernel {
  index_type nk;
  template <class Body>
  KAPI_FUNCTION void operator()(const NdItem<3>& it, const Body& body) const {
    const auto k = static_cast<index_type>(it.get_global_id(2));
    if (k < nk) body(static_cast<index_type>(it.get_global_id(0)), static_cast<index_type>(it.get_global_id(1)), k);
  }
};

// The body as an nd-range kernel over `range` in work-groups of `local`, the global range
// padded up to whole groups (NdRangeKernel; Tiles on CUDA).
template <class ExecSpace, class Body>
void call_padded_nd_range(const std::string& label, const ExecSpace& space, const Range<3>& range,
                          const Range<3>& local, const Body& body) {
  Range<3> global;
  bool padded[3];
  for (int d = 0; d < 3; ++d) {
    global.extent[d] = kapi::round_up(range.extent[d], local.extent[d]);
    if (global.extent[d] < range.extent[d])  // wrapped past SIZE_MAX
      throw launch_error(label + ": extent " + std::to_string(range.extent[d]) + " padded to whole groups of " +
                         std::to_string(local.extent[d]) + " overflows std::size_t");
    padded[d] = global.extent[d] != range.extent[d];
  }
  const NdRange<3> nd(global, local);
  if (padded[0] || padded[1])
    call_kernel(label, space, BodyAsNdRangeKernel{extents_of(range)}, nd, body);
  else if (padded[2])
    call_kernel(label, space, BodyAsRowPaddedNdRangeKernel{static_cast<index_type>(range.extent[2])}, nd, body);
  else
    call_kernel(label, space, BodyAsExactNdRangeKernel{}, nd, body);
}

}  // namespace detail

/// A kapi range kernel over Range<3>{ni, nj, nk}: one work-item per point, k the
/// fastest dimension (SYCL order), as call_kernel maps it (MDRangePolicy with tiles
/// whose long side is k).
struct RangeKernel {
  std::string name() const { return "kapi-range"; }

  template <class ExecSpace, class Body>
  void run(const ExecSpace& space, const Range<3>& range, const Body& body) const {
    call_kernel(detail::label<Body>(name()), space, detail::BodyAsRangeKernel{}, range, body);
  }
};

/// A kapi nd-range kernel: work-groups of `local` {i, j, k} work-items, the global range
/// padded up to whole groups. Local 0 = backend default: device {1, 8, 32} (a warp
/// along k); host {1, j rows, a row of k up to 1024 work-items} (one host thread runs a
/// group).
struct NdRangeKernel {
  index_type local[3] = {0, 0, 0};

  std::string name() const {
    return local[0] || local[1] || local[2] ? "kapi-nd-range-" + detail::shape_name(local) : "kapi-nd-range";
  }

  template <class ExecSpace>
  Range<3> local_range_for(const detail::Extents& e) const {
    index_type l[3];
    if constexpr (kapi::is_host_execution_space_v<ExecSpace>) {
      // As few groups per row as fit 1024 work-items each, evenly sized: little padding;
      // short rows are stacked along j, as many as divide nj and fit (fewer, larger
      // groups: a group's fixed cost is spread over more work-items).
      const index_type rows = std::max<index_type>(1, kapi::ceil_div(e.n[2], 1024));
      l[0] = 1, l[1] = 1, l[2] = std::max<index_type>(1, kapi::ceil_div(e.n[2], rows));
      for (index_type stack = std::min<index_type>(e.n[1], 1024 / l[2]); stack > 1; --stack)
        if (e.n[1] % stack == 0) {
          l[1] = stack;
          break;
        }
    } else {
      l[0] = 1, l[1] = 8, l[2] = 32;
    }
    for (int d = 0; d < 3; ++d)
      if (local[d] > 0) l[d] = local[d];
    return Range<3>(l[0], l[1], l[2]);
  }

  template <class ExecSpace, class Body>
  void run(const ExecSpace& space, const Range<3>& range, const Body& body) const {
    const auto e = detail::extents_of(range);
    for (int d = 0; d < 3; ++d)
      if (local[d] < 0) detail::require_positive_shape(local, name(), "local");
    detail::call_padded_nd_range(detail::label<Body>(name()), space, range, local_range_for<ExecSpace>(e), body);
  }
};

}  // namespace kapi::nest
