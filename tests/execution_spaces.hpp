// SPDX-License-Identifier: Apache-2.0
#pragma once
// The execution spaces this build tests, as a GoogleTest type list: every typed test
// runs once per space.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <kapi/execution_space.hpp>
#include <string>
#include <type_traits>
#include <vector>

#ifndef KAPI_TEST_EVERY_SPACE
#define KAPI_TEST_EVERY_SPACE 0
#endif

namespace kapi_test {

// The spaces of kapi::enabled_execution_spaces (the framework's one list) that typed tests
// run on. Each space is tested by the configuration made for it: a build's parallel
// backends, and Serial where it is the only backend (the serial configuration). Testing
// Serial again in every other configuration would double their tests' compile time for
// no new path; -DKAPI_TEST_EVERY_SPACE=ON tests every enabled space.
template <class Space>
inline constexpr bool is_serial_space =
#if defined(KOKKOS_ENABLE_SERIAL)
    std::is_same_v<Space, Kokkos::Serial>;
#else
    false;
#endif
template <class Done, class... Rest>
struct TestedSpaces;
template <class... Done>
struct TestedSpaces<::testing::Types<Done...>> {
  using type = ::testing::Types<Done...>;
};
template <class... Done, class Space, class... Rest>
struct TestedSpaces<::testing::Types<Done...>, Space, Rest...> {
  static constexpr bool skip =
      !KAPI_TEST_EVERY_SPACE && is_serial_space<Space> && sizeof...(Done) + sizeof...(Rest) > 0;
  using type = typename std::conditional_t<skip, TestedSpaces<::testing::Types<Done...>, Rest...>,
                                           TestedSpaces<::testing::Types<Done..., Space>, Rest...>>::type;
};
template <class List>
struct AsTestTypes;
template <class... Spaces>
struct AsTestTypes<kapi::execution_space_list<Spaces...>> {
  using type = typename TestedSpaces<::testing::Types<>, Spaces...>::type;
};

#if defined(KAPI_TEST_SPACE)
// One space per test executable (tests/CMakeLists.txt): KAPI_TEST_SPACE names it.
namespace spaces {
#if defined(KOKKOS_ENABLE_CUDA)
using Cuda = Kokkos::Cuda;
#endif
#if defined(KOKKOS_ENABLE_HIP)
using HIP = Kokkos::Experimental::HIP;
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
using OpenMP = Kokkos::OpenMP;
#endif
#if defined(KOKKOS_ENABLE_THREADS)
using Threads = Kokkos::Threads;
#endif
#if defined(KOKKOS_ENABLE_SERIAL)
using Serial = Kokkos::Serial;
#endif
}  // namespace spaces
using ExecutionSpaces = ::testing::Types<spaces::KAPI_TEST_SPACE>;
#else
using ExecutionSpaces = AsTestTypes<kapi::enabled_execution_spaces>::type;
#endif

/// Names the space in test names: "SlidingWindowMatmul/OpenMP.Seed5x5".
struct SpaceName {
  template <class Space>
  static std::string GetName(int) {
    return Space::name();
  }
};

/// The space runs work-groups on the host engine (kapi::is_host_execution_space_v).
template <class Space>
inline constexpr bool is_host_space = kapi::is_host_execution_space_v<Space>;

/// A 1-d view in the space's memory, filled from a host function of the index.
template <class T, class Space, class F>
Kokkos::View<T*, typename Space::memory_space> make_view(const char* label, std::size_t n, F&& f) {
  Kokkos::View<T*, typename Space::memory_space> v(std::string(label), n);
  auto h = Kokkos::create_mirror_view(v);
  for (std::size_t i = 0; i < n; ++i) h(i) = f(i);
  Kokkos::deep_copy(v, h);
  return v;
}

/// A device copy of `values`: one instantiation per value type and space.
template <class T, class Space>
Kokkos::View<T*, typename Space::memory_space> make_view(const char* label, const std::vector<T>& values) {
  return make_view<T, Space>(label, values.size(), [&](std::size_t i) { return values[i]; });
}

template <class View>
auto to_host(const View& v) {
  auto h = Kokkos::create_mirror_view(v);
  Kokkos::deep_copy(h, v);
  return h;
}

}  // namespace kapi_test

#define KAPI_TYPED_TEST_SUITE(suite) TYPED_TEST_SUITE(suite, ::kapi_test::ExecutionSpaces, ::kapi_test::SpaceName)
