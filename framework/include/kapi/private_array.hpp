// SPDX-License-Identifier: Apache-2.0
#pragma once
// PrivateArray<T, Size...>: fixed-size storage private to one work-item (registers or
// the work-item's stack), with row-major multi-dimensional access. The shape is part of
// the type (numba-dpex requires a constant shape too), spelled as extents or as the array
// type, as Kokkos Views spell theirs:
//   kapi::PrivateArray<float, 4, 4> acc;        kapi::PrivateArray<float[4][4]> acc;
//   kapi::PrivateArray<float, 4, 4> acc(true);  // zero-filled (numba-dpex's fill_zeros=True)
//   kapi::PrivateArray<float, 4, 4> acc{};      // zero-filled (value-initialised)
#include <cstddef>

#include <kapi/config.hpp>
#include <kapi/range.hpp>

namespace kapi {

template <class T, std::size_t... Size>
class PrivateArray;

namespace detail {
// PrivateArray<float[4][8]> is PrivateArray<float, 4, 8>.
template <class T, std::size_t... Size>
struct private_array_of {
  using type = PrivateArray<T, Size...>;
};
template <class T, std::size_t A, std::size_t... Size>
struct private_array_of<T[A], Size...> : private_array_of<T, Size..., A> {};
}  // namespace detail

template <class T, std::size_t... Size>
class PrivateArray {
  static_assert(sizeof...(Size) >= 1 && ((Size > 0) && ...),
                "PrivateArray needs positive extents: PrivateArray<T, 4, 4> or PrivateArray<T[4][4]>");

 public:
  static constexpr int dimensions = sizeof...(Size);
  static constexpr std::size_t extent[sizeof...(Size)] = {Size...};
  static constexpr std::size_t total = (Size * ...);

  /// Uninitialised, as a plain array.
  PrivateArray() = default;
  /// fill_zeros = true starts every element at T(0) (numba-dpex's fill_zeros).
  KAPI_FUNCTION explicit PrivateArray(bool fill_zeros) {
    if (fill_zeros)
      for (std::size_t i = 0; i < total; ++i) data_[i] = T(0);
  }

  template <class... I>
  KAPI_FUNCTION T& operator()(I... i) {
    return data_[linear(i...)];
  }
  template <class... I>
  KAPI_FUNCTION const T& operator()(I... i) const {
    return data_[linear(i...)];
  }
  KAPI_FUNCTION T& operator[](std::size_t i) { return data_[i]; }
  KAPI_FUNCTION const T& operator[](std::size_t i) const { return data_[i]; }
  KAPI_FUNCTION static constexpr std::size_t size() { return total; }
  /// The shape as a Range (as LocalAccessor::get_range).
  KAPI_FUNCTION static constexpr Range<sizeof...(Size)> get_range() { return Range<sizeof...(Size)>(Size...); }

 private:
  template <class... I>
  KAPI_FUNCTION static std::size_t linear(I... i) {
    static_assert(sizeof...(I) == sizeof...(Size), "PrivateArray: index count must equal its rank");
    const std::size_t id[] = {static_cast<std::size_t>(i)...};
    constexpr std::size_t ext[] = {Size...};  // a local copy: static members are host-only under nvcc
    std::size_t l = id[0];
    for (int d = 1; d < dimensions; ++d) l = l * ext[d] + id[d];
    return l;
  }
  T data_[total];
};

/// The array-type spelling: PrivateArray<float[4][4]> holds what PrivateArray<float, 4, 4> holds.
template <class T, std::size_t A>
class PrivateArray<T[A]> : public detail::private_array_of<T[A]>::type {
  using Base = typename detail::private_array_of<T[A]>::type;

 public:
  using Base::Base;
  PrivateArray() = default;
};

}  // namespace kapi
