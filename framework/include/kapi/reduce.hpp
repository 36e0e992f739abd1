// SPDX-License-Identifier: Apache-2.0
#pragma once
// Reductions: kapi::reduce over a whole View (reduce/device_reduce.hpp), the per-work-item
// chunk reduction it is built from (reduce/chunk_reduce.hpp) and its launch shapes
// (reduce/tuning.hpp).
#include <kapi/reduce/chunk_reduce.hpp>
#include <kapi/reduce/device_reduce.hpp>
#include <kapi/reduce/tuning.hpp>
