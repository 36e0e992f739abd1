// SPDX-License-Identifier: Apache-2.0
#pragma once
// Loop-nest policies chosen at run time by name ("tiles-32x8x1"), e.g. from a command line.
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include <kapi/nest/blocks.hpp>
#include <kapi/nest/flat.hpp>
#include <kapi/nest/hierarchical.hpp>
#include <kapi/nest/kernels.hpp>

namespace kapi::nest {

/// Any built-in policy, as parse_policy returns it.
using AnyPolicy =
    std::variant<Sequential, ParallelOuter, Collapsed, BlockStride, Tiles, Hierarchical, RangeKernel, NdRangeKernel>;

/// The built-in policies under their default names.
std::vector<std::string> policy_names();

/// The policy a name denotes: a default name from policy_names(), or one with its shape
/// written x×y×z (x = the contiguous k loop): "collapsed-64x4x1" (MDRange tile),
/// "blocks-3d-32x4x2" (block) optionally followed by "-grid-8x8x8", "tiles-16x16x1",
/// "kapi-nd-range-32x8x1" (local range). Throws std::invalid_argument otherwise.
/// (Compiled in the runtime, src/nest/by_name.cpp: a name is parsed once per program, and
/// parsing it in a header cost every file that includes kapi.hpp its compile time.)
AnyPolicy parse_policy(const std::string& name);

/// The name a policy prints under: its name() (a name passed as the policy is itself).
template <class Policy>
std::string policy_name(const Policy& policy) {
  if constexpr (std::is_convertible_v<const Policy&, std::string>) {
    return policy;
  } else if constexpr (std::is_same_v<Policy, AnyPolicy>) {
    return std::visit([](const auto& p) { return p.name(); }, policy);
  } else {
    return policy.name();
  }
}

}  // namespace kapi::nest
