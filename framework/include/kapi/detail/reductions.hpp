// SPDX-License-Identifier: Apache-2.0
#pragma once
// Reduction arguments (kapi/reduction.hpp) inside a launch: the value every host thread
// or GPU thread accumulates (Partials: one slot per reduction argument), the Reducers a
// kernel receives, and the hooks a Kokkos parallel_reduce functor needs (value_type,
// init, join, final). The final hook stores the results in the variables, where the
// reduction ends (on a device: in device code), so no copy follows the launch.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <utility>

#include <kapi/detail/copy_bytes.hpp>
#include <kapi/detail/kernel_args.hpp>
#include <kapi/errors.hpp>
#include <kapi/reduction.hpp>

namespace kapi::detail {

template <class... Args>
inline constexpr std::size_t reduction_count = (std::size_t(is_reduction_v<Args>) + ... + 0);

/// No slot: an argument that is not a reduction.
struct NoSlot {};

template <class A>
struct slot_of {
  using value = NoSlot;
  using reducer = NoSlot;
};
template <class T, class Op, class Memory>
struct slot_of<Reduction<T, Op, Memory>> {
  using value = T;
  using reducer = Reducer<T, Op>;
};

/// How the kernel receives argument A: a Reducer lvalue for a reduction, else the argument.
template <class A>
using kernel_param_t = std::conditional_t<is_reduction_v<A>, typename slot_of<A>::reducer&, const A&>;

template <std::size_t I, class T>
struct PartialLeaf {
  T value;
};
template <std::size_t I>
struct PartialLeaf<I, NoSlot> {};

constexpr std::size_t max_of(std::initializer_list<std::size_t> v) {
  std::size_t m = 0;
  for (std::size_t x : v) m = x > m ? x : m;
  return m;
}

template <class Indices, class... Args>
struct PartialsImpl;

/// One thread's share of every reduction of a launch. Aligned to at least 4 bytes (so its
/// size is whole 4-byte words: Kokkos' device reductions move words).
template <std::size_t... I, class... Args>
struct alignas(max_of({std::size_t(4), alignof(typename slot_of<Args>::value)...}))
    PartialsImpl<std::index_sequence<I...>, Args...> : PartialLeaf<I, typename slot_of<Args>::value>... {};

template <class... Args>
using Partials = PartialsImpl<std::index_sequence_for<Args...>, Args...>;

template <std::size_t I, class T>
KAPI_FUNCTION T& partial(PartialLeaf<I, T>& leaf) {
  return leaf.value;
}
template <std::size_t I, class T>
KAPI_FUNCTION const T& partial(const PartialLeaf<I, T>& leaf) {
  return leaf.value;
}

template <std::size_t I, class R>
struct ReducerLeaf {
  R value;
  template <class A, class P>
  KAPI_FUNCTION ReducerLeaf(const A& arg, P& partials) : value(partial<I>(partials), arg.combiner(), arg.identity()) {}
};
template <std::size_t I>
struct ReducerLeaf<I, NoSlot> {
  template <class A, class P>
  KAPI_FUNCTION ReducerLeaf(const A&, P&) {}
};

template <class Indices, class... Args>
struct ReducersImpl;

/// The Reducers of one call of the kernel, each pointing at its slot of the partials.
template <std::size_t... I, class... Args>
struct ReducersImpl<std::index_sequence<I...>, Args...> : ReducerLeaf<I, typename slot_of<Args>::reducer>... {
  KAPI_FUNCTION ReducersImpl(const ArgPack<Args...>& args, Partials<Args...>& partials)
      : ReducerLeaf<I, typename slot_of<Args>::reducer>(get<I>(args), partials)... {}
};

template <class... Args>
using Reducers = ReducersImpl<std::index_sequence_for<Args...>, Args...>;

/// Argument I as the kernel receives it: its Reducer (an lvalue) or the argument itself.
template <std::size_t I, class A, class R>
KAPI_FUNCTION decltype(auto) reduction_arg(const A& arg, R& reducers) {
  if constexpr (is_reduction_v<A>) {
    return (static_cast<ReducerLeaf<I, typename slot_of<A>::reducer>&>(reducers).value);
  } else {
    (void)reducers;
    return (arg);
  }
}

/// Argument I of an nd-range kernel: its Reducer, a LocalAccessor bound to the group's
/// memory, or the argument itself.
template <std::size_t I, class A, class R>
KAPI_FUNCTION decltype(auto) bound_arg(const A& arg, char* scratch, std::size_t offset, R& reducers) {
  if constexpr (is_reduction_v<A>) {
    return reduction_arg<I>(arg, reducers);
  } else {
    return bind_arg(arg, scratch, offset);
  }
}

// The Kokkos hooks, slot by slot.
template <std::size_t I, class A, class P>
KAPI_FUNCTION void init_slot(const A& arg, P& p) {
  if constexpr (is_reduction_v<A>) partial<I>(p) = arg.identity();
}
template <std::size_t I, class A, class P>
KAPI_FUNCTION void join_slot(const A& arg, P& dst, const P& src) {
  if constexpr (is_reduction_v<A>) {
    using T = typename A::value_type;
    partial<I>(dst) = static_cast<T>(arg.combiner()(partial<I>(dst), partial<I>(src)));
  }
}
template <std::size_t I, class A, class P>
KAPI_FUNCTION void final_slot(const A& arg, const P& p) {
  if constexpr (is_reduction_v<A>) {
    using T = typename A::value_type;
    T* const target = arg.impl_target();
    *target = arg.initializes_to_identity() ? partial<I>(p) : static_cast<T>(arg.combiner()(*target, partial<I>(p)));
  }
}

template <class Pack, class P, std::size_t... I>
KAPI_FUNCTION void init_partials(const Pack& args, P& p, std::index_sequence<I...>) {
  (init_slot<I>(get<I>(args), p), ...);
}
template <class Pack, class P, std::size_t... I>
KAPI_FUNCTION void join_partials(const Pack& args, P& dst, const P& src, std::index_sequence<I...>) {
  (join_slot<I>(get<I>(args), dst, src), ...);
}
template <class Pack, class P, std::size_t... I>
KAPI_FUNCTION void final_partials(const Pack& args, const P& p, std::index_sequence<I...>) {
  (final_slot<I>(get<I>(args), p), ...);
}

// Kokkos 3.x looks for init, join and final as members of the functor itself (not of a
// base class), and Kokkos before 3.7 calls join with volatile operands, whose volatility
// its CUDA reductions need (with a const_cast instead, a CUDA range reduction lost a third
// of its terms): the volatile join reads and writes its operands as volatile words.
// Each reducing functor declares its hooks with this macro. `args` names its ArgPack.
template <class P>
KAPI_FUNCTION P volatile_load(const volatile P& v) {
  static_assert(sizeof(P) % sizeof(std::uint32_t) == 0, "Partials are whole 4-byte words");
  std::uint32_t words[sizeof(P) / sizeof(std::uint32_t)];
  const volatile std::uint32_t* from = reinterpret_cast<const volatile std::uint32_t*>(&v);
  for (std::size_t k = 0; k < sizeof(P) / sizeof(std::uint32_t); ++k) words[k] = from[k];
  P out;
  copy_bytes(static_cast<void*>(&out), words, sizeof(P));
  return out;
}
template <class P>
KAPI_FUNCTION void volatile_store(volatile P& v, const P& value) {
  std::uint32_t words[sizeof(P) / sizeof(std::uint32_t)];
  copy_bytes(words, static_cast<const void*>(&value), sizeof(P));
  volatile std::uint32_t* to = reinterpret_cast<volatile std::uint32_t*>(&v);
  for (std::size_t k = 0; k < sizeof(P) / sizeof(std::uint32_t); ++k) to[k] = words[k];
}

#if KOKKOS_VERSION < 30700
#define KAPI_IMPL_VOLATILE_JOIN                                                             \
  KAPI_FUNCTION void join(volatile value_type& dst, const volatile value_type& src) const { \
    value_type d = ::kapi::detail::volatile_load(dst);                                      \
    join(d, ::kapi::detail::volatile_load(src));                                            \
    ::kapi::detail::volatile_store(dst, d);                                                 \
  }
#else
#define KAPI_IMPL_VOLATILE_JOIN
#endif
#define KAPI_IMPL_REDUCTION_HOOKS(Partials, args)                                \
  using value_type = Partials;                                                   \
  KAPI_FUNCTION void init(value_type& v) const {                                 \
    ::kapi::detail::init_partials(args, v, typename Body::arg_indices());        \
  }                                                                              \
  KAPI_FUNCTION void join(value_type& dst, const value_type& src) const {        \
    ::kapi::detail::join_partials(args, dst, src, typename Body::arg_indices()); \
  }                                                                              \
  KAPI_IMPL_VOLATILE_JOIN                                                        \
  KAPI_FUNCTION void final(value_type& v) const {                                \
    ::kapi::detail::final_partials(args, v, typename Body::arg_indices());       \
  }

/// Checks before a launch with reductions: no null variable, no variable twice, and the
/// variables' memory accessible from the execution space.
template <class ExecSpace, class... Args>
void validate_reductions(const Args&... args) {
  if constexpr (reduction_count < Args... >> 0) {
    const void* targets[sizeof...(Args)] = {};
    std::size_t i = 0;
    auto check = [&](const auto& a) {
      using A = std::decay_t<decltype(a)>;
      if constexpr (is_reduction_v<A>) {
        using Memory = typename A::memory_space;
        if constexpr (!std::is_void_v<Memory>)
          static_assert(Kokkos::SpaceAccessibility<ExecSpace, Memory>::accessible,
                        "kapi::reduction: the variable's memory is not accessible from the execution space "
                        "(on a device, use a View in the device's memory)");
        if (!a.impl_target())
          throw launch_error("argument " + std::to_string(i + 1) + " is a reduction into a null pointer");
        for (std::size_t j = 0; j < i; ++j)
          if (targets[j] == a.impl_target())
            throw launch_error("arguments " + std::to_string(j + 1) + " and " + std::to_string(i + 1) +
                               " are reductions into the same variable; give each its own");
        targets[i] = a.impl_target();
      }
      ++i;
    };
    (check(args), ...);
  }
}

/// An empty launch: the variables keep their values, except that those initialised to
/// the identity receive it (SYCL's rule for an empty range).
template <class ExecSpace, class... Args>
void finish_empty_reductions(const ExecSpace& space, const Args&... args) {
  auto one = [&](const auto& a) {
    using A = std::decay_t<decltype(a)>;
    if constexpr (is_reduction_v<A>) {
      if (a.initializes_to_identity()) {
        using Memory = std::conditional_t<std::is_void_v<typename A::memory_space>, typename ExecSpace::memory_space,
                                          typename A::memory_space>;
        using T = typename A::value_type;
        Kokkos::deep_copy(space, Kokkos::View<T, Memory, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(a.impl_target()),
                          a.identity());
      }
    }
  };
  (one(args), ...);
  (void)one;  // unused for launches without arguments
}

}  // namespace kapi::detail
