// SPDX-License-Identifier: Apache-2.0
#pragma once
// Range<N> and NdRange<N>: the iteration spaces of range and nd-range kernels.
// Every natural spelling of a shape works, with any mix of integer types:
//   kapi::Range<2>{s, t}    kapi::Range<2>(s, t)    kapi::Range{s, t}    kapi::Range<2> r = {s, t};
//   kapi::Range<2>({s, t})  kapi::Range(std::array<std::size_t, 2>{s, t})
//   kapi::NdRange<2>({g, g}, {l, l})    kapi::NdRange({g, g}, {l, l})    kapi::NdRange(Range{g, g}, Range{l, l})
//   kapi::NdRange<1>(n, 64)             kapi::NdRange(n, 64)
#include <array>
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
  /// From a std::array of extents (host code).
  template <class I, class = std::enable_if_t<std::is_integral_v<I>>>
  constexpr Range(const std::array<I, N>& e) {
    for (int d = 0; d < N; ++d) extent[d] = static_cast<std::size_t>(e[static_cast<std::size_t>(d)]);
  }

  KAPI_FUNCTION constexpr std::size_t operator[](int d) const { return extent[d]; }
  KAPI_FUNCTION constexpr std::size_t get(int d) const { return extent[d]; }
  KAPI_FUNCTION constexpr std::size_t size() const {
    std::size_t s = 1;
    for (int d = 0; d < N; ++d) s *= extent[d];
    return s;
  }

  // SYCL's range operators: == and != on whole ranges; + - * / % element-wise with another
  // Range or an integer on either side (groups * local, global / local), and compound.
  KAPI_FUNCTION friend constexpr bool operator==(const Range& a, const Range& b) {
    for (int d = 0; d < N; ++d)
      if (a.extent[d] != b.extent[d]) return false;
    return true;
  }
  KAPI_FUNCTION friend constexpr bool operator!=(const Range& a, const Range& b) { return !(a == b); }
#define KAPI_IMPL_RANGE_OPERATOR(OP)                                                           \
  KAPI_FUNCTION friend constexpr Range operator OP(const Range& a, const Range& b) {           \
    Range r;                                                                                   \
    for (int d = 0; d < N; ++d) r.extent[d] = a.extent[d] OP b.extent[d];                      \
    return r;                                                                                  \
  }                                                                                            \
  template <class T, class = std::enable_if_t<std::is_integral_v<T>>>                          \
  KAPI_FUNCTION friend constexpr Range operator OP(const Range& a, T b) {                      \
    return a OP Range::filled(static_cast<std::size_t>(b));                                    \
  }                                                                                            \
  template <class T, class = std::enable_if_t<std::is_integral_v<T>>>                          \
  KAPI_FUNCTION friend constexpr Range operator OP(T a, const Range& b) {                      \
    return Range::filled(static_cast<std::size_t>(a)) OP b;                                    \
  }                                                                                            \
  KAPI_FUNCTION constexpr Range& operator OP##=(const Range& b) { return *this = *this OP b; } \
  template <class T, class = std::enable_if_t<std::is_integral_v<T>>>                          \
  KAPI_FUNCTION constexpr Range& operator OP##=(T b) {                                         \
    return *this = *this OP Range::filled(static_cast<std::size_t>(b));                        \
  }
  KAPI_IMPL_RANGE_OPERATOR(+)
  KAPI_IMPL_RANGE_OPERATOR(-)
  KAPI_IMPL_RANGE_OPERATOR(*)
  KAPI_IMPL_RANGE_OPERATOR(/)
  KAPI_IMPL_RANGE_OPERATOR(%)
#undef KAPI_IMPL_RANGE_OPERATOR

 private:
  KAPI_FUNCTION static constexpr Range filled(std::size_t v) {
    Range r;
    for (int d = 0; d < N; ++d) r.extent[d] = v;
    return r;
  }
};

namespace detail {
template <int N>
KAPI_FUNCTION constexpr Range<N> to_range(const std::size_t (&extent)[N]) {
  Range<N> r;
  for (int d = 0; d < N; ++d) r.extent[d] = extent[d];
  return r;
}
}  // namespace detail

template <class... I>
Range(I...) -> Range<static_cast<int>(sizeof...(I))>;
template <class I, std::size_t M>
Range(std::array<I, M>) -> Range<static_cast<int>(M)>;

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
/// NdRange({g0, g1}, {l0, l1}): the rank from the braced extents.
template <class I, class J, std::size_t M>
NdRange(const I (&)[M], const J (&)[M]) -> NdRange<static_cast<int>(M)>;
/// NdRange(n, local): one dimension.
template <class I, class J, class = std::enable_if_t<std::is_integral_v<I> && std::is_integral_v<J>>>
NdRange(I, J) -> NdRange<1>;
template <class I, class J, std::size_t M>
NdRange(std::array<I, M>, std::array<J, M>) -> NdRange<static_cast<int>(M)>;

template <class T>
inline constexpr bool is_range_v = false;
template <int N>
inline constexpr bool is_range_v<Range<N>> = true;
template <class T>
inline constexpr bool is_nd_range_v = false;
template <int N>
inline constexpr bool is_nd_range_v<NdRange<N>> = true;

}  // namespace kapi
