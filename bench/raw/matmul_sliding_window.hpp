// SPDX-License-Identifier: Apache-2.0
#pragma once
// The raw-Kokkos twin of the sliding-window matmul (apps/matmul/.../sliding_window.hpp):
// the same algorithm written directly on Kokkos, without the kapi layer, so the
// framework variants can be measured against it ("what do the adapters cost").
//
// One Kokkos team per tile×tile block of C; the block slides a tile-wide window along
// A's rows and down B's columns, staging both tiles in team scratch between two barriers.
//   device (CUDA, ...): tile·tile team members, one per element of the block, the
//                       accumulator in a register: exactly the flat kernel
//                       (sliding-window-t16).
//   host:               one-member teams (Kokkos host teams cannot hold a 256-item
//                       group) and the group's work as phases over its tile×tile items
//                       (TeamThreadRange over rows × ThreadVectorRange over columns), the
//                       accumulators in an array: the phased form (kapi's WorkGroup
//                       kernels, matmul::SlidingWindowPhased), item for item.
#include <Kokkos_Core.hpp>
#include <kapi/execution_space.hpp>
#include <kapi/integer_math.hpp>
#include <cstdint>
#include <string>
#include <type_traits>

namespace matmul_bench {

// The tile is a run-time value, as the flat kernel's work-group size is (SYCL's local
// range): the compiler knows as much about the loops as it does in the kapi kernels.
template <class Space, class T>
struct RawSlidingWindow {
  using Matrix = Kokkos::View<T**, Kokkos::LayoutRight, typename Space::memory_space>;
  using ConstMatrix = Kokkos::View<const T**, Kokkos::LayoutRight, typename Space::memory_space>;
  using Member = typename Kokkos::TeamPolicy<Space>::member_type;
  static constexpr bool host = kapi::is_host_execution_space_v<Space>;

  static constexpr int max_items = 1024;  // host: accumulators on the stack, as kapi's PerWorkItem

  ConstMatrix a, b;
  Matrix c;
  std::int64_t groups_n;
  int tile;

  static std::size_t scratch_bytes(int t) { return 2 * std::size_t(t) * std::size_t(t) * sizeof(T); }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const std::int64_t g = team.league_rank();
    const int t = tile;
    const std::int64_t i0 = (g / groups_n) * t, j0 = (g % groups_n) * t;
    const std::int64_t m = c.extent(0), n = c.extent(1), kn = a.extent(1);
    T* a_tile = static_cast<T*>(team.team_shmem().get_shmem(t * t * sizeof(T)));
    T* b_tile = static_cast<T*>(team.team_shmem().get_shmem(t * t * sizeof(T)));
    if constexpr (host) {
      // Phases over the block's items: rows by TeamThreadRange, columns by ThreadVectorRange.
      T acc[max_items];
      for (int l = 0; l < t * t; ++l) acc[l] = T(0);
      for (std::int64_t k0 = 0; k0 < kn; k0 += t) {
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, t), [&](const int li) {
          Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, t), [&](const int lj) {
            const std::int64_t i = i0 + li, j = j0 + lj;
            a_tile[li * t + lj] = (i < m && k0 + lj < kn) ? a(i, k0 + lj) : T(0);
            b_tile[li * t + lj] = (k0 + li < kn && j < n) ? b(k0 + li, j) : T(0);
          });
        });
        team.team_barrier();
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, t), [&](const int li) {
          Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, t), [&](const int lj) {
            T s = acc[li * t + lj];
            for (int k = 0; k < t; ++k) s += a_tile[li * t + k] * b_tile[k * t + lj];
            acc[li * t + lj] = s;
          });
        });
        team.team_barrier();
      }
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, t), [&](const int li) {
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, t), [&](const int lj) {
          const std::int64_t i = i0 + li, j = j0 + lj;
          if (i < m && j < n) c(i, j) = acc[li * t + lj];
        });
      });
    } else {
      const int l = team.team_rank(), li = l / t, lj = l % t;
      const std::int64_t i = i0 + li, j = j0 + lj;
      T acc = 0;
      for (std::int64_t k0 = 0; k0 < kn; k0 += t) {
        a_tile[l] = (i < m && k0 + lj < kn) ? a(i, k0 + lj) : T(0);
        b_tile[l] = (k0 + li < kn && j < n) ? b(k0 + li, j) : T(0);
        team.team_barrier();
        for (int k = 0; k < t; ++k) acc += a_tile[li * t + k] * b_tile[k * t + lj];
        team.team_barrier();
      }
      if (i < m && j < n) c(i, j) = acc;
    }
  }
};

/// C = A·B with the raw twin on `space`, tile×tile blocks (tile <= 32); returns when done.
template <class T, class Space, class Matrix>
void raw_sliding_window(const Space& space, const Matrix& a, const Matrix& b, const Matrix& c, int tile) {
  using Functor = RawSlidingWindow<Space, T>;
  const std::int64_t gm = kapi::ceil_div(std::int64_t(c.extent(0)), std::int64_t(tile)),
                     gn = kapi::ceil_div(std::int64_t(c.extent(1)), std::int64_t(tile));
  const int team = Functor::host ? 1 : tile * tile;
  Kokkos::TeamPolicy<Space> policy(space, static_cast<int>(gm * gn), team);
  policy.set_scratch_size(0, Kokkos::PerTeam(static_cast<std::ptrdiff_t>(Functor::scratch_bytes(tile))));
  Kokkos::parallel_for("bench::raw_sliding_window", policy, Functor{a, b, c, gn, tile});
  space.fence();
}

inline std::string raw_description() {
  return "Kokkos::TeamPolicy, one team per 16x16 block of C (tile size a run-time value, as in the kapi kernels), A "
         "and B tiles in team scratch, two team_barriers "
         "per step; device: 256 members, one per element; host: 1-member teams, the block's 16x16 items as "
         "TeamThreadRange x ThreadVectorRange phases";
}

}  // namespace matmul_bench
