// SPDX-License-Identifier: Apache-2.0
#pragma once
// The kernel arguments a launch carries to every work-item, and the binding of
// LocalAccessor arguments to the group's scratch memory.
#include <cstddef>
#include <type_traits>
#include <utility>

#include <string>

#include <kapi/errors.hpp>
#include <kapi/local_accessor.hpp>

namespace kapi::detail {

template <std::size_t I, class T>
struct ArgLeaf {
  T value;
};

template <class Indices, class... Args>
struct ArgPackImpl;

/// A trivially device-copyable tuple (std::tuple is not usable in every device pass).
template <std::size_t... I, class... Args>
struct ArgPackImpl<std::index_sequence<I...>, Args...> : ArgLeaf<I, Args>... {
  explicit ArgPackImpl(const Args&... args) : ArgLeaf<I, Args>{args}... {}
};

template <class... Args>
using ArgPack = ArgPackImpl<std::index_sequence_for<Args...>, Args...>;

template <std::size_t I, class T>
KAPI_FUNCTION const T& get(const ArgLeaf<I, T>& leaf) {
  return leaf.value;
}

template <class... Args>
inline constexpr std::size_t local_accessor_count = (std::size_t(is_local_accessor_v<Args>) + ... + 0);

/// Byte offsets of each LocalAccessor argument inside the group's scratch.
template <std::size_t Count>
struct ScratchLayout {
  std::size_t offset[Count + 1] = {};
  std::size_t total = 0;
};

inline constexpr std::size_t scratch_alignment = 16;

/// Throws launch_error: LocalAccessor argument `argument` (from 1) of `shape` makes the
/// group's local memory overflow a size (src/validate.cpp).
[[noreturn]] void reject_local_memory_overflow(std::size_t argument, const std::size_t* shape, std::size_t dimensions,
                                               std::size_t element_bytes);

/// Places every LocalAccessor argument; a size that overflows throws launch_error.
template <class... Args>
ScratchLayout<sizeof...(Args)> scratch_layout(const Args&... args) {
  ScratchLayout<sizeof...(Args)> layout;
  std::size_t i = 0;
  auto place = [&](const auto& a) {
    using A = std::decay_t<decltype(a)>;
    if constexpr (is_local_accessor_v<A>) {
      std::size_t bytes = sizeof(typename A::value_type);
      bool overflow = false;
      for (int d = 0; d < A::dimensions; ++d) overflow |= __builtin_mul_overflow(bytes, a.get_range()[d], &bytes);
      overflow |= __builtin_add_overflow(bytes, scratch_alignment - 1, &bytes);
      bytes = bytes / scratch_alignment * scratch_alignment;
      layout.offset[i] = layout.total;
      overflow |= __builtin_add_overflow(layout.total, bytes, &layout.total);
      if (overflow)
        reject_local_memory_overflow(i + 1, a.get_range().extent, A::dimensions, sizeof(typename A::value_type));
    }
    ++i;
  };
  (place(args), ...);
  (void)place;  // unused for kernels without arguments
  return layout;
}

/// The argument as the kernel sees it: a LocalAccessor pointed at the group's memory,
/// anything else unchanged.
template <class T>
KAPI_FUNCTION decltype(auto) bind_arg(const T& arg, char* scratch, std::size_t offset) {
  if constexpr (is_local_accessor_v<T>) {
    return arg.impl_bound_to(scratch + offset);
  } else {
    (void)scratch;
    (void)offset;
    return (arg);
  }
}

}  // namespace kapi::detail
