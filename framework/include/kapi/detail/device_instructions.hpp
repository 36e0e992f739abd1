// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one place the public building blocks reach a backend's special instructions
// (detail::cuda_ops on CUDA sm_80 and later: cp.async for async_copy.hpp, cvt for
// reduced_precision.hpp, mma.sync and ldmatrix for joint_matrix.hpp). Each file declares
// nothing outside its device pass; the public headers test KAPI_CUDA_ARCH (config.hpp)
// and fall back to portable code elsewhere. A backend with instructions of its own adds
// its files here.
#include <kapi/config.hpp>
#include <kapi/cuda/detail/async_copy.hpp>
#include <kapi/cuda/detail/conversions.hpp>
#include <kapi/cuda/detail/mma.hpp>
