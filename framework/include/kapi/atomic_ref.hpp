// SPDX-License-Identifier: Apache-2.0
#pragma once
// AtomicRef<T, Order, Scope, Space>: atomic operations on one element of global memory
// (a View element) or local memory (a LocalAccessor element), as SYCL 2020's atomic_ref
// and numba-dpex's AtomicRef.
//   kapi::AtomicRef<int> bin(hist(k));          bin.fetch_add(1);
//   kapi::AtomicRef<float, kapi::MemoryOrder::relaxed, kapi::MemoryScope::work_group,
//                   kapi::AddressSpace::local> s(local_sum[0]);   s += x;
// Built on Kokkos atomics, which are valid on global memory and team scratch of every
// backend. On a host backend one thread runs a whole work-group, switching between its
// work-items only at barriers, so an atomic is never interrupted by a work-item of its
// own group; other groups run on other threads and the hardware atomic orders those.
//
// Memory orders: Kokkos's public atomics are relaxed. With Kokkos on desul (4.1 and newer)
// the order goes to desul's ordered atomics; on older Kokkos AtomicRef adds a full fence
// before (release and stronger) and after (acquire and stronger) as the order needs
// (detail/ordered_atomics.hpp). Relaxed operations pay nothing extra. Memory scopes are
// accepted for SYCL compatibility; every operation is at least device-scoped (Kokkos has
// no narrower atomics), and system scope is device scope too (host memory shared with a
// running device kernel is not supported).
#include <kapi/config.hpp>

#include <cstdint>
#include <type_traits>
#include <utility>

#include <kapi/detail/copy_bytes.hpp>
#include <kapi/detail/ordered_atomics.hpp>
#include <kapi/local_accessor.hpp>
#include <kapi/memory_model.hpp>

namespace kapi {

namespace detail {

template <class T>
inline constexpr bool atomic_value_v = (std::is_integral_v<T> && !std::is_same_v<T, bool> &&
                                        (sizeof(T) == 4 || sizeof(T) == 8)) ||
                                       std::is_same_v<T, float> || std::is_same_v<T, double>;

// SYCL's memory_order_traits: what a load or a store does under an atomic_ref's default order.
KAPI_FUNCTION constexpr MemoryOrder read_order(MemoryOrder o) {
  return o == MemoryOrder::acq_rel ? MemoryOrder::acquire : o == MemoryOrder::release ? MemoryOrder::relaxed : o;
}
KAPI_FUNCTION constexpr MemoryOrder write_order(MemoryOrder o) {
  return o == MemoryOrder::acq_rel ? MemoryOrder::release : o == MemoryOrder::acquire ? MemoryOrder::relaxed : o;
}

/// The unsigned integer with T's bits.
template <class T>
using bits_t = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;

template <class To, class From>
KAPI_FUNCTION To bit_cast(const From& from) {
  static_assert(sizeof(To) == sizeof(From));
  To to;
  copy_bytes(&to, &from, sizeof(To));
  return to;
}

}  // namespace detail

template <class T, MemoryOrder DefaultOrder = MemoryOrder::relaxed, MemoryScope DefaultScope = MemoryScope::device,
          AddressSpace Space = AddressSpace::global>
class AtomicRef {
  static_assert(detail::atomic_value_v<T>,
                "kapi::AtomicRef supports 32- and 64-bit integers (int32, int64, uint32, uint64), float and double");
  static_assert(DefaultOrder != MemoryOrder::acquire && DefaultOrder != MemoryOrder::release,
                "kapi::AtomicRef: the default order must be relaxed, acq_rel or seq_cst (as in SYCL 2020)");

 public:
  using value_type = T;
  using difference_type = T;
  static constexpr std::size_t required_alignment = sizeof(T);
  static constexpr bool is_always_lock_free = true;
  static constexpr MemoryOrder default_read_order = detail::read_order(DefaultOrder);
  static constexpr MemoryOrder default_write_order = detail::write_order(DefaultOrder);
  static constexpr MemoryOrder default_read_modify_write_order = DefaultOrder;
  static constexpr MemoryScope default_scope = DefaultScope;
  static constexpr AddressSpace address_space = Space;

  /// Refers to `ref`, which must be aligned to sizeof(T) and stay alive while in use.
  KAPI_FUNCTION explicit AtomicRef(T& ref) : ptr_(&ref) {}
  /// numba-dpex's form: AtomicRef(array, index...) refers to array(index...).
  template <class Array, class... I, class = std::enable_if_t<(sizeof...(I) >= 1) && (std::is_integral_v<I> && ...)>>
  KAPI_FUNCTION AtomicRef(const Array& array, I... index) : ptr_(&array(index...)) {}

  KAPI_FUNCTION bool is_lock_free() const { return true; }

  /// A load is at most acquire (release parts of `order` do not apply to it).
  KAPI_FUNCTION T load(MemoryOrder order = default_read_order, MemoryScope = DefaultScope) const {
    order = detail::read_order(order);
#if KAPI_COMPILING_DEVICE_CODE
    // A naturally aligned 4- or 8-byte volatile access is a single instruction on the
    // GPU (what Kokkos's own atomic_load does there); fences give the order.
    if (order == MemoryOrder::seq_cst) Kokkos::memory_fence();
    const T value = *static_cast<volatile T*>(ptr_);
    detail::fence_after(order);
    return value;
#else
    return detail::host_atomic_load(ptr_, order);
#endif
  }

  /// A store is at most release (acquire parts of `order` do not apply to it).
  KAPI_FUNCTION void store(T operand, MemoryOrder order = default_write_order, MemoryScope = DefaultScope) const {
    order = detail::write_order(order);
#if KAPI_COMPILING_DEVICE_CODE
    detail::fence_before(order);
    *static_cast<volatile T*>(ptr_) = operand;
    if (order == MemoryOrder::seq_cst) Kokkos::memory_fence();
#else
    detail::host_atomic_store(ptr_, operand, order);
#endif
  }

  KAPI_FUNCTION operator T() const { return load(); }
  KAPI_FUNCTION T operator=(T operand) const {
    store(operand);
    return operand;
  }

  KAPI_FUNCTION T exchange(T operand, MemoryOrder order = DefaultOrder, MemoryScope = DefaultScope) const {
    return detail::ordered_exchange(ptr_, operand, order);
  }

  /// If the stored value equals `expected` bitwise, replaces it with `desired` and
  /// returns true; otherwise loads it into `expected` and returns false. Floating-point
  /// values are compared as their bits on every backend (-0.0 differs from 0.0, a NaN
  /// can be exchanged), through an integer compare-exchange: Kokkos's own for float
  /// compares bits on some backends and values on others.
  KAPI_FUNCTION bool compare_exchange_strong(T& expected, T desired, MemoryOrder order = DefaultOrder,
                                             MemoryScope = DefaultScope) const {
    using Bits = detail::bits_t<T>;
    const Bits want = detail::bit_cast<Bits>(expected);
    const Bits old =
        detail::ordered_compare_exchange(reinterpret_cast<Bits*>(ptr_), want, detail::bit_cast<Bits>(desired), order);
    if (old == want) return true;
    expected = detail::bit_cast<T>(old);
    return false;
  }
  /// Never fails spuriously here (it is the strong form).
  KAPI_FUNCTION bool compare_exchange_weak(T& expected, T desired, MemoryOrder order = DefaultOrder,
                                           MemoryScope scope = DefaultScope) const {
    return compare_exchange_strong(expected, desired, order, scope);
  }
  /// numba-dpex's name for compare_exchange_strong.
  KAPI_FUNCTION bool compare_exchange(T& expected, T desired, MemoryOrder order = DefaultOrder,
                                      MemoryScope scope = DefaultScope) const {
    return compare_exchange_strong(expected, desired, order, scope);
  }

  // Every fetch_* returns the value stored before the operation.
  KAPI_FUNCTION T fetch_add(T operand, MemoryOrder order = DefaultOrder, MemoryScope = DefaultScope) const {
    return detail::ordered_fetch_add(ptr_, operand, order);
  }
  KAPI_FUNCTION T fetch_sub(T operand, MemoryOrder order = DefaultOrder, MemoryScope = DefaultScope) const {
    return detail::ordered_fetch_sub(ptr_, operand, order);
  }
  // fetch_min/fetch_max of floating point follow SYCL (DPC++) and numba: the operand is
  // stored only when it compares less (greater) than the stored value, so a NaN operand
  // never replaces a number, a stored NaN stays, and -0.0 and +0.0 (equal) leave the
  // stored one in place. kapi's own compare-exchange loop on every backend (Kokkos's
  // min/max for floating point stores a NaN operand and replaces a stored NaN).
  KAPI_FUNCTION T fetch_min(T operand, MemoryOrder order = DefaultOrder, MemoryScope = DefaultScope) const {
    if constexpr (std::is_floating_point_v<T>) {
      return rmw(order, [&] { return store_if_better<true>(operand); });
    } else {
      return detail::ordered_fetch_min(ptr_, operand, order);
    }
  }
  KAPI_FUNCTION T fetch_max(T operand, MemoryOrder order = DefaultOrder, MemoryScope = DefaultScope) const {
    if constexpr (std::is_floating_point_v<T>) {
      return rmw(order, [&] { return store_if_better<false>(operand); });
    } else {
      return detail::ordered_fetch_max(ptr_, operand, order);
    }
  }
  // Bitwise operations exist for integer types only (SFINAE, so they are absent, not
  // broken, for float and double).
  template <class U = T, class = std::enable_if_t<std::is_integral_v<U>>>
  KAPI_FUNCTION T fetch_and(T operand, MemoryOrder order = DefaultOrder, MemoryScope = DefaultScope) const {
    return detail::ordered_fetch_and(ptr_, operand, order);
  }
  template <class U = T, class = std::enable_if_t<std::is_integral_v<U>>>
  KAPI_FUNCTION T fetch_or(T operand, MemoryOrder order = DefaultOrder, MemoryScope = DefaultScope) const {
    return detail::ordered_fetch_or(ptr_, operand, order);
  }
  template <class U = T, class = std::enable_if_t<std::is_integral_v<U>>>
  KAPI_FUNCTION T fetch_xor(T operand, MemoryOrder order = DefaultOrder, MemoryScope = DefaultScope) const {
    return detail::ordered_fetch_xor(ptr_, operand, order);
  }

  // Compound assignments return the new value, as in SYCL.
  KAPI_FUNCTION T operator+=(T operand) const { return fetch_add(operand) + operand; }
  KAPI_FUNCTION T operator-=(T operand) const { return fetch_sub(operand) - operand; }
  template <class U = T, class = std::enable_if_t<std::is_integral_v<U>>>
  KAPI_FUNCTION T operator++() const {
    return fetch_add(T(1)) + T(1);
  }
  template <class U = T, class = std::enable_if_t<std::is_integral_v<U>>>
  KAPI_FUNCTION T operator++(int) const {
    return fetch_add(T(1));
  }
  template <class U = T, class = std::enable_if_t<std::is_integral_v<U>>>
  KAPI_FUNCTION T operator--() const {
    return fetch_sub(T(1)) - T(1);
  }
  template <class U = T, class = std::enable_if_t<std::is_integral_v<U>>>
  KAPI_FUNCTION T operator--(int) const {
    return fetch_sub(T(1));
  }
  template <class U = T, class = std::enable_if_t<std::is_integral_v<U>>>
  KAPI_FUNCTION T operator&=(T operand) const {
    return fetch_and(operand) & operand;
  }
  template <class U = T, class = std::enable_if_t<std::is_integral_v<U>>>
  KAPI_FUNCTION T operator|=(T operand) const {
    return fetch_or(operand) | operand;
  }
  template <class U = T, class = std::enable_if_t<std::is_integral_v<U>>>
  KAPI_FUNCTION T operator^=(T operand) const {
    return fetch_xor(operand) ^ operand;
  }

 private:
  // Replaces the stored value by `operand` while operand < stored (Min) or operand >
  // stored (!Min), by a bitwise compare-exchange; returns the value it last read there,
  // the one the operation replaced or kept.
  template <bool Min>
  KAPI_FUNCTION T store_if_better(T operand) const {
    using Bits = detail::bits_t<T>;
    Bits* const cell = reinterpret_cast<Bits*>(ptr_);
    const Bits desired = detail::bit_cast<Bits>(operand);
#if KAPI_COMPILING_DEVICE_CODE
    Bits old = *static_cast<volatile Bits*>(cell);
#else
    Bits old = detail::host_atomic_load_relaxed(cell);
#endif
    for (;;) {
      const T current = detail::bit_cast<T>(old);
      if (!(Min ? operand < current : operand > current)) return current;
      const Bits seen = Kokkos::atomic_compare_exchange(cell, old, desired);
      if (seen == old) return current;
      old = seen;
    }
  }

  // The floating-point min/max loop between the fences its order needs.
  template <class F>
  KAPI_FUNCTION static T rmw(MemoryOrder order, const F& f) {
    detail::fence_before(order);
    const T old = f();
    detail::fence_after(order);
    return old;
  }

  T* ptr_;
};

// Class template argument deduction: the value type from the element, as numba-dpex's
// AtomicRef(array, index) takes it from the array.
//   kapi::AtomicRef bin(hist(k));        // AtomicRef<int> for a View<int*>
//   kapi::AtomicRef sum(out, 0);         // numba-dpex's form: out(0)
//   kapi::AtomicRef s(local_sum, 0);     // a LocalAccessor element: AddressSpace::local
namespace detail {
template <class Array, class... I>
using atomic_element_t = std::remove_reference_t<decltype(std::declval<const Array&>()(std::declval<I>()...))>;
}  // namespace detail

template <class T>
KAPI_DEDUCTION_GUIDE AtomicRef(T&)->AtomicRef<T>;
template <class Array, class... I, class = std::enable_if_t<(sizeof...(I) >= 1) && (std::is_integral_v<I> && ...)>>
KAPI_DEDUCTION_GUIDE AtomicRef(const Array&, I...)
    ->AtomicRef<detail::atomic_element_t<Array, I...>, MemoryOrder::relaxed, MemoryScope::device,
                is_local_accessor_v<Array> ? AddressSpace::local : AddressSpace::global>;

/// A memory fence for the calling work-item: orders its memory operations before and
/// after the fence as `order` says (relaxed: no effect). Scope as for AtomicRef.
KAPI_FUNCTION void atomic_fence(MemoryOrder order, MemoryScope scope = MemoryScope::device) {
  (void)scope;
  detail::ordered_fence(order);
}

}  // namespace kapi
