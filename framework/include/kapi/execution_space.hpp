// SPDX-License-Identifier: Apache-2.0
#pragma once
// Which Kokkos execution spaces this build enables, and which of them run on host threads.
//
// Three questions look alike and are answered in three places:
// - KAPI_COMPILING_DEVICE_CODE (config.hpp): is the compiler generating accelerator code
//   right now? A preprocessor test: picks device intrinsics inside a KAPI_FUNCTION.
// - kapi::is_host_execution_space_v<ExecSpace> (here, from kapi::space_traits): does this
//   space run its work on host threads? Then a work-group is run by one thread (the host
//   engine); otherwise it is a Kokkos team. Answered per space type in space_traits.hpp,
//   never by memory accessibility (HIP's unified memory makes device memory host-accessible).
// - kapi::detail::host_reads_result_directly<ExecSpace> (reduce/device_reduce.hpp):
//   can the host read a reduction's result where the kernel wrote it, without a copy?
#include <cstddef>
#include <type_traits>

#include <kapi/config.hpp>
#include <kapi/space_traits.hpp>

namespace kapi {

/// True for the Kokkos execution spaces whose work runs on host threads
/// (space_traits<ExecSpace>::is_host; teach kapi a space there, not here).
template <class ExecSpace>
struct is_host_execution_space : std::bool_constant<space_traits<ExecSpace>::is_host> {};

template <class ExecSpace>
inline constexpr bool is_host_execution_space_v = is_host_execution_space<std::remove_cv_t<ExecSpace>>::value;

/// A list of execution-space types.
template <class... Spaces>
struct execution_space_list {
  static constexpr std::size_t size = sizeof...(Spaces);
};

namespace detail {
// Builds a list from "A, B, …, void": the trailing void lets every #if line end with a comma.
template <class List, class... Rest>
struct space_list_until_void;
template <class... Done, class... Rest>
struct space_list_until_void<execution_space_list<Done...>, void, Rest...> {
  using type = execution_space_list<Done...>;
};
template <class... Done, class Space, class... Rest>
struct space_list_until_void<execution_space_list<Done...>, Space, Rest...>
    : space_list_until_void<execution_space_list<Done..., Space>, Rest...> {};
}  // namespace detail

/// Every execution space of this Kokkos build that kapi runs on, device spaces first
/// (the order tests, apps and benchmarks list them in).
using enabled_execution_spaces = typename detail::space_list_until_void<execution_space_list<>,
#if defined(KOKKOS_ENABLE_CUDA)
                                                                        Kokkos::Cuda,
#endif
#if defined(KOKKOS_ENABLE_HIP)
                                                                        detail::HipExecutionSpace,
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
                                                                        Kokkos::OpenMP,
#endif
#if defined(KOKKOS_ENABLE_THREADS)
                                                                        Kokkos::Threads,
#endif
#if defined(KOKKOS_ENABLE_SERIAL)
                                                                        Kokkos::Serial,
#endif
                                                                        void>::type;

}  // namespace kapi
