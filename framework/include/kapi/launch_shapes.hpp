// SPDX-License-Identifier: Apache-2.0
#pragma once
// Launch shapes chosen by measuring: on CUDA a 3-d range kernel's grid shape is tuned
// per kernel and extent by timing its own first launches under each candidate shape
// (every shape runs every work-item once, so each of those launches does the kernel's
// work); later launches take the fastest. No table of devices fits it: which shape wins
// depends on the GPU and on the kernel (a store per point wants blocks walking a few
// consecutive planes, a stencil threads that stride over many or walk them in order).
//
// KAPI_CUDA_RANGE_SHAPE chooses, read once per process: `tuned` (the default) or one
// shape by name, for A/B measurements and reproducible runs:
//   strided      each thread strides over the slowest dimension, the grid sized at about
//                four work-items per thread, 8 to 128 waves of blocks
//   strided-few  the same with a quarter of the blocks (each thread walks four times as
//                many planes)
//   planes-4     each block walks four consecutive planes of its (j, k) tile, one after
//                the other (a stencil finds its neighbour planes in cache)
//   planes-4-unrolled  the same with the four planes' work-items issued together (more
//                stores in flight per thread)
// A bad value makes the first 3-d range launch on CUDA throw launch_error naming it.
//
//   for (const auto& c : kapi::launch_shape_choices()) std::cout << c.kernel << ": " << c.shape << '\n';
#include <string>
#include <vector>

namespace kapi {

/// One kernel's choice: its name (Kokkos Tools' label), the extents it was launched
/// over, the shape it runs, and how each candidate's fastest timed launch went
/// (milliseconds, in the order of `shapes`); empty `times` where the shape was set
/// rather than tuned.
struct LaunchShapeChoice {
  std::string kernel;
  std::vector<long long> extent;
  std::string shape;
  std::vector<std::string> shapes;
  std::vector<double> times;
};

/// Every choice made so far in this process (none on backends without tuned launches).
std::vector<LaunchShapeChoice> launch_shape_choices();

/// "tuned", or the shape KAPI_CUDA_RANGE_SHAPE sets (for a report's header).
std::string launch_shape_setting();

}  // namespace kapi
