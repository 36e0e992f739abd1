// SPDX-License-Identifier: Apache-2.0
#pragma once
// Reduction variables, SYCL 2020's sycl::reduction: a range or nd-range kernel combines
// values into one or more variables, and the launch reduces them as it runs (no extra
// pass over memory) and stores the result in the variable.
//
//   Kokkos::View<double> sum("sum");                       // or a 1-element View, or a pointer
//   kapi::call_kernel(DotKernel{}, kapi::Range<1>{n}, kapi::reduction(sum, kapi::plus<>()), x, y);
//   struct DotKernel {
//     template <class Sum, class V>
//     KOKKOS_INLINE_FUNCTION void operator()(kapi::Item<1> it, Sum& sum, const V& x, const V& y) const {
//       sum += x(it.get_id(0)) * y(it.get_id(0));        // or sum.combine(...)
//     }
//   };
//
// - Every argument of the launch may be a reduction, in any position, several in one
//   launch (one Kokkos parallel_reduce carries them all); the kernel receives a
//   kapi::Reducer<T, Op> in that position (take it as `auto&`, `Sum&` or the type).
// - The operator is any kapi operator (plus, multiplies, minimum, maximum, bit_and,
//   bit_or, bit_xor, logical_and, logical_or) or your own, associative and commutative;
//   an operator without a known identity (kapi::known_identity) needs one given:
//   kapi::reduction(var, identity, op).
// - As in SYCL, the result is combined with the variable's value before the launch:
//   var = op(var, reduction). With kapi::property::reduction::initialize_to_identity{}
//   (or a kapi::property_list holding it) the old value is ignored: var = reduction.
//   An empty launch leaves the variable as it was (with initialize_to_identity: the
//   identity).
// - The variable is a rank-0 View, a rank-1 View of one element, or a pointer, in memory
//   the execution space can access (on CUDA: device memory; kapi writes the result there
//   when the launch ends, without copying it to the host). It holds its result once the
//   launch is done (call_kernel returns, or KernelEvent::wait()); a failed launch leaves
//   it unspecified.
// - Range and nd-range kernels (with barriers, local memory, group algorithms) take
//   reductions; phased kernels (WorkGroup) do not, as SYCL's hierarchical form does not.
#include <cstddef>
#include <string>
#include <type_traits>

#include <kapi/config.hpp>
#include <kapi/detail/capture_tags.hpp>
#include <kapi/errors.hpp>
#include <kapi/functional.hpp>

namespace kapi {

namespace property::reduction {
/// The variable's value before the launch is not combined into the result.
struct initialize_to_identity {};
}  // namespace property::reduction

/// Properties of a reduction, as SYCL passes them: kapi::property_list{initialize_to_identity{}}.
template <class... Props>
struct property_list {
  constexpr property_list() = default;
  constexpr explicit property_list(Props...) {}
};
template <class... Props>
property_list(Props...) -> property_list<Props...>;

namespace detail {
template <class T>
struct type_identity {
  using type = T;
};
template <class T>
using type_identity_t = typename type_identity<T>::type;

template <class P>
inline constexpr bool is_reduction_property_v = std::is_same_v<P, property::reduction::initialize_to_identity>;
template <class P>
inline constexpr bool is_property_v = is_reduction_property_v<P>;
template <class... P>
inline constexpr bool is_property_v<property_list<P...>> = (is_reduction_property_v<P> && ...);

template <class P>
inline constexpr bool initializes_to_identity_v = std::is_same_v<P, property::reduction::initialize_to_identity>;
template <class... P>
inline constexpr bool initializes_to_identity_v<property_list<P...>> = (initializes_to_identity_v<P> || ...);
}  // namespace detail

/// What a kernel receives for a reduction argument: it combines its values into the
/// work-item's share of the reduction. Copies refer to the same share.
template <class T, class Op>
class Reducer {
 public:
  using value_type = T;
  using binary_operation = Op;
  static constexpr int dimensions = 0;

  KAPI_FUNCTION Reducer(T& partial, const Op& op, const T& identity)
      : partial_(&partial), op_(op), identity_(identity) {}

  /// Combines x into the reduction.
  KAPI_FUNCTION const Reducer& combine(const T& x) const {
    *partial_ = static_cast<T>(op_(*partial_, x));
    return *this;
  }
  /// The operator's identity (the known one, or the one given to kapi::reduction).
  KAPI_FUNCTION T identity() const { return identity_; }

 private:
  T* partial_;
  Op op_;
  T identity_;
};

// SYCL's shorthands: += and ++ for plus, *= for multiplies, &= |= ^= for the bitwise ones.
template <class T, class U>
KAPI_FUNCTION const Reducer<T, plus<U>>& operator+=(const Reducer<T, plus<U>>& r, const detail::type_identity_t<T>& x) {
  return r.combine(x);
}
template <class T, class U, class = std::enable_if_t<std::is_integral_v<T>>>
KAPI_FUNCTION const Reducer<T, plus<U>>& operator++(const Reducer<T, plus<U>>& r) {
  return r.combine(T(1));
}
template <class T, class U, class = std::enable_if_t<std::is_integral_v<T>>>
KAPI_FUNCTION void operator++(const Reducer<T, plus<U>>& r, int) {
  r.combine(T(1));
}
template <class T, class U>
KAPI_FUNCTION const Reducer<T, multiplies<U>>& operator*=(const Reducer<T, multiplies<U>>& r,
                                                          const detail::type_identity_t<T>& x) {
  return r.combine(x);
}
template <class T, class U>
KAPI_FUNCTION const Reducer<T, bit_and<U>>& operator&=(const Reducer<T, bit_and<U>>& r,
                                                       const detail::type_identity_t<T>& x) {
  return r.combine(x);
}
template <class T, class U>
KAPI_FUNCTION const Reducer<T, bit_or<U>>& operator|=(const Reducer<T, bit_or<U>>& r,
                                                      const detail::type_identity_t<T>& x) {
  return r.combine(x);
}
template <class T, class U>
KAPI_FUNCTION const Reducer<T, bit_xor<U>>& operator^=(const Reducer<T, bit_xor<U>>& r,
                                                       const detail::type_identity_t<T>& x) {
  return r.combine(x);
}

/// A reduction argument of a launch (made by kapi::reduction): the variable, the operator,
/// its identity and whether the variable's old value is ignored. Memory is the variable's
/// memory space (void for a pointer).
#define KAPI_IMPL_CAPTURED_REDUCTION_MESSAGE                                                          \
  "kapi::reduction: a kapi::reduction is passed to call_kernel as an argument (as SYCL passes it to " \
  "parallel_for), not captured; the kernel receives a kapi::Reducer in that position and combines into it"
template <class T, class Op, class Memory = void>
class Reduction {
  static_assert(std::is_trivially_copyable_v<T>, "kapi::reduction: the value type must be trivially copyable");

 public:
  using value_type = T;
  using binary_operation = Op;
  using memory_space = Memory;
  using reducer_type = Reducer<T, Op>;

  Reduction(T* target, const T& identity, const Op& op, bool initialize_to_identity)
      : target_(target), identity_(identity), op_(op), initialize_to_identity_(initialize_to_identity) {}

  KAPI_FUNCTION T* impl_target() const { return target_; }
  KAPI_FUNCTION const T& identity() const { return identity_; }
  KAPI_FUNCTION const Op& combiner() const { return op_; }
  KAPI_FUNCTION bool initializes_to_identity() const { return initialize_to_identity_; }

  // A reduction captured by the kernel and combined into there, as if it were its Reducer:
  // an error that says what to write instead (a captured one that is not used is a
  // launch_error, detail/captured_locals.hpp).
  template <class U>
  KAPI_FUNCTION void combine(const U&) const {
    static_assert(sizeof(U) == 0, KAPI_IMPL_CAPTURED_REDUCTION_MESSAGE);
  }
  template <class U>
  KAPI_FUNCTION void operator+=(const U&) const {
    static_assert(sizeof(U) == 0, KAPI_IMPL_CAPTURED_REDUCTION_MESSAGE);
  }
  template <class U>
  KAPI_FUNCTION void operator*=(const U&) const {
    static_assert(sizeof(U) == 0, KAPI_IMPL_CAPTURED_REDUCTION_MESSAGE);
  }
  template <class U>
  KAPI_FUNCTION void operator&=(const U&) const {
    static_assert(sizeof(U) == 0, KAPI_IMPL_CAPTURED_REDUCTION_MESSAGE);
  }
  template <class U>
  KAPI_FUNCTION void operator|=(const U&) const {
    static_assert(sizeof(U) == 0, KAPI_IMPL_CAPTURED_REDUCTION_MESSAGE);
  }
  template <class U>
  KAPI_FUNCTION void operator^=(const U&) const {
    static_assert(sizeof(U) == 0, KAPI_IMPL_CAPTURED_REDUCTION_MESSAGE);
  }

 private:
  detail::ReductionTag tag_;  // first: how a launch finds a captured reduction
  T* target_;
  T identity_;
  Op op_;
  bool initialize_to_identity_;
};

#undef KAPI_IMPL_CAPTURED_REDUCTION_MESSAGE

template <class R>
inline constexpr bool is_reduction_v = false;
template <class T, class Op, class Memory>
inline constexpr bool is_reduction_v<Reduction<T, Op, Memory>> = true;

namespace detail {
template <class View>
typename View::non_const_value_type* reduction_target(const View& var) {
  static_assert(View::rank == 0 || View::rank == 1,
                "kapi::reduction: the variable is a rank-0 View, a rank-1 View of one element, or a pointer");
  static_assert(!std::is_const_v<typename View::value_type>, "kapi::reduction: the variable's View must not be const");
  if constexpr (View::rank == 1) {
    if (var.extent(0) != 1)
      throw launch_error("kapi::reduction: the variable is a View of " + std::to_string(var.extent(0)) +
                         " elements; a reduction variable is one element (a rank-0 View, a rank-1 View of "
                         "extent 1, or a pointer)");
  }
  return var.data();
}
template <class Props>
inline constexpr bool initializes_v = false;
template <class... P>
inline constexpr bool initializes_v<void(P...)> = (initializes_to_identity_v<P> || ...);
}  // namespace detail

/// A reduction into the element of `var` (a Kokkos View) with `op`'s known identity.
template <class View, class Op, class... Props,
          class = std::enable_if_t<Kokkos::is_view<View>::value && (detail::is_property_v<Props> && ...)>>
Reduction<typename View::non_const_value_type, Op, typename View::memory_space> reduction(const View& var, const Op& op,
                                                                                          Props...) {
  using T = typename View::non_const_value_type;
  return {detail::reduction_target(var), known_identity<Op, T>(), op, detail::initializes_v<void(Props...)>};
}

/// A reduction into the element of `var` with an identity of your own (op(identity, x) == x).
template <class View, class Op, class... Props,
          class = std::enable_if_t<Kokkos::is_view<View>::value && !detail::is_property_v<Op> &&
                                   (detail::is_property_v<Props> && ...)>>
Reduction<typename View::non_const_value_type, Op, typename View::memory_space> reduction(
    const View& var, const detail::type_identity_t<typename View::non_const_value_type>& identity, const Op& op,
    Props...) {
  return {detail::reduction_target(var), identity, op, detail::initializes_v<void(Props...)>};
}

/// A reduction into *var (memory the execution space can access, as SYCL's USM pointers).
template <class T, class Op, class... Props, class = std::enable_if_t<(detail::is_property_v<Props> && ...)>>
Reduction<T, Op> reduction(T* var, const Op& op, Props...) {
  static_assert(!std::is_const_v<T>, "kapi::reduction: the variable must not be const");
  return {var, known_identity<Op, T>(), op, detail::initializes_v<void(Props...)>};
}

/// A reduction into *var with an identity of your own.
template <class T, class Op, class... Props,
          class = std::enable_if_t<!detail::is_property_v<Op> && (detail::is_property_v<Props> && ...)>>
Reduction<T, Op> reduction(T* var, const detail::type_identity_t<T>& identity, const Op& op, Props...) {
  static_assert(!std::is_const_v<T>, "kapi::reduction: the variable must not be const");
  return {var, identity, op, detail::initializes_v<void(Props...)>};
}

}  // namespace kapi
