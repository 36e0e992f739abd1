#pragma once
// The apps' names for the framework's loop pragmas (kapi/unroll.hpp).
#include <kapi/unroll.hpp>

#define KAPI_APPS_UNROLL KAPI_UNROLL
#define KAPI_APPS_SIMD_LOOP KAPI_SIMD_LOOP
#define KAPI_APPS_NOINLINE_ON_HOST KAPI_NOINLINE_ON_HOST
#define KAPI_APPS_DEVICE_UNROLL KAPI_DEVICE_UNROLL
