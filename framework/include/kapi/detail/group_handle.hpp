#pragma once
// What a work-item holds to reach its work-group's shared machinery: on a device backend
// the block it runs on (stateless), on a host backend the host group runner.
#include <kapi/config.hpp>
#include <kapi/device/detail/group_member.hpp>

namespace kapi::detail {

class HostGroup;

struct GroupHandle {
  const void* impl = nullptr;

  KAPI_FUNCTION DeviceGroupMember team() const { return {}; }  // the block: no state to point to
  HostGroup& host() const { return *const_cast<HostGroup*>(static_cast<const HostGroup*>(impl)); }
};

}  // namespace kapi::detail
