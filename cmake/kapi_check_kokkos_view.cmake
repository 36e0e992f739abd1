# SPDX-License-Identifier: Apache-2.0
# Refuses a Kokkos whose default-constructed View the compiler breaks, before anything is
# built (included after find_package(Kokkos); safe to include more than once).
#
# GCC 12.x (seen with Debian 12's 12.2.0; Kokkos reports 12.2 to 12.5) skips the constexpr
# default constructor of Kokkos' SharedAllocationTracker when it sits inside the
# mdspan-based View of Kokkos >= 4.7 / the 5.0 line (4.6.99 develop): a default-constructed
# View then carries a null allocation record instead of "no record", and its first copy,
# assignment or destruction after an assignment dereferences it (SIGSEGV in
# SharedAllocationRecord<void, void>::decrement). Kokkos issues 7464 and 8187; fixed in
# Kokkos by making that constructor non-constexpr for GCC 12 (pull requests 8223 and 9262).
# Kokkos <= 4.6.01 (legacy View only) and Kokkos built with Kokkos_ENABLE_IMPL_VIEW_LEGACY=ON
# are not affected. The check compiles and runs a six-line program once per Kokkos; where
# the program cannot start (exit status 127: a CUDA Kokkos on a machine without the GPU
# driver's libcuda), it warns and lets the build go on.
if(CMAKE_CROSSCOMPILING OR NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU"
   OR CMAKE_CXX_COMPILER_VERSION VERSION_LESS 12 OR NOT CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13
   OR NOT Kokkos_VERSION VERSION_GREATER 4.6.1 OR Kokkos_ENABLE_IMPL_VIEW_LEGACY
   OR "IMPL_VIEW_LEGACY" IN_LIST Kokkos_OPTIONS)
  return()
endif()
if(NOT "${KAPI_KOKKOS_VIEW_PROBED_FOR}" STREQUAL "${Kokkos_DIR};${CMAKE_CXX_COMPILER}")
  unset(KAPI_KOKKOS_VIEW_PROBE_RUN CACHE)
  unset(KAPI_KOKKOS_VIEW_PROBE_COMPILE CACHE)
endif()
if(NOT DEFINED KAPI_KOKKOS_VIEW_PROBE_RUN)
  set(kapi_probe_dir ${CMAKE_BINARY_DIR}/CMakeFiles/kapi_kokkos_view_probe)
  file(WRITE ${kapi_probe_dir}/probe.cpp [=[
#include <Kokkos_Core.hpp>
int main() {  // no allocation, so no Kokkos::initialize
  Kokkos::View<int*, Kokkos::HostSpace> a;
  Kokkos::View<int*, Kokkos::HostSpace> b(a);
  b = a;
  return a.use_count() == 0 && b.use_count() == 0 && a.data() == nullptr ? 0 : 1;
}
]=])
  try_run(KAPI_KOKKOS_VIEW_PROBE_RUN KAPI_KOKKOS_VIEW_PROBE_COMPILE ${kapi_probe_dir}/build
    ${kapi_probe_dir}/probe.cpp LINK_LIBRARIES Kokkos::kokkos COMPILE_OUTPUT_VARIABLE kapi_probe_output)
  set(KAPI_KOKKOS_VIEW_PROBED_FOR "${Kokkos_DIR};${CMAKE_CXX_COMPILER}" CACHE INTERNAL "")
  if(NOT KAPI_KOKKOS_VIEW_PROBE_COMPILE)
    message(WARNING "kapi: could not compile the check of Kokkos::View under GCC ${CMAKE_CXX_COMPILER_VERSION} "
                    "(skipped):\n${kapi_probe_output}")
  endif()
endif()
if(KAPI_KOKKOS_VIEW_PROBE_COMPILE AND "${KAPI_KOKKOS_VIEW_PROBE_RUN}" STREQUAL "127")
  message(WARNING "kapi: the check of Kokkos::View under GCC ${CMAKE_CXX_COMPILER_VERSION} compiled but could not "
                  "start on this machine (exit status 127: a library it needs, libcuda for a CUDA Kokkos, is "
                  "missing), so Kokkos ${Kokkos_VERSION} at ${Kokkos_DIR} is not checked. If it uses the "
                  "mdspan-based View, programs built with GCC 12 may die with SIGSEGV (Kokkos issues 7464 and "
                  "8187); configure again on a machine that runs its programs.")
elseif(KAPI_KOKKOS_VIEW_PROBE_COMPILE AND NOT "${KAPI_KOKKOS_VIEW_PROBE_RUN}" STREQUAL "0")
  message(FATAL_ERROR
    "kapi: with GCC ${CMAKE_CXX_COMPILER_VERSION}, Kokkos ${Kokkos_VERSION} at ${Kokkos_DIR} breaks "
    "default-constructed Views (a six-line check of one failed: ${KAPI_KOKKOS_VIEW_PROBE_RUN}); every program "
    "that assigns to one would die with SIGSEGV. This is GCC 12's miscompilation of Kokkos' "
    "mdspan-based View (Kokkos issues 7464 and 8187). Any one of these avoids it: a Kokkos that has "
    "the fix (pull requests 8223 and 9262), the same Kokkos rebuilt with "
    "-DKokkos_ENABLE_IMPL_VIEW_LEGACY=ON, GCC 13 or newer, or Clang.")
endif()
