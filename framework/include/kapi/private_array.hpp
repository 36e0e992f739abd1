#pragma once
// PrivateArray<T, Size...>: fixed-size storage private to one work-item (registers or
// the work-item's stack), with row-major multi-dimensional access.
#include <cstddef>

#include <kapi/config.hpp>

namespace kapi {

template <class T, std::size_t... Size>
class PrivateArray {
  static_assert(sizeof...(Size) >= 1 && ((Size > 0) && ...), "PrivateArray needs positive extents");

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

}  // namespace kapi
