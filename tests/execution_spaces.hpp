// SPDX-License-Identifier: Apache-2.0
#pragma once
// The execution spaces this build tests, as a GoogleTest type list: every typed test
// runs once per space.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <kapi/execution_space.hpp>
#include <kapi/host/detail/work_group_setting.hpp>
#include <cstddef>
#include <stdexcept>
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

/// Host kernels with barriers that the work-group loop pass transforms run as loops over
/// their work-items on the thread's stack (README, "How work-groups run"), not on the
/// fibers' stacks: tests of those stacks run in the *_fibers ctest cases then.
inline bool work_groups_run_as_loops() {
#if KAPI_WORK_GROUP_LOOPS
  return kapi::detail::host_work_group_setting().loops;
#else
  return false;
#endif
}

/// Copies `bytes` between host memory and memory of MemorySpace. One deep_copy of char
/// Views per memory space and direction: a deep_copy between Views of other types
/// compiles a copy kernel and its dispatch for every pair of View types.
template <class MemorySpace>
void copy_bytes_to_host(void* to, const void* from, std::size_t bytes) {
  const Kokkos::View<char*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> dst(static_cast<char*>(to), bytes);
  const Kokkos::View<const char*, MemorySpace, Kokkos::MemoryUnmanaged> src(static_cast<const char*>(from), bytes);
  Kokkos::deep_copy(dst, src);
}
template <class MemorySpace>
void copy_bytes_from_host(void* to, const void* from, std::size_t bytes) {
  const Kokkos::View<char*, MemorySpace, Kokkos::MemoryUnmanaged> dst(static_cast<char*>(to), bytes);
  const Kokkos::View<const char*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> src(static_cast<const char*>(from),
                                                                                  bytes);
  Kokkos::deep_copy(dst, src);
}

/// A 1-d view in the space's memory, filled from a host function of the index.
template <class T, class Space, class F>
Kokkos::View<T*, typename Space::memory_space> make_view(const char* label, std::size_t n, F&& f) {
  Kokkos::View<T*, typename Space::memory_space> v(std::string(label), n);
  auto h = Kokkos::create_mirror_view(v);
  for (std::size_t i = 0; i < n; ++i) h(i) = f(i);
  if (static_cast<const void*>(h.data()) != static_cast<const void*>(v.data()))
    copy_bytes_from_host<typename Space::memory_space>(v.data(), h.data(), n * sizeof(T));
  return v;
}

/// A device copy of `values`: one instantiation per value type and space.
template <class T, class Space>
Kokkos::View<T*, typename Space::memory_space> make_view(const char* label, const std::vector<T>& values) {
  return make_view<T, Space>(label, values.size(), [&](std::size_t i) { return values[i]; });
}

/// A host copy of `v` (`v` itself where it is host memory, once its kernels are done).
/// Views with a LayoutLeft or LayoutRight, which the tests allocate, are copied as bytes;
/// one of those with gaps between its elements throws. Strided Views go through deep_copy.
template <class View>
auto to_host(const View& v) {
  auto h = Kokkos::create_mirror_view(v);
  if constexpr (std::is_same_v<typename View::array_layout, Kokkos::LayoutStride>) {
    Kokkos::deep_copy(h, v);
  } else {
    if (!v.span_is_contiguous() || !h.span_is_contiguous() || h.span() != v.span())
      throw std::logic_error("kapi_test::to_host: the View's elements are not contiguous");
    if (static_cast<const void*>(h.data()) == static_cast<const void*>(v.data()))
      Kokkos::fence();
    else
      copy_bytes_to_host<typename View::memory_space>(h.data(), v.data(), v.span() * sizeof(typename View::value_type));
  }
  return h;
}

}  // namespace kapi_test

#define KAPI_TYPED_TEST_SUITE(suite) TYPED_TEST_SUITE(suite, ::kapi_test::ExecutionSpaces, ::kapi_test::SpaceName)
