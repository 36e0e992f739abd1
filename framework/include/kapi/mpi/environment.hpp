#pragma once
// kapi::mpi::Environment: MPI and Kokkos started together, one GPU per rank. MPI starts
// first (MPI_THREAD_FUNNELED: only the thread that started it calls MPI, while host
// backends run their own threads); the rank's node-local rank then picks its device
// (kapi::mpi::pick_device) and Kokkos starts on it (--kokkos-device-id). Stopped in the
// reverse order. A --kokkos-device-id or --kokkos-num-devices of the user's is kept.
//
//   int main(int argc, char** argv) {
//     kapi::mpi::Environment env(argc, argv);
//     const kapi::mpi::Communicator& world = env.world();
//     ...
//   }
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "communicator.hpp"
#include "errors.hpp"

namespace kapi::mpi {

/// GPUs the node has for the build's device backend (0 on host-only builds).
inline int device_count() {
#if defined(KOKKOS_ENABLE_CUDA)
  return int(Kokkos::Cuda::detect_device_count());
#elif defined(KOKKOS_ENABLE_HIP)
  return int(Kokkos::Experimental::HIP::detect_device_count());
#else
  return 0;
#endif
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
    world_.emplace(MPI_COMM_WORLD);
    const int devices = device_count();
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
  ~Environment() {
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
  std::optional<Communicator> world_;
  int device_id_ = 0;
  bool owns_mpi_ = false, owns_kokkos_ = false;
};

}  // namespace kapi::mpi
