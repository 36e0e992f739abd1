// SPDX-License-Identifier: Apache-2.0
#pragma once
// The tensor-core matmul on Hopper's warpgroup MMA (wgmma, sm_90a): the device path of
// tuned-tf32, tuned-bf16 and tuned-fp16 on an H100/H200 in a build for HOPPER90
// (CMake option KAPI_CUDA_SM90A, on by default). Everywhere else, and where this build's
// sm_90a code does not run, those variants run the portable joint_matrix kernel
// (tensor_cores.hpp, mma.sync); the same tests check both against an fp64 product.
//
// It is compiled once, in its own translation unit (src/tensor_cores_sm90.cpp, the only
// code built for sm_90a), so this header declares it and dispatches:
//   1. A and B are packed into a workspace (kernels matmul::pack_a_<type>, pack_b_<type>):
//      rounded once to the input type, zero-padded to whole blocks, B transposed (wgmma
//      reads tf32 K-major only), each block's K step laid out as the shared-memory tile
//      wgmma reads (128-byte rows, 128-byte swizzle), so that a step's tile is one
//      contiguous run;
//   2. the product (kernel matmul::wgmma_<type>): 128×256 blocks of C per group of three
//      warpgroups: one issues the bulk copies (cp.async.bulk, the TMA engine) of the next
//      steps' tiles, four stages ahead, the other two multiply from shared memory.
// The workspace ((m + n)·k elements of the input type, m and n rounded up to the blocks,
// k to the steps: 537 MB for tf32 at m = n = k = 8192) is kept between calls and released
// at Kokkos::finalize. On an H100 at n = 8192 the packs take 0.4 ms of tf32's 3.2
// (results/cuda-hopper-h100-2026-11-27-3).
#include <type_traits>

#include <Kokkos_Core.hpp>

#include <kapi/reduced_precision.hpp>
#include <kapi/space_traits.hpp>

#include "completion.hpp"

namespace matmul::sm90 {

#if defined(KOKKOS_ENABLE_CUDA) && defined(KAPI_MATMUL_SM90A)
/// Matrices the wgmma path takes: float, in CUDA device memory, any strides.
using Input = Kokkos::View<const float**, Kokkos::LayoutStride, Kokkos::CudaSpace>;
using Output = Kokkos::View<float**, Kokkos::LayoutStride, Kokkos::CudaSpace>;

/// Whether `space`'s device runs this build's sm_90a code (asked once per device).
bool runs_on(const Kokkos::Cuda& space);

/// C = A·B with In (precision::tf32, bfloat16 or half) inputs, fp32 sums, on `space`,
/// returning when C is written; only where runs_on(space). False, with nothing done, where
/// the packed copy of A and B does not fit in the device's memory (or sizes past what a
/// launch holds): the portable kernel, which needs no copy, is the way there.
/// Completion::queued returns once the packs and the product are queued on `space`'s
/// stream (a later call on another stream waits for them before it reuses the workspace).
template <class In>
bool multiply(const Kokkos::Cuda& space, const Input& a, const Input& b, const Output& c,
              Completion done = Completion::written);

extern template bool multiply<kapi::precision::tf32>(const Kokkos::Cuda&, const Input&, const Input&, const Output&,
                                                     Completion);
extern template bool multiply<kapi::bfloat16>(const Kokkos::Cuda&, const Input&, const Input&, const Output&,
                                              Completion);
extern template bool multiply<kapi::half>(const Kokkos::Cuda&, const Input&, const Input&, const Output&, Completion);

/// C = A·B by the wgmma path where it takes these matrices (types it converts to, a
/// device that runs it, room for the packed copy): true when C is written, false
/// (nothing done) otherwise.
template <class In, class ExecSpace, class A, class B, class C>
bool multiply_if_taken(const ExecSpace& space, const A& a, const B& b, const C& c,
                       Completion done = Completion::written) {
  // (fp64 has no wgmma shape: tuned-fp64 is the portable kernel everywhere)
  if constexpr (kapi::space_traits<ExecSpace>::is_cuda && !std::is_same<In, double>::value &&
                std::is_convertible<A, Input>::value && std::is_convertible<B, Input>::value &&
                std::is_convertible<C, Output>::value) {
    if (runs_on(space)) return multiply<In>(space, a, b, c, done);
  }
  return false;
}
#else
template <class In, class ExecSpace, class A, class B, class C>
bool multiply_if_taken(const ExecSpace&, const A&, const B&, const C&, Completion = Completion::written) {
  return false;
}
#endif

}  // namespace matmul::sm90
