// SPDX-License-Identifier: Apache-2.0
#pragma once
// kapi: the numba-dpex kernel_api / SYCL execution model on Kokkos. One include for all
// of it: kernels and launches, work-groups, local and private memory, atomics, group
// algorithms, phased kernels, reductions (whole arrays and reduction variables), math
// built-ins, loop-nest policies and the building blocks.

// Execution spaces and errors
#include <kapi/errors.hpp>
#include <kapi/execution_space.hpp>
#include <kapi/integer_math.hpp>
#include <kapi/space_traits.hpp>

// Kernels: index spaces, work-items, work-groups, launches
#include <kapi/device_limits.hpp>
#include <kapi/group.hpp>
#include <kapi/hierarchical.hpp>
#include <kapi/id.hpp>
#include <kapi/item.hpp>
#include <kapi/launch.hpp>
#include <kapi/launch_bounds.hpp>
#include <kapi/phased.hpp>
#include <kapi/range.hpp>
#include <kapi/reduction.hpp>
#include <kapi/sub_group.hpp>
#include <kapi/work_group.hpp>

// Memory, synchronisation and collectives
#include <kapi/atomic_ref.hpp>
#include <kapi/barrier.hpp>
#include <kapi/functional.hpp>
#include <kapi/group_algorithms.hpp>
#include <kapi/local_accessor.hpp>
#include <kapi/math.hpp>
#include <kapi/memory_model.hpp>
#include <kapi/private_array.hpp>
#include <kapi/sub_group_algorithms.hpp>

// Building blocks for tuned kernels
#include <kapi/async_copy.hpp>
#include <kapi/joint_matrix.hpp>
#include <kapi/reduced_precision.hpp>
#include <kapi/register_block.hpp>
#include <kapi/simd_width.hpp>
#include <kapi/tile_copy.hpp>
#include <kapi/unroll.hpp>
#include <kapi/vec.hpp>

// Whole-array reductions and loop-nest policies
#include <kapi/loop_nest.hpp>
#include <kapi/reduce.hpp>
