// SPDX-License-Identifier: Apache-2.0
#pragma once
// KAPI_CUDA_RANGE_SHAPE (launch_shapes.hpp): the candidate shapes' names, the parsed
// setting, and the record of every choice. Compiled in the runtime (src/launch_shapes.cpp).
#include <string>

#include <kapi/launch_shapes.hpp>

namespace kapi::detail {

/// The candidate grid shapes of a 3-d range launch on CUDA (launch_shapes.hpp), by index.
enum CudaRangeShapeIndex : int {
  cuda_range_strided,
  cuda_range_strided_few,
  cuda_range_planes_4,
  cuda_range_planes_4_unrolled
};
inline constexpr const char* cuda_range_shape_names[] = {"strided", "strided-few", "planes-4", "planes-4-unrolled"};
inline constexpr int cuda_range_shape_count = 4;

struct LaunchShapeSetting {
  int shape = -1;     // a shape's index, or -1: tuned per kernel
  std::string error;  // empty when the setting is usable
};

LaunchShapeSetting parse_launch_shape_setting(const char* text);

/// The process' setting (the environment is read once).
const LaunchShapeSetting& launch_shape_setting_state();

/// Adds a kernel's choice to what launch_shape_choices() returns.
void record_launch_shape_choice(LaunchShapeChoice choice);

}  // namespace kapi::detail
