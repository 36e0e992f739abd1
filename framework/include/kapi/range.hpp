#pragma once
// Range<N> and NdRange<N>: the iteration spaces of range and nd-range kernels.
#include <cstddef>
#include <type_traits>

#include <kapi/config.hpp>

namespace kapi {

/// An N-dimensional extent (N = 1, 2, 3). Dimension N-1 varies fastest, as in SYCL.
template <int N>
struct Range {
  static_assert(N >= 1 && N <= 3, "kapi::Range supports 1, 2 or 3 dimensions");
  static constexpr int dimensions = N;
  std::size_t extent[N] = {};

  constexpr Range() = default;
  template <class... I, class = std::enable_if_t<sizeof...(I) == N && (std::is_integral_v<I> && ...)>>
  KAPI_FUNCTION constexpr Range(I... e) : extent{static_cast<std::size_t>(e)...} {}

  KAPI_FUNCTION constexpr std::size_t operator[](int d) const { return extent[d]; }
  KAPI_FUNCTION constexpr std::size_t get(int d) const { return extent[d]; }
  KAPI_FUNCTION constexpr std::size_t size() const {
    std::size_t s = 1;
    for (int d = 0; d < N; ++d) s *= extent[d];
    return s;
  }
};

template <class... I>
Range(I...) -> Range<static_cast<int>(sizeof...(I))>;

/// A global range cut into work-groups of the local range.
template <int N>
struct NdRange {
  static constexpr int dimensions = N;
  Range<N> global;
  Range<N> local;

  constexpr NdRange() = default;
  KAPI_FUNCTION constexpr NdRange(Range<N> global_range, Range<N> local_range)
      : global(global_range), local(local_range) {}

  KAPI_FUNCTION constexpr Range<N> get_global_range() const { return global; }
  KAPI_FUNCTION constexpr Range<N> get_local_range() const { return local; }
  /// Number of work-groups per dimension (valid once the launch is validated).
  KAPI_FUNCTION constexpr Range<N> get_group_range() const {
    Range<N> g;
    for (int d = 0; d < N; ++d) g.extent[d] = local.extent[d] ? global.extent[d] / local.extent[d] : 0;
    return g;
  }
};

template <int N>
NdRange(Range<N>, Range<N>) -> NdRange<N>;

template <class T>
inline constexpr bool is_range_v = false;
template <int N>
inline constexpr bool is_range_v<Range<N>> = true;
template <class T>
inline constexpr bool is_nd_range_v = false;
template <int N>
inline constexpr bool is_nd_range_v<NdRange<N>> = true;

}  // namespace kapi
