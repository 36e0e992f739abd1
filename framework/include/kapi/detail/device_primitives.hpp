// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one place the device pass picks its backend's warp and block primitives
// (detail::warp: lane masks, word shuffles, votes, the sub-group barrier; detail::block:
// the local linear id, the block barrier and votes, static shared words): CUDA's warps in
// a CUDA device pass, HIP's wavefronts in a HIP device pass, nothing in host passes. The
// team backend's device collectives (team/detail/) are written over them once.
#include <kapi/config.hpp>

#if KAPI_COMPILING_CUDA_DEVICE_CODE
#include <kapi/cuda/detail/warp.hpp>
#elif KAPI_COMPILING_HIP_DEVICE_CODE
#include <kapi/hip/detail/wavefront.hpp>
#endif
