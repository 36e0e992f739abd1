// SPDX-License-Identifier: Apache-2.0
#pragma once
// The naive matrix product: a range kernel over C's M×N elements, each work-item an
// inner product along K, no local memory. The baseline the tiled kernels improve on.
#include <cstddef>

#include <kapi/item.hpp>
#include <kapi/launch.hpp>
#include <kapi/range.hpp>

#include "completion.hpp"

namespace matmul {

struct Naive {
  template <class A, class B, class C>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::Item<2>& it, const A& a, const B& b, const C& c) const {
    const std::size_t i = it.get_id(0), j = it.get_id(1), k_extent = a.extent(1);
    typename C::non_const_value_type acc = 0;
    for (std::size_t k = 0; k < k_extent; ++k) acc += a(i, k) * b(k, j);
    c(i, j) = acc;
  }
};

template <class ExecSpace, class A, class B, class C>
void multiply_naive(const ExecSpace& space, const A& a, const B& b, const C& c, Completion done = Completion::written) {
  finish(kapi::call_kernel_async(space, Naive{}, kapi::Range<2>(c.extent(0), c.extent(1)), a, b, c), done);
}

}  // namespace matmul
