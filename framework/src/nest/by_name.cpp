// SPDX-License-Identifier: Apache-2.0
// Loop-nest policies by name (kapi/nest/by_name.hpp), compiled once in the runtime.
#include <kapi/nest/by_name.hpp>

#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace kapi::nest {

/// The built-in policies under their default names.
std::vector<std::string> policy_names() {
  return {"sequential",   "parallel-outer", "collapsed",  "blocks-3d",
          "tiles-32x8x1", "hierarchical",   "kapi-range", "kapi-nd-range"};
}

namespace {

// "32x8x1" -> {1, 8, 32} (loop order i, j, k); false if it is not three positive integers.
bool parse_shape(const std::string& text, index_type (&ijk)[3]) {
  long long x = 0, y = 0, z = 0;
  char tail = 0;
  if (std::sscanf(text.c_str(), "%lldx%lldx%lld%c", &x, &y, &z, &tail) != 3 || x <= 0 || y <= 0 || z <= 0) return false;
  ijk[0] = z, ijk[1] = y, ijk[2] = x;
  return true;
}

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace

AnyPolicy parse_policy(const std::string& name) {
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

}  // namespace kapi::nest
