#pragma once
// kapi: the numba-dpex kernel_api / SYCL execution model on Kokkos. One include.
#include "barrier.hpp"
#include "device_limits.hpp"
#include "errors.hpp"
#include "group.hpp"
#include "item.hpp"
#include "launch.hpp"
#include "local_accessor.hpp"
#include "memory_model.hpp"
#include "private_array.hpp"
#include "range.hpp"
