// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a work-item holds to reach its work-group's shared machinery: in device code the
// block it runs on (stateless: team() is defined by the team backend,
// team/detail/group_member.hpp, which every caller includes), on a host backend the host
// group runner (host/detail/group.hpp). Only declarations here, so that the public
// headers that carry a handle (item.hpp, work_group.hpp, sub_group.hpp) include no
// backend.
#include <kapi/config.hpp>

namespace kapi::detail {

class HostGroup;
struct DeviceGroupMember;

struct GroupHandle {
  const void* impl = nullptr;

  KAPI_FUNCTION DeviceGroupMember team() const;  // the block: no state to point to
  HostGroup& host() const { return *const_cast<HostGroup*>(static_cast<const HostGroup*>(impl)); }
};

}  // namespace kapi::detail
