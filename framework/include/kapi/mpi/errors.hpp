// SPDX-License-Identifier: Apache-2.0
#pragma once
// The exception every failed MPI call of the layer throws: the rank, the call and MPI's
// own message, instead of MPI's default of aborting the job without a word.
#include <mpi.h>

#include <stdexcept>
#include <string>

namespace kapi::mpi {

/// Thrown when an MPI call returns an error (the layer's communicators return errors
/// instead of aborting) or when a transfer's arguments are refused before MPI is called.
class mpi_error : public std::runtime_error {
 public:
  mpi_error(int rank, const std::string& call, int code, const std::string& what)
      : std::runtime_error("kapi::mpi: rank " + std::to_string(rank) + ": " + call + ": " + what),
        rank_(rank),
        code_(code),
        call_(call) {}
  int rank() const noexcept { return rank_; }
  /// MPI's error code (MPI_SUCCESS when the layer refused the arguments itself).
  int code() const noexcept { return code_; }
  const std::string& call() const noexcept { return call_; }

 private:
  int rank_, code_;
  std::string call_;
};

namespace detail {

/// This process's rank in MPI_COMM_WORLD, or -1 before MPI_Init / after MPI_Finalize.
inline int world_rank() noexcept {
  int initialized = 0, finalized = 0, rank = -1;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized && !finalized) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

/// MPI's text for an error code, with its class when that says more.
inline std::string error_string(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) return "MPI error " + std::to_string(code);
  return std::string(text, std::size_t(length)) + " (MPI error " + std::to_string(code) + ")";
}

/// Throws mpi_error naming `call` unless `code` is MPI_SUCCESS.
inline void check(int code, const char* call) {
  if (code != MPI_SUCCESS) throw mpi_error(world_rank(), call, code, error_string(code));
}

}  // namespace detail
}  // namespace kapi::mpi

/// Calls an MPI function and throws kapi::mpi::mpi_error naming it if it fails:
/// KAPI_MPI_CHECK(MPI_Send(buf, n, MPI_FLOAT, dest, tag, comm)).
#define KAPI_MPI_CHECK(name, ...) ::kapi::mpi::detail::check(name(__VA_ARGS__), #name)
