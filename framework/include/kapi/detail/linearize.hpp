// SPDX-License-Identifier: Apache-2.0
#pragma once
// Conversions between linear and N-d ids in SYCL order (last dimension fastest).
#include <cstddef>

#include <kapi/config.hpp>

namespace kapi::detail {

template <int N>
KAPI_FUNCTION void delinearize(std::size_t linear, const std::size_t (&extent)[N], std::size_t (&id)[N]) {
  for (int d = N - 1; d > 0; --d) {
    id[d] = linear % extent[d];
    linear /= extent[d];
  }
  id[0] = linear;
}

template <int N>
KAPI_FUNCTION std::size_t linearize(const std::size_t (&id)[N], const std::size_t (&extent)[N]) {
  std::size_t linear = id[0];
  for (int d = 1; d < N; ++d) linear = linear * extent[d] + id[d];
  return linear;
}

template <int N>
KAPI_FUNCTION std::size_t product(const std::size_t (&extent)[N]) {
  std::size_t p = 1;
  for (int d = 0; d < N; ++d) p *= extent[d];
  return p;
}

}  // namespace kapi::detail
