// SPDX-License-Identifier: Apache-2.0
#pragma once
// Kokkos' dispatch of a host launch without reductions. Chunk c calls the functor's (c),
// the kernel's type erased (HostChunks), so that Kokkos' parallel_for is compiled once per
// host space, in the runtime (src/host/dispatch.cpp), instead of once per kernel. Host
// dispatch returns when the work is done (the launch's turn relies on it too), so the
// functor may stay on the launcher's stack.
#include <cstdint>
#include <string>

#include <kapi/host/detail/function_ref.hpp>

namespace kapi::detail {

using HostChunks = FunctionRef<std::int64_t>;

/// Kokkos' parallel_for of chunks 0 … chunks-1 on `space` (every host space the Kokkos
/// build enables), labelled for Kokkos Tools.
template <class ExecSpace>
void host_parallel_for(const ExecSpace& space, const std::string& label, std::int64_t chunks, HostChunks run);

}  // namespace kapi::detail
