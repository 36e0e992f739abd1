// SPDX-License-Identifier: Apache-2.0
#pragma once
// Loop-nest policies chosen at run time by name ("tiles-32x8x1"), e.g. from a command line.
#include <cstdio>
#include <stdexcept>
#include <string>
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
inline std::vector<std::string> policy_names() {
  return {"sequential",   "parallel-outer", "collapsed",  "blocks-3d",
          "tiles-32x8x1", "hierarchical",   "kapi-range", "kapi-nd-range"};
}

namespace detail {

// "32x8x1" -> {1, 8, 32} (loop order i, j, k); false if it is not three positive integers.
inline bool parse_shape(const std::string& text, index_type (&ijk)[3]) {
  long long x = 0, y = 0, z = 0;
  char tail = 0;
  if (std::sscanf(text.c_str(), "%lldx%lldx%lld%c", &x, &y, &z, &tail) != 3 || x <= 0 || y <= 0 || z <= 0) return false;
  ijk[0] = z, ijk[1] = y, ijk[2] = x;
  return true;
}

inline bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace detail

/// The policy a name denotes: a default name from policy_names(), or one with its shape
/// written x×y×z (x = the contiguous k loop): "collapsed-64x4x1" (MDRange tile),
/// "blocks-3d-32x4x2" (block) optionally followed by "-grid-8x8x8", "tiles-16x16x1",
/// "kapi-nd-range-32x8x1" (local range). Throws std::invalid_argument otherwise.
inline AnyPolicy parse_policy(const std::string& name) {
  using detail::parse_shape;
  using detail::starts_with;
  if (name == "sequential") return Sequential{};
  if (name == "parallel-outer") return ParallelOuter{};
  if (name == "hierarchical") return Hierarchical{};
  if (name == "kapi-range") return RangeKernel{};
  if (name == "collapsed") return Collapsed{};
  if (name == "kapi-nd-range") return NdRangeKernel{};
  if (name == "blocks-3d") return BlockStride{};
  if (name == "tiles") return Tiles{};
  Collapsed c;
  if (starts_with(name, "collapsed-") && parse_shape(name.substr(10), c.tile)) return c;
  NdRangeKernel nd;
  if (starts_with(name, "kapi-nd-range-") && parse_shape(name.substr(14), nd.local)) return nd;
  Tiles t;
  if (starts_with(name, "tiles-") && parse_shape(name.substr(6), t.tile)) return t;
  BlockStride b;
  if (starts_with(name, "blocks-3d-")) {
    std::string rest = name.substr(10);
    const auto grid_at = rest.find("grid-");
    bool ok = true;
    if (grid_at != std::string::npos) {
      ok = parse_shape(rest.substr(grid_at + 5), b.grid);
      rest = grid_at == 0 ? std::string() : rest.substr(0, grid_at - 1);
      ok = ok && (grid_at == 0 || name[10 + grid_at - 1] == '-');
    }
    if (ok && (rest.empty() || parse_shape(rest, b.block))) return b;
  }
  std::string known;
  for (const auto& n : policy_names()) known += (known.empty() ? "" : ", ") + n;
  throw std::invalid_argument("kapi: unknown loop-nest policy '" + name + "'; choose one of " + known +
                              " (shapes may be given as collapsed-XxYxZ, blocks-3d-XxYxZ[-grid-XxYxZ], tiles-XxYxZ, "
                              "kapi-nd-range-XxYxZ with X along the contiguous k loop)");
}

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
