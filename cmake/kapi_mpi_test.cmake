# SPDX-License-Identifier: Apache-2.0
# kapi_add_mpi_test(<name> <ranks> <command> <args>...): a ctest entry running the command
# on <ranks> ranks under mpiexec (the MPI layer's tests, the distributed apps). On a
# machine with fewer cores than ranks (CI: 2) OpenMPI needs --oversubscribe, and as root
# (CI containers) its two consent variables; each rank runs one host thread, unbound, so
# that oversubscribed ranks share the cores instead of fighting over one. One mpiexec at a
# time (RESOURCE_LOCK, under `ctest -j`): OpenMPI's mpiexecs share a session directory in
# /tmp, which one of them removes while another starts in it ("A call to mkdir was unable
# to create the desired directory").
set(KAPI_MPIEXEC_FLAGS "" CACHE STRING "Extra mpiexec flags of the MPI tests (OpenMPI: --oversubscribe --bind-to none are added)")
execute_process(COMMAND ${MPIEXEC_EXECUTABLE} --version OUTPUT_VARIABLE kapi_mpiexec_version ERROR_QUIET)
set(kapi_mpiexec_flags ${KAPI_MPIEXEC_FLAGS})
if(kapi_mpiexec_version MATCHES "Open MPI|OpenRTE")
  list(APPEND kapi_mpiexec_flags --oversubscribe --bind-to none)
endif()
set(kapi_mpi_test_environment OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
    KOKKOS_NUM_THREADS=1 OMP_PROC_BIND=false OMP_PLACES=)
if(KAPI_SANITIZE)
  # AddressSanitizer without its leak check under MPI: OpenMPI unloads its components at
  # MPI_Finalize, and what they (and the libraries they load) still hold is reported as
  # leaks from unknown modules, which no suppression can name. The other tests keep it.
  # And without hwloc's PCI discovery: under AddressSanitizer's allocator its reading of
  # the PCI device names (pci.ids) copies a growing buffer again and again (perf: memmove
  # and its page faults, three quarters of the time), seconds of every rank's MPI_Init.
  # The ranks run unbound, so no placement uses what it finds.
  list(APPEND kapi_mpi_test_environment ASAN_OPTIONS=detect_leaks=0 HWLOC_COMPONENTS=-pci)
endif()
function(kapi_add_mpi_test name ranks)
  if(NOT KAPI_ENABLE_TESTS)
    return()
  endif()
  add_test(NAME ${name} COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ranks} ${kapi_mpiexec_flags}
                                ${MPIEXEC_PREFLAGS} ${ARGN} ${MPIEXEC_POSTFLAGS})
  set_tests_properties(${name} PROPERTIES ENVIRONMENT "${kapi_mpi_test_environment}" TIMEOUT 300 PROCESSORS ${ranks}
                                          RESOURCE_LOCK kapi_mpiexec LABELS mpi)
endfunction()

# kapi_add_mpi_rejects(<name> <ranks> <status> <regex> <args>...): like kapi_add_mpi_test, and
# the run must end with exit status <status> and print a message matching <regex>.
set(kapi_expect_exit_script ${CMAKE_CURRENT_LIST_DIR}/kapi_expect_exit.cmake)
function(kapi_add_mpi_rejects name ranks status regex)
  if(NOT KAPI_ENABLE_TESTS)
    return()
  endif()
  set(defs)
  set(i 0)
  foreach(arg IN ITEMS ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ranks} ${kapi_mpiexec_flags}
                       ${MPIEXEC_PREFLAGS} ${ARGN} ${MPIEXEC_POSTFLAGS})
    list(APPEND defs "-DARG${i}=${arg}")
    math(EXPR i "${i} + 1")
  endforeach()
  add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} -DNARGS=${i} ${defs} -DSTATUS=${status} "-DEXPECT=${regex}"
                                -P ${kapi_expect_exit_script})
  set_tests_properties(${name} PROPERTIES ENVIRONMENT "${kapi_mpi_test_environment}" TIMEOUT 300 PROCESSORS ${ranks}
                                          RESOURCE_LOCK kapi_mpiexec LABELS mpi)
endfunction()
