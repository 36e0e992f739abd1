#pragma once
// The app's kernels reduce their chunks with the framework (kapi/chunk_reduce.hpp);
// what remains here is the depth arithmetic they share.
#include <kapi/chunk_reduce.hpp>

namespace reduce {

/// ceil(log2(x)) for x >= 1.
using kapi::detail::ceil_log2;

}  // namespace reduce
