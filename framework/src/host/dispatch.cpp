// SPDX-License-Identifier: Apache-2.0
// Kokkos' dispatch of host launches without reductions, compiled once per host space: a
// kernel reaches it through a FunctionRef (host/detail/launcher.hpp), so no translation
// unit that launches a kernel instantiates Kokkos' parallel_for for it.
#include <kapi/host/detail/dispatch.hpp>

#include <Kokkos_Core.hpp>

namespace kapi::detail {

template <class ExecSpace>
void host_parallel_for(const ExecSpace& space, const std::string& label, std::int64_t chunks, HostChunks run) {
  Kokkos::parallel_for(label, Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, chunks), run);
}

#if defined(KOKKOS_ENABLE_SERIAL)
template void host_parallel_for(const Kokkos::Serial&, const std::string&, std::int64_t, HostChunks);
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
template void host_parallel_for(const Kokkos::OpenMP&, const std::string&, std::int64_t, HostChunks);
#endif
#if defined(KOKKOS_ENABLE_THREADS)
template void host_parallel_for(const Kokkos::Threads&, const std::string&, std::int64_t, HostChunks);
#endif
#if defined(KOKKOS_ENABLE_HPX)
template void host_parallel_for(const Kokkos::Experimental::HPX&, const std::string&, std::int64_t, HostChunks);
#endif

}  // namespace kapi::detail
