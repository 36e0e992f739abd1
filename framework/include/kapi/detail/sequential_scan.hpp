// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one sequential scan every host path runs (group scans, joint scans, phased scans):
// a left fold in index order, so floating-point results equal the serial loop's.
#include <cstddef>

#include <kapi/config.hpp>
#include <kapi/functional.hpp>

namespace kapi::detail {

/// What an exclusive scan gives its first element: init, or without one the operator's
/// identity (only that case needs the operator to have one).
template <bool Inclusive, bool HasInit, class Op, class T>
KAPI_FUNCTION T scan_first_value(const T& init) {
  if constexpr (Inclusive || HasInit) {
    return init;
  } else {
    return known_identity<Op, T>();
  }
}

/// Replaces element i (read(i), write(i, v)) of 0 … n-1 by op over elements 0 … i
/// (Inclusive) or 0 … i-1, with init folded in first when HasInit. Reads element i before
/// writing it (in place is fine). Returns op over all n elements (after init).
template <bool Inclusive, bool HasInit, class T, class Op, class Read, class Write>
KAPI_FUNCTION T sequential_scan(std::size_t n, const Read& read, const Write& write, const Op& op, const T& init) {
  const T first = scan_first_value<Inclusive, HasInit, Op>(init);
  bool any = HasInit;
  T running = init;
  for (std::size_t i = 0; i < n; ++i) {
    const T v = T(read(i));
    const T next = any ? T(op(running, v)) : v;
    write(i, Inclusive ? next : (any ? running : first));
    running = next;
    any = true;
  }
  return running;
}

}  // namespace kapi::detail
