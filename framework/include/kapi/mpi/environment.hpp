// SPDX-License-Identifier: Apache-2.0
#pragma once
// kapi::mpi::Environment: MPI and Kokkos started together, one GPU per rank. MPI starts
// first (MPI_THREAD_FUNNELED: only the thread that started it calls MPI, while host
// backends run their own threads); the rank's node-local rank then picks its device
// (kapi::mpi::pick_device) and Kokkos starts on it (--kokkos-device-id). Stopped in the
// reverse order. A --kokkos-device-id or --kokkos-num-devices of the user's is kept.
// On a device build every rank must see a GPU: the ranks compare their counts first, so
// that a rank without one is an mpi_error on every rank (naming it), not a hang.
//
//   int main(int argc, char** argv) {
//     kapi::mpi::Environment env(argc, argv);
//     const kapi::mpi::Communicator& world = env.world();
//     ...
//   }
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "communicator.hpp"
#include "errors.hpp"
#include "transfer.hpp"

namespace kapi::mpi {

/// GPUs the node has for the build's device backend (0 on host-only builds, and where the
/// runtime finds none: asked directly, since Kokkos' own query throws there, and a rank
/// that threw here would leave the others waiting in the device check).
inline int device_count() {
  int n = 0;
#if defined(KOKKOS_ENABLE_CUDA)
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    (void)cudaGetLastError();  // clear it: the error is "no device", reported by the check
    n = 0;
  }
#elif defined(KOKKOS_ENABLE_HIP)
  if (hipGetDeviceCount(&n) != hipSuccess) {
    (void)hipGetLastError();
    n = 0;
  }
#endif
  return n;
}

/// Whether the build runs kernels on a GPU (CUDA or HIP): then every rank needs one.
inline constexpr bool device_build =
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
    true;
#else
    false;
#endif

/// Throws, on every rank that calls it with the same counts, when a rank of a device build
/// sees no GPU (`devices`: each rank's count, in rank order).
inline void check_every_rank_has_a_device(const std::vector<int>& devices, int my_rank, bool on_device_build) {
  if (!on_device_build) return;
  std::string without;
  int missing = 0;
  for (std::size_t r = 0; r < devices.size(); ++r)
    if (devices[r] <= 0) without += (missing++ ? ", " : "") + std::to_string(r);
  if (missing)
    throw mpi_error(my_rank, "kapi::mpi::Environment", MPI_SUCCESS,
                    std::string(missing > 1 ? "ranks " : "rank ") + without + " of " + std::to_string(devices.size()) +
                        (missing > 1 ? " see" : " sees") +
                        " no GPU, and this build runs its kernels on one GPU per rank (start ranks only on "
                        "nodes with GPUs, no more per node than it has, and check CUDA_VISIBLE_DEVICES / "
                        "HIP_VISIBLE_DEVICES there)");
}

/// KAPI_MPI_TRANSPORT decides how both ends of a transfer move it: every rank must read the
/// same, valid value (`mine`: this rank's). Throws on every rank otherwise (each compares all
/// ranks' values), naming the first that differs; a rank alone with a bad value would leave
/// the others waiting.
inline void check_same_transport_setting(const Communicator& world, const std::string& mine) {
  const auto all = all_gather_text(world, mine);
  for (std::size_t r = 0; r < all.size(); ++r) {
    const bool staged = parse_transport_setting(all[r], world.rank(), "rank " + std::to_string(r) + " has ");
    if (staged != parse_transport_setting(all[0], world.rank(), "rank 0 has "))
      throw mpi_error(world.rank(), "KAPI_MPI_TRANSPORT", MPI_SUCCESS,
                      "rank 0 has '" + all[0] + "', rank " + std::to_string(r) + " '" + all[r] +
                          "': every rank must move its data the same way (set it for all ranks, e.g. mpirun -x)");
  }
}

class Environment {
 public:
  Environment(int& argc, char**& argv) {
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (!initialized) {
      int provided = 0;
      // MPI_Init_thread's errors abort: no communicator can return them yet.
      MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
      owns_mpi_ = true;
    }
    try {
      start_kokkos(argc, argv);
    } catch (...) {  // every rank gets here together (the checks are collective): end MPI cleanly
      world_.reset();
      if (owns_mpi_) MPI_Finalize();
      throw;
    }
  }
  ~Environment() {
#if KAPI_MPI_HAS_PEER_TRANSFERS
    detail::PeerImports::get().close();
#endif
    world_.reset();
    if (owns_kokkos_) Kokkos::finalize();
    if (owns_mpi_) MPI_Finalize();
  }
  Environment(const Environment&) = delete;
  Environment& operator=(const Environment&) = delete;

  /// MPI_COMM_WORLD's duplicate, returning errors as exceptions.
  const Communicator& world() const { return *world_; }
  /// The device this rank's Kokkos runs on (0 on host-only builds).
  int device_id() const noexcept { return device_id_; }

 private:
  void start_kokkos(int& argc, char**& argv) {
    world_.emplace(MPI_COMM_WORLD);
    const int devices = device_count();
    check_every_rank_has_a_device(all_gather(*world_, std::vector<int>{devices}), world_->rank(), device_build);
    const char* transport = std::getenv("KAPI_MPI_TRANSPORT");
    check_same_transport_setting(*world_, transport ? transport : "");
    device_id_ = pick_device(world_->node_rank(), devices);
    std::vector<char*> args(argv, argv + argc);
    bool user_choice = false;
    for (char* a : args)
      user_choice = user_choice || std::strncmp(a, "--kokkos-device-id", 18) == 0 ||
                    std::strncmp(a, "--kokkos-num-devices", 20) == 0;
    std::string device_arg = "--kokkos-device-id=" + std::to_string(device_id_);
    if (devices > 0 && !user_choice) args.push_back(device_arg.data());
    int kokkos_argc = int(args.size());
    args.push_back(nullptr);
    if (!Kokkos::is_initialized()) {
      Kokkos::initialize(kokkos_argc, args.data());
      owns_kokkos_ = true;
    }
  }

  std::optional<Communicator> world_;
  int device_id_ = 0;
  bool owns_mpi_ = false, owns_kokkos_ = false;
};

}  // namespace kapi::mpi
