#pragma once
// What a work-item holds to reach its work-group's shared machinery: the Kokkos team
// member on a device backend, the host group runner on a host backend.
#include <kapi/config.hpp>

namespace kapi::detail {

class HostGroup;

#if defined(KOKKOS_ENABLE_CUDA)
using DeviceTeamMember = Kokkos::TeamPolicy<Kokkos::Cuda>::member_type;
#elif defined(KOKKOS_ENABLE_HIP)
using DeviceTeamMember = Kokkos::TeamPolicy<Kokkos::Experimental::HIP>::member_type;
#else
struct NoDeviceTeam {  // host-only builds: never reached
  KAPI_FUNCTION void team_barrier() const {}
};
using DeviceTeamMember = NoDeviceTeam;
#endif

struct GroupHandle {
  const void* impl = nullptr;

  KAPI_FUNCTION const DeviceTeamMember& team() const { return *static_cast<const DeviceTeamMember*>(impl); }
  HostGroup& host() const { return *const_cast<HostGroup*>(static_cast<const HostGroup*>(impl)); }
};

}  // namespace kapi::detail
