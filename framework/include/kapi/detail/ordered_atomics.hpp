// SPDX-License-Identifier: Apache-2.0
#pragma once
// Atomic operations under a runtime kapi::MemoryOrder, for AtomicRef and atomic_fence.
//
// Kokkos's public atomics take no order (relaxed, device scope). Where Kokkos is built on
// desul (always from 4.1; 3.6-4.0 when configured with desul atomics) the order goes to
// desul, which Kokkos installs and uses itself: an acq_rel fetch_add is one ordered
// instruction. Otherwise (Kokkos 3.4) the relaxed Kokkos atomic is bracketed by full fences
// as the order needs: release and stronger before, acquire and stronger after.
#include <kapi/config.hpp>
#include <kapi/memory_model.hpp>

#if KOKKOS_VERSION >= 40100 || defined(KOKKOS_ENABLE_IMPL_DESUL_ATOMICS)
#include <desul/atomics.hpp>
#define KAPI_ATOMICS_TAKE_ORDERS 1
#else
#define KAPI_ATOMICS_TAKE_ORDERS 0
#endif

namespace kapi::detail {

KAPI_FUNCTION constexpr bool releases(MemoryOrder o) {
  return o == MemoryOrder::release || o == MemoryOrder::acq_rel || o == MemoryOrder::seq_cst;
}
KAPI_FUNCTION constexpr bool acquires(MemoryOrder o) {
  return o == MemoryOrder::acquire || o == MemoryOrder::acq_rel || o == MemoryOrder::seq_cst;
}

#if KAPI_ATOMICS_TAKE_ORDERS

/// Calls `op(order_tag)` with desul's tag for `order`.
template <class Op>
KAPI_FUNCTION auto with_order(MemoryOrder order, const Op& op) {
  switch (order) {
    case MemoryOrder::relaxed:
      return op(desul::MemoryOrderRelaxed());
    case MemoryOrder::acquire:
      return op(desul::MemoryOrderAcquire());
    case MemoryOrder::release:
      return op(desul::MemoryOrderRelease());
    case MemoryOrder::acq_rel:
      return op(desul::MemoryOrderAcqRel());
    default:
      return op(desul::MemoryOrderSeqCst());
  }
}

// A relaxed fence orders nothing, and desul has none on CUDA (no overload to instantiate),
// so the fence's orders are spelled out here rather than through with_order.
KAPI_FUNCTION void ordered_fence(MemoryOrder o) {
  const desul::MemoryScopeDevice scope;
  switch (o) {
    case MemoryOrder::relaxed:
      return;
    case MemoryOrder::acquire:
      return desul::atomic_thread_fence(desul::MemoryOrderAcquire(), scope);
    case MemoryOrder::release:
      return desul::atomic_thread_fence(desul::MemoryOrderRelease(), scope);
    case MemoryOrder::acq_rel:
      return desul::atomic_thread_fence(desul::MemoryOrderAcqRel(), scope);
    default:
      return desul::atomic_thread_fence(desul::MemoryOrderSeqCst(), scope);
  }
}
// The fences around an operation that has no ordered form (AtomicRef's floating-point
// min/max loop): the release half before, the acquire half after; seq_cst both.
KAPI_FUNCTION void fence_before(MemoryOrder o) {
  if (releases(o)) ordered_fence(o == MemoryOrder::seq_cst ? o : MemoryOrder::release);
}
KAPI_FUNCTION void fence_after(MemoryOrder o) {
  if (acquires(o)) ordered_fence(o == MemoryOrder::seq_cst ? o : MemoryOrder::acquire);
}

// kapi::detail::ordered_<op>(ptr, [operand,] order): the read-modify-write `op` under `order`.
#define KAPI_ORDERED_RMW(op)                                                                                           \
  template <class T>                                                                                                   \
  KAPI_FUNCTION T ordered_##op(T* ptr, T operand, MemoryOrder order) {                                                 \
    return with_order(order, [&](auto o) { return desul::atomic_##op(ptr, operand, o, desul::MemoryScopeDevice()); }); \
  }
template <class T>
KAPI_FUNCTION T ordered_compare_exchange(T* ptr, T expected, T desired, MemoryOrder order) {
  return with_order(order, [&](auto o) {
    return desul::atomic_compare_exchange(ptr, expected, desired, o, desul::MemoryScopeDevice());
  });
}

#else  // Kokkos without desul: fences around the relaxed Kokkos atomic.

KAPI_FUNCTION void fence_before(MemoryOrder o) {
  if (releases(o)) Kokkos::memory_fence();
}
KAPI_FUNCTION void fence_after(MemoryOrder o) {
  if (acquires(o)) Kokkos::memory_fence();
}
KAPI_FUNCTION void ordered_fence(MemoryOrder o) {
  if (o != MemoryOrder::relaxed) Kokkos::memory_fence();
}

#define KAPI_ORDERED_RMW(op)                                           \
  template <class T>                                                   \
  KAPI_FUNCTION T ordered_##op(T* ptr, T operand, MemoryOrder order) { \
    fence_before(order);                                               \
    const T old = Kokkos::atomic_##op(ptr, operand);                   \
    fence_after(order);                                                \
    return old;                                                        \
  }
template <class T>
KAPI_FUNCTION T ordered_compare_exchange(T* ptr, T expected, T desired, MemoryOrder order) {
  fence_before(order);
  const T old = Kokkos::atomic_compare_exchange(ptr, expected, desired);
  fence_after(order);
  return old;
}

#endif

#if !KAPI_COMPILING_DEVICE_CODE
// Loads and stores of AtomicRef in host code: the host compiler's atomic built-ins, which
// take the order directly.
KAPI_FUNCTION constexpr int host_order(MemoryOrder o) {
  switch (o) {
    case MemoryOrder::relaxed:
      return __ATOMIC_RELAXED;
    case MemoryOrder::acquire:
      return __ATOMIC_ACQUIRE;
    case MemoryOrder::release:
      return __ATOMIC_RELEASE;
    case MemoryOrder::acq_rel:
      return __ATOMIC_ACQ_REL;
    default:
      return __ATOMIC_SEQ_CST;
  }
}
template <class T>
KAPI_FUNCTION T host_atomic_load(T* ptr, MemoryOrder order) {
  T value;
  __atomic_load(ptr, &value, host_order(order));
  return value;
}
template <class T>
KAPI_FUNCTION T host_atomic_load_relaxed(T* ptr) {
  return __atomic_load_n(ptr, __ATOMIC_RELAXED);
}
template <class T>
KAPI_FUNCTION void host_atomic_store(T* ptr, T value, MemoryOrder order) {
  __atomic_store(ptr, &value, host_order(order));
}
#endif

KAPI_ORDERED_RMW(exchange)
KAPI_ORDERED_RMW(fetch_add)
KAPI_ORDERED_RMW(fetch_sub)
KAPI_ORDERED_RMW(fetch_min)
KAPI_ORDERED_RMW(fetch_max)
KAPI_ORDERED_RMW(fetch_and)
KAPI_ORDERED_RMW(fetch_or)
KAPI_ORDERED_RMW(fetch_xor)
#undef KAPI_ORDERED_RMW

}  // namespace kapi::detail
