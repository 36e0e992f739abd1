// SPDX-License-Identifier: Apache-2.0
#pragma once
// kapi's MPI layer (target kapi::mpi, built when KAPI_ENABLE_MPI is on): MPI and Kokkos
// started together with one GPU per rank, communicators whose errors are exceptions,
// Cartesian process grids, and Kokkos Views over MPI (staged through pinned host memory
// when the library cannot read device memory), halo exchange included. Not part of
// kapi.hpp: programs without MPI include nothing of it.
#include <kapi/mpi/cartesian.hpp>
#include <kapi/mpi/communicator.hpp>
#include <kapi/mpi/environment.hpp>
#include <kapi/mpi/errors.hpp>
#include <kapi/mpi/halo.hpp>
#include <kapi/mpi/transfer.hpp>
