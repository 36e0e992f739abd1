// SPDX-License-Identifier: Apache-2.0
#pragma once
// Helpers for tests that run over several value types and work-group sizes.
#include <kapi/device_limits.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kapi_test {

template <class T>
struct Type {
  using type = T;
};

/// Calls f(Type<T>{}) for each of T...
template <class... T, class F>
void for_each_type(F&& f) {
  (f(Type<T>{}), ...);
}

/// The value types of the atomics and group algorithms: int32, int64, uint32, uint64, float, double.
template <class F>
void for_each_value_type(F&& f) {
  for_each_type<std::int32_t, std::int64_t, std::uint32_t, std::uint64_t, float, double>(f);
}

/// The work-group sizes every collective is tested with, as far as the space allows.
template <class Space>
std::vector<std::size_t> group_sizes() {
  std::vector<std::size_t> sizes;
  for (std::size_t s : {1, 7, 32, 64, 256, 1024})
    if (s <= kapi::max_work_group_size<Space>()) sizes.push_back(s);
  return sizes;
}

template <class T>
const char* type_name() {
  if constexpr (std::is_same_v<T, std::int32_t>)
    return "int32";
  else if constexpr (std::is_same_v<T, std::int64_t>)
    return "int64";
  else if constexpr (std::is_same_v<T, std::uint32_t>)
    return "uint32";
  else if constexpr (std::is_same_v<T, std::uint64_t>)
    return "uint64";
  else if constexpr (std::is_same_v<T, float>)
    return "float";
  else if constexpr (std::is_same_v<T, double>)
    return "double";
  else if constexpr (std::is_same_v<T, bool>)
    return "bool";
  else
    return "other";
}

}  // namespace kapi_test
