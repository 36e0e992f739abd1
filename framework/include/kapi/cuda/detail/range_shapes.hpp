// SPDX-License-Identifier: Apache-2.0
#pragma once
// The tuner of a 3-d range launch's grid shape on CUDA (launch_shapes.hpp says what it
// does; compiled in the runtime, src/cuda/range_shapes.cpp): each launch asks it which
// shape to run and, while the kernel's shape is still being measured, gets the events to
// record around the launch.
#include <cstdint>
#include <string>

#include <cuda_runtime_api.h>

namespace kapi::detail {

struct CudaRangeTrial {
  int shape = 0;
  cudaEvent_t start = nullptr, stop = nullptr;  // both set while this launch is timed
};

/// The shape the next launch of `kernel` (its __global__ function) over `extent` on
/// `device` runs. Throws launch_error when KAPI_CUDA_RANGE_SHAPE is bad.
CudaRangeTrial cuda_range_trial(const void* kernel, const std::string& label, const std::int64_t (&extent)[3],
                                int device);

}  // namespace kapi::detail
