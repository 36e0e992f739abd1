// SPDX-License-Identifier: Apache-2.0
#pragma once
// Helpers for tests that run over several value types and work-group sizes.
#include <kapi/kapi.hpp>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
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

/// Copies `bytes` from memory of MemorySpace to host memory. One deep_copy of char Views
/// per memory space: Kokkos' deep_copy between Views of other types compiles a copy
/// kernel (and its dispatch) for each pair of View types.
template <class MemorySpace>
void copy_bytes_to_host(void* to, const void* from, std::size_t bytes) {
  const Kokkos::View<char*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> dst(static_cast<char*>(to), bytes);
  const Kokkos::View<const char*, MemorySpace, Kokkos::MemoryUnmanaged> src(static_cast<const char*>(from), bytes);
  Kokkos::deep_copy(dst, src);
}

/// Copies `bytes` from host memory to memory of MemorySpace (as copy_bytes_to_host).
template <class MemorySpace>
void copy_bytes_from_host(void* to, const void* from, std::size_t bytes) {
  const Kokkos::View<char*, MemorySpace, Kokkos::MemoryUnmanaged> dst(static_cast<char*>(to), bytes);
  const Kokkos::View<const char*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> src(static_cast<const char*>(from),
                                                                                  bytes);
  Kokkos::deep_copy(dst, src);
}

/// kapi_test::to_host for Views whose elements are contiguous (those the tests allocate):
/// the mirror's bytes copied with copy_bytes_to_host, so that reading back results
/// compiles no copy kernel per View type. Throws for a View with gaps.
template <class View>
auto contiguous_to_host(const View& v) {
  auto h = Kokkos::create_mirror_view(v);
  if (!v.span_is_contiguous() || !h.span_is_contiguous() || h.span() != v.span())
    throw std::logic_error("contiguous_to_host: the View's elements are not contiguous");
  if (static_cast<const void*>(h.data()) == static_cast<const void*>(v.data()))
    Kokkos::fence();  // the View is the mirror: its kernels done
  else
    copy_bytes_to_host<typename View::memory_space>(h.data(), v.data(), v.span() * sizeof(typename View::value_type));
  return h;
}

/// kapi_test::make_view's View, filled from a host function of the index, copied with
/// copy_bytes_from_host (no copy kernel per value type).
template <class T, class Space, class F>
Kokkos::View<T*, typename Space::memory_space> device_view(const char* label, std::size_t n, F&& f) {
  Kokkos::View<T*, typename Space::memory_space> v(std::string(label), n);
  auto h = Kokkos::create_mirror_view(v);
  for (std::size_t i = 0; i < n; ++i) h(i) = f(i);
  if (static_cast<const void*>(h.data()) != static_cast<const void*>(v.data()))
    copy_bytes_from_host<typename Space::memory_space>(v.data(), h.data(), n * sizeof(T));
  return v;
}

/// device_view of a std::vector's values.
template <class T, class Space>
Kokkos::View<T*, typename Space::memory_space> device_view(const char* label, const std::vector<T>& values) {
  return device_view<T, Space>(label, values.size(), [&](std::size_t i) { return values[i]; });
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
