// SPDX-License-Identifier: Apache-2.0
#pragma once
// Id<N>: an N-dimensional index as a value (SYCL's id). It indexes accessors and views,
// comes from get_global_id() / get_local_id() / get_id() without an argument, and a range
// kernel may take it as its parameter. The operators are SYCL 2020's: element-wise with
// another Id (or a Range, which converts), with a scalar on either side, and compound;
// == and != compare whole ids; <, >, <=, >=, && and || are element-wise and give an Id of
// 0s and 1s, as SYCL defines them. Id<1> converts to std::size_t.
//
//   kapi::Id<2> i = it.get_global_id();   out[i] = in[i + kapi::Id<2>(0, 1)];
#include <cstddef>
#include <type_traits>
#include <utility>

#include <kapi/config.hpp>
#include <kapi/range.hpp>

namespace kapi {

namespace detail {
// What Id<N> for N > 1 "converts" to: nothing a user can name or use.
struct IdNotOneDimensional {};
}  // namespace detail

template <int N>
class Id {
  static_assert(N >= 1 && N <= 3, "kapi::Id supports 1, 2 or 3 dimensions");

 public:
  static constexpr int dimensions = N;

  /// All zeros.
  constexpr Id() = default;
  /// Id<2>(i, j): one integer per dimension.
  template <class... I, class = std::enable_if_t<sizeof...(I) == N && (std::is_integral_v<I> && ...)>>
  KAPI_FUNCTION constexpr Id(I... i) : id_{static_cast<std::size_t>(i)...} {}
  /// The extents of a Range as an id (SYCL's id(range)).
  KAPI_FUNCTION constexpr Id(const Range<N>& r) {
    for (int d = 0; d < N; ++d) id_[d] = r.extent[d];
  }
  /// From the framework's plain arrays of ids.
  KAPI_FUNCTION static constexpr Id from_array(const std::size_t (&a)[N]) {
    Id r;
    for (int d = 0; d < N; ++d) r.id_[d] = a[d];
    return r;
  }

  KAPI_FUNCTION constexpr std::size_t get(int d) const { return id_[d]; }
  KAPI_FUNCTION constexpr std::size_t& operator[](int d) { return id_[d]; }
  KAPI_FUNCTION constexpr std::size_t operator[](int d) const { return id_[d]; }

  /// Id<1> is its one index (SYCL's operator size_t for one dimension). Not a template:
  /// a template conversion would not go on to bool or int.
  KAPI_FUNCTION constexpr operator std::conditional_t<N == 1, std::size_t, detail::IdNotOneDimensional>() const {
    return convert(std::integral_constant<bool, N == 1>());
  }

  KAPI_FUNCTION friend constexpr bool operator==(const Id& a, const Id& b) {
    for (int d = 0; d < N; ++d)
      if (a.id_[d] != b.id_[d]) return false;
    return true;
  }
  KAPI_FUNCTION friend constexpr bool operator!=(const Id& a, const Id& b) { return !(a == b); }
  // An Id<1> against an integer: without these, `i == 3` would be ambiguous between the
  // Id comparison and the built-in one through operator size_t.
  template <class T, int M = N, class = std::enable_if_t<M == 1 && std::is_integral_v<T>>>
  KAPI_FUNCTION friend constexpr bool operator==(const Id& a, T b) {
    return a.id_[0] == static_cast<std::size_t>(b);
  }
  template <class T, int M = N, class = std::enable_if_t<M == 1 && std::is_integral_v<T>>>
  KAPI_FUNCTION friend constexpr bool operator==(T a, const Id& b) {
    return static_cast<std::size_t>(a) == b.id_[0];
  }
  template <class T, int M = N, class = std::enable_if_t<M == 1 && std::is_integral_v<T>>>
  KAPI_FUNCTION friend constexpr bool operator!=(const Id& a, T b) {
    return !(a == b);
  }
  template <class T, int M = N, class = std::enable_if_t<M == 1 && std::is_integral_v<T>>>
  KAPI_FUNCTION friend constexpr bool operator!=(T a, const Id& b) {
    return !(a == b);
  }

  // Element-wise operators. The scalar forms are templates so that an integer of any type
  // matches exactly (no ambiguity with Id<1>'s conversion to size_t).
#define KAPI_IMPL_ID_BINARY(OP)                                                            \
  KAPI_FUNCTION friend constexpr Id operator OP(const Id& a, const Id& b) {                \
    Id r;                                                                                  \
    for (int d = 0; d < N; ++d) r.id_[d] = static_cast<std::size_t>(a.id_[d] OP b.id_[d]); \
    return r;                                                                              \
  }                                                                                        \
  template <class T, class = std::enable_if_t<std::is_integral_v<T>>>                      \
  KAPI_FUNCTION friend constexpr Id operator OP(const Id& a, T b) {                        \
    Id r;                                                                                  \
    const auto s = static_cast<std::size_t>(b);                                            \
    for (int d = 0; d < N; ++d) r.id_[d] = static_cast<std::size_t>(a.id_[d] OP s);        \
    return r;                                                                              \
  }                                                                                        \
  template <class T, class = std::enable_if_t<std::is_integral_v<T>>>                      \
  KAPI_FUNCTION friend constexpr Id operator OP(T a, const Id& b) {                        \
    Id r;                                                                                  \
    const auto s = static_cast<std::size_t>(a);                                            \
    for (int d = 0; d < N; ++d) r.id_[d] = static_cast<std::size_t>(s OP b.id_[d]);        \
    return r;                                                                              \
  }
#define KAPI_IMPL_ID_COMPOUND(OP)                                          \
  KAPI_FUNCTION constexpr Id& operator OP##=(const Id& b) {                \
    for (int d = 0; d < N; ++d) id_[d] OP## = b.id_[d];                    \
    return *this;                                                          \
  }                                                                        \
  template <class T, class = std::enable_if_t<std::is_integral_v<T>>>      \
  KAPI_FUNCTION constexpr Id& operator OP##=(T b) {                        \
    for (int d = 0; d < N; ++d) id_[d] OP## = static_cast<std::size_t>(b); \
    return *this;                                                          \
  }
  KAPI_IMPL_ID_BINARY(+)
  KAPI_IMPL_ID_BINARY(-)
  KAPI_IMPL_ID_BINARY(*)
  KAPI_IMPL_ID_BINARY(/)
  KAPI_IMPL_ID_BINARY(%)
  KAPI_IMPL_ID_BINARY(<<)
  KAPI_IMPL_ID_BINARY(>>)
  KAPI_IMPL_ID_BINARY(&)
  KAPI_IMPL_ID_BINARY(|)
  KAPI_IMPL_ID_BINARY(^)
  KAPI_IMPL_ID_BINARY(&&)
  KAPI_IMPL_ID_BINARY(||)
  KAPI_IMPL_ID_BINARY(<)
  KAPI_IMPL_ID_BINARY(>)
  KAPI_IMPL_ID_BINARY(<=)
  KAPI_IMPL_ID_BINARY(>=)
  KAPI_IMPL_ID_COMPOUND(+)
  KAPI_IMPL_ID_COMPOUND(-)
  KAPI_IMPL_ID_COMPOUND(*)
  KAPI_IMPL_ID_COMPOUND(/)
  KAPI_IMPL_ID_COMPOUND(%)
  KAPI_IMPL_ID_COMPOUND(<<)
  KAPI_IMPL_ID_COMPOUND(>>)
  KAPI_IMPL_ID_COMPOUND(&)
  KAPI_IMPL_ID_COMPOUND(|)
  KAPI_IMPL_ID_COMPOUND(^)
#undef KAPI_IMPL_ID_BINARY
#undef KAPI_IMPL_ID_COMPOUND

  KAPI_FUNCTION friend constexpr Id operator+(const Id& a) { return a; }
  KAPI_FUNCTION friend constexpr Id operator-(const Id& a) {
    Id r;
    for (int d = 0; d < N; ++d) r.id_[d] = std::size_t(0) - a.id_[d];
    return r;
  }
  KAPI_FUNCTION constexpr Id& operator++() { return *this += 1; }
  KAPI_FUNCTION constexpr Id& operator--() { return *this -= 1; }
  KAPI_FUNCTION constexpr Id operator++(int) {
    Id old = *this;
    *this += 1;
    return old;
  }
  KAPI_FUNCTION constexpr Id operator--(int) {
    Id old = *this;
    *this -= 1;
    return old;
  }

 private:
  KAPI_FUNCTION constexpr std::size_t convert(std::true_type) const { return id_[0]; }
  KAPI_FUNCTION constexpr detail::IdNotOneDimensional convert(std::false_type) const { return {}; }

  std::size_t id_[N] = {};
};

template <class... I>
KAPI_DEDUCTION_GUIDE Id(I...)->Id<static_cast<int>(sizeof...(I))>;
template <int N>
KAPI_DEDUCTION_GUIDE Id(Range<N>)->Id<N>;

namespace detail {
template <class View, int N, std::size_t... D>
KAPI_FUNCTION decltype(auto) index_at(const View& view, const Id<N>& i, std::index_sequence<D...>) {
  return view(i[static_cast<int>(D)]...);
}
}  // namespace detail

/// view(i[0], i[1], ...): a Kokkos View, a LocalAccessor or anything indexed by N integers,
/// at an Id (SYCL's acc[id]; a View has no operator taking an Id).
template <class View, int N>
KAPI_FUNCTION decltype(auto) at(const View& view, const Id<N>& i) {
  return detail::index_at(view, i, std::make_index_sequence<static_cast<std::size_t>(N)>());
}

template <class T>
inline constexpr bool is_id_v = false;
template <int N>
inline constexpr bool is_id_v<Id<N>> = true;

}  // namespace kapi
