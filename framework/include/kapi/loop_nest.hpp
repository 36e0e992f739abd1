// SPDX-License-Identifier: Apache-2.0
#pragma once
// Loop-nest execution policies (RAJA::kernel's idea on Kokkos): one body run over a
// 3-d index space under a policy that says how the three loops become threads, blocks
// and vector lanes, on any Kokkos backend.
//
//   auto body = KOKKOS_LAMBDA(kapi::nest::index_type i, kapi::nest::index_type j,
//                             kapi::nest::index_type k) { a(i, j, k) = c * i * j * k; };
//   kapi::loop_nest(space, kapi::nest::Tiles{}, kapi::Range<3>(ni, nj, nk), body);
//   kapi::loop_nest(space, "blocks-3d", kapi::Range<3>(ni, nj, nk), body);
//
// Loop order is i (outer), j, k (inner). For a LayoutRight array a(i, j, k) k is the
// contiguous index; every built-in policy gives k to the fastest hardware index
// (consecutive GPU threads or vector lanes, the innermost host loop). The policies:
//
//   name              Kokkos policy                                 parallel over
//   sequential        RangePolicy(0, 1), the nest inside             nothing (one thread)
//   parallel-outer    RangePolicy over i, j and k loops inside       i
//   collapsed         MDRangePolicy<Rank<3, Right, Right>> + tiles   i, j, k
//   blocks-3d         TeamPolicy blocks, block- and thread-stride    i, j, k (grid may be
//                     loops (host: RangePolicy over blocks)          smaller than the space)
//   tiles-32x8x1      TeamPolicy, one block per 32x8x1 tile, one     i, j, k
//                     thread per point (host: RangePolicy over tiles)
//   hierarchical      TeamPolicy over i, TeamThreadRange over j,     i, j, k
//                     ThreadVectorRange over k
//   kapi-range        kapi::call_kernel with Range<3>                i, j, k
//   kapi-nd-range     kapi::call_kernel with NdRange<3>, padded      i, j, k
//
// A policy of your own is any type with
//   template <class ExecSpace, class Body>
//   void run(const ExecSpace&, const kapi::Range<3>&, const Body&) const;
// that calls body(i, j, k) once for every point (and, to be printed, std::string name()).
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

#include <kapi/nest/by_name.hpp>

namespace kapi {

namespace nest {
/// True when Policy can run Body on ExecSpace (has the run member described above).
template <class Policy, class ExecSpace, class Body, class = void>
inline constexpr bool is_policy_v = false;
template <class Policy, class ExecSpace, class Body>
inline constexpr bool
    is_policy_v<Policy, ExecSpace, Body,
                std::void_t<decltype(std::declval<const Policy&>().run(
                    std::declval<const ExecSpace&>(), std::declval<const Range<3>&>(), std::declval<const Body&>()))>> =
        true;
}  // namespace nest

/// Runs body(i, j, k) for every 0 <= i < extents[0], 0 <= j < extents[1],
/// 0 <= k < extents[2] under `policy` (a policy object, a nest::AnyPolicy, or a policy
/// name as nest::parse_policy reads it) on `space`, and returns when it is done.
/// Throws kapi::launch_error if the backend cannot run the policy's shape, and
/// std::invalid_argument for an unknown name.
template <class ExecSpace, class Policy, class Body>
void loop_nest(const ExecSpace& space, const Policy& policy, const Range<3>& extents, const Body& body) {
  static_assert(Kokkos::is_execution_space<ExecSpace>::value,
                "kapi::loop_nest: the first argument is an execution space");
  if constexpr (std::is_convertible_v<const Policy&, std::string>) {
    loop_nest(space, nest::parse_policy(policy), extents, body);
  } else if constexpr (std::is_same_v<Policy, nest::AnyPolicy>) {
    std::visit([&](const auto& p) { loop_nest(space, p, extents, body); }, policy);
  } else {
    static_assert(nest::is_policy_v<Policy, ExecSpace, Body>,
                  "kapi::loop_nest: the policy needs a member run(const ExecSpace&, const kapi::Range<3>&, "
                  "const Body&) const");
    if (extents.size() == 0) return;
    policy.run(space, extents, body);
    space.fence();
  }
}

}  // namespace kapi
