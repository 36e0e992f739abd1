// SPDX-License-Identifier: Apache-2.0
#pragma once
// When a matmul call returns. matmul::multiply returns when C is written; multiply_async,
// and each kernel's multiply_* function given Completion::queued, return once the work is
// queued on the execution space, as a library GEMM (cublasGemmEx) does: fence the space,
// or order later work after it on the same space, before reading C. On host backends the
// kernels run in the call either way.
namespace matmul {

enum class Completion { written, queued };

/// Waits for a launch (a kapi::KernelEvent) where `done` asks for C to be written. A queued
/// launch that fails is reported at the next wait on its space, or at Kokkos::finalize.
template <class Event>
void finish(const Event& launch, Completion done) {
  if (done == Completion::written) launch.wait();
}

}  // namespace matmul
