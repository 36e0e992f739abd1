#pragma once
// The execution spaces this build enables, as a GoogleTest type list: every typed test
// runs once per space.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <tuple>

namespace kapi_test {

template <class Tuple>
struct AsTestTypes;
template <class... T>
struct AsTestTypes<std::tuple<T...>> {
  using type = ::testing::Types<T...>;
};

using EnabledSpaces = decltype(std::tuple_cat(
#if defined(KOKKOS_ENABLE_CUDA)
    std::declval<std::tuple<Kokkos::Cuda>>(),
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
    std::declval<std::tuple<Kokkos::OpenMP>>(),
#endif
#if defined(KOKKOS_ENABLE_THREADS)
    std::declval<std::tuple<Kokkos::Threads>>(),
#endif
#if defined(KOKKOS_ENABLE_SERIAL)
    std::declval<std::tuple<Kokkos::Serial>>(),
#endif
    std::declval<std::tuple<>>()));

using ExecutionSpaces = AsTestTypes<EnabledSpaces>::type;

/// Names the space in test names: "SlidingWindowMatmul/OpenMP.Seed5x5".
struct SpaceName {
  template <class Space>
  static std::string GetName(int) {
    return Space::name();
  }
};

template <class Space>
inline constexpr bool is_host_space =
    Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Space::memory_space>::accessible;

/// A 1-d view in the space's memory, filled from a host function of the index.
template <class T, class Space, class F>
Kokkos::View<T*, typename Space::memory_space> make_view(const char* label, std::size_t n, F&& f) {
  Kokkos::View<T*, typename Space::memory_space> v(std::string(label), n);
  auto h = Kokkos::create_mirror_view(v);
  for (std::size_t i = 0; i < n; ++i) h(i) = f(i);
  Kokkos::deep_copy(v, h);
  return v;
}

template <class View>
auto to_host(const View& v) {
  auto h = Kokkos::create_mirror_view(v);
  Kokkos::deep_copy(h, v);
  return h;
}

}  // namespace kapi_test

#define KAPI_TYPED_TEST_SUITE(suite) TYPED_TEST_SUITE(suite, ::kapi_test::ExecutionSpaces, ::kapi_test::SpaceName)
