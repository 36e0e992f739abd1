// SPDX-License-Identifier: Apache-2.0
// Sub-groups: every SubGroup query, group_barrier(sub_group), the shuffles and the
// sub-group collectives, for 1-, 2- and 3-d work-groups of 1, 7, 32, 33, 48, 100, 256 and
// 1024 work-items (partial last sub-groups on device backends), against references
// computed here from the launch shape and the space's sub-group size.
#include <kapi/barrier.hpp>
#include <kapi/device_limits.hpp>
#include <kapi/execution_space.hpp>
#include <kapi/functional.hpp>
#include <kapi/group_algorithms.hpp>
#include <kapi/item.hpp>
#include <kapi/launch.hpp>
#include <kapi/local_accessor.hpp>
#include <kapi/range.hpp>
#include <kapi/space_traits.hpp>
#include <kapi/sub_group.hpp>
#include <kapi/sub_group_algorithms.hpp>

#include <gmock/gmock.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <ostream>
#include <string>
#include <type_traits>
#include <vector>

#include "execution_spaces.hpp"
#include "operator_cases.hpp"
#include "value_types.hpp"

namespace {

// The sub-group size each backend documents (sub_group.hpp), written out independently.
template <class Space>
std::size_t expected_sub_group_size() {
#if defined(KOKKOS_ENABLE_CUDA)
  if (std::is_same_v<Space, Kokkos::Cuda>) return 32;
#endif
#if defined(KOKKOS_ENABLE_HIP)
  if (std::is_same_v<Space, Kokkos::Experimental::HIP>) return 64;
#endif
  return 1;
}

template <int N>
struct SubGroupShape {
  std::size_t local[N];
  std::size_t groups[N];  // work-groups per dimension
};

/// Group shapes of 1, 7, 32, 33, 48, 100, 256 and 1024 work-items in N dimensions, two
/// groups along the first dimension (three for the small ones).
template <int N>
std::vector<SubGroupShape<N>> shapes() {
  std::vector<std::vector<std::size_t>> locals;
  if constexpr (N == 1) {
    locals = {{1}, {7}, {32}, {33}, {48}, {100}, {256}, {1024}};
  } else if constexpr (N == 2) {
    locals = {{1, 1}, {1, 7}, {4, 8}, {3, 11}, {6, 8}, {10, 10}, {16, 16}, {32, 32}};
  } else {
    locals = {{1, 1, 1}, {7, 1, 1}, {2, 4, 4}, {3, 11, 1}, {2, 3, 8}, {4, 5, 5}, {4, 8, 8}, {8, 8, 16}};
  }
  std::vector<SubGroupShape<N>> out;
  for (const auto& l : locals) {
    SubGroupShape<N> s;
    std::size_t size = 1;
    for (int d = 0; d < N; ++d) s.local[d] = l[d], s.groups[d] = 1, size *= l[d];
    s.groups[0] = size < 64 ? 3 : 2;
    if (N > 1) s.groups[N - 1] = 2;
    out.push_back(s);
  }
  return out;
}

template <int N>
kapi::NdRange<N> nd_range(const SubGroupShape<N>& s) {
  kapi::NdRange<N> r;
  for (int d = 0; d < N; ++d) r.global.extent[d] = s.local[d] * s.groups[d], r.local.extent[d] = s.local[d];
  return r;
}

template <int N>
std::string describe(const SubGroupShape<N>& s) {
  std::string t = "group (";
  for (int d = 0; d < N; ++d) t += (d ? "," : "") + std::to_string(s.local[d]);
  return t + ")";
}

/// Where a global linear id sits: its group's linear id and its local linear id.
template <int N>
struct Place {
  std::size_t group, local, size;
};
template <int N>
Place<N> place(const kapi::NdRange<N>& r, std::size_t global_linear) {
  std::size_t gid[N], grp[N], lid[N], ng[N];
  kapi::detail::delinearize(global_linear, r.global.extent, gid);
  for (int d = 0; d < N; ++d) {
    ng[d] = r.global.extent[d] / r.local.extent[d];
    grp[d] = gid[d] / r.local.extent[d];
    lid[d] = gid[d] % r.local.extent[d];
  }
  return {kapi::detail::linearize(grp, ng), kapi::detail::linearize(lid, r.local.extent), r.local.size()};
}

template <class Space>
class SubGroup : public ::testing::Test {};
KAPI_TYPED_TEST_SUITE(SubGroup);

// ------------------------------------------------------------------------------ queries

enum QueryField : int {
  q_local_id,
  q_local_linear_id,
  q_local_range,
  q_local_linear_range,
  q_max,
  q_group_id,
  q_group_linear_id,
  q_group_range,
  q_group_linear_range,
  q_leader,
  q_count
};

struct RecordQueries {
  template <int N, class Out>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<N>& it, const Out& out) const {
    const kapi::SubGroup sg = it.get_sub_group();
    const std::size_t g = it.get_global_linear_id();
    out(g, q_local_id) = sg.get_local_id();
    out(g, q_local_linear_id) = sg.get_local_linear_id();
    out(g, q_local_range) = sg.get_local_range();
    out(g, q_local_linear_range) = sg.get_local_linear_range();
    out(g, q_max) = sg.get_max_local_range();
    out(g, q_group_id) = sg.get_group_id();
    out(g, q_group_linear_id) = sg.get_group_linear_id();
    out(g, q_group_range) = sg.get_group_range();
    out(g, q_group_linear_range) = sg.get_group_linear_range();
    out(g, q_leader) = sg.leader() ? 1 : 0;
  }
};

template <class Space, int N>
void check_queries() {
  const std::size_t sub = expected_sub_group_size<Space>();
  EXPECT_EQ(kapi::max_sub_group_size<Space>(), sub);
  for (const auto& s : shapes<N>()) {
    const auto r = nd_range(s);
    if (r.local.size() > kapi::max_work_group_size<Space>()) continue;
    Kokkos::View<std::uint64_t**, Kokkos::LayoutRight, typename Space::memory_space> out("queries", r.global.size(),
                                                                                         q_count);
    kapi::call_kernel(Space(), RecordQueries{}, r, out);
    const auto h = kapi_test::to_host(out);
    for (std::size_t gl = 0; gl < r.global.size(); ++gl) {
      const auto p = place(r, gl);
      // Sub-groups: runs of `sub` consecutive local linear ids, the last one partial.
      const std::size_t id = p.local % sub, sg = p.local / sub, count = (p.size + sub - 1) / sub;
      const std::size_t range = sg + 1 < count ? sub : p.size - sg * sub;
      const std::vector<std::uint64_t> expected = {id, id, range, range, sub, sg, sg, count, count, id == 0 ? 1u : 0u};
      std::vector<std::uint64_t> got(q_count);
      for (int f = 0; f < q_count; ++f) got[f] = h(gl, f);
      ASSERT_EQ(got, expected) << describe(s) << ", work-item " << p.local << " of group " << p.group
                               << " (fields: local id, local linear id, local range, local linear range, max, "
                                  "group id, group linear id, group range, group linear range, leader)";
    }
  }
}

TYPED_TEST(SubGroup, Queries1d) { check_queries<TypeParam, 1>(); }
TYPED_TEST(SubGroup, Queries2d) { check_queries<TypeParam, 2>(); }
TYPED_TEST(SubGroup, Queries3d) { check_queries<TypeParam, 3>(); }

// ----------------------------------------------------------------- sub-group barrier

// Each round: every work-item publishes its value in its slot of local memory, waits at
// the sub-group barrier, takes the next work-item's value of its own sub-group (cyclic),
// waits again. Wrong unless the sub-group barrier orders the sub-group's local memory.
struct RotateInSubGroup {
  int rounds;
  template <int N, class Out>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<N>& it, const Out& out,
                                         const kapi::LocalAccessor<std::uint32_t, 1>& slots) const {
    const kapi::SubGroup sg = it.get_sub_group();
    const std::size_t l = it.get_local_linear_id(), first = l - sg.get_local_id(), n = sg.get_local_range();
    std::uint32_t value = std::uint32_t(l * 7 + it.get_group().get_group_linear_id() * 1000);
    for (int round = 0; round < rounds; ++round) {
      slots[l] = value;
      kapi::group_barrier(sg);
      value = slots[first + (sg.get_local_id() + 1) % n] * 3u + std::uint32_t(round);
      kapi::group_barrier(sg);
    }
    out(it.get_global_linear_id()) = value;
  }
};

template <class Space, int N>
void check_sub_group_barrier() {
  const std::size_t sub = expected_sub_group_size<Space>();
  const int rounds = 5;
  for (const auto& s : shapes<N>()) {
    const auto r = nd_range(s);
    if (r.local.size() > kapi::max_work_group_size<Space>()) continue;
    Kokkos::View<std::uint32_t*, typename Space::memory_space> out("out", r.global.size());
    kapi::call_kernel(Space(), RotateInSubGroup{rounds}, r, out, kapi::LocalAccessor<std::uint32_t, 1>(r.local.size()));
    const auto h = kapi_test::to_host(out);
    // Reference: each sub-group in lockstep.
    std::vector<std::uint32_t> ref(r.global.size());
    for (std::size_t gl = 0; gl < r.global.size(); ++gl) {
      const auto p = place(r, gl);
      const std::size_t first = p.local / sub * sub, n = std::min(sub, p.size - first);
      std::vector<std::uint32_t> v(n), next(n);
      for (std::size_t i = 0; i < n; ++i) v[i] = std::uint32_t((first + i) * 7 + p.group * 1000);
      for (int round = 0; round < rounds; ++round) {
        for (std::size_t i = 0; i < n; ++i) next[i] = v[(i + 1) % n] * 3u + std::uint32_t(round);
        v = next;
      }
      ASSERT_EQ(h(gl), v[p.local - first]) << describe(s) << ", work-item " << p.local << " of group " << p.group;
    }
  }
}

TYPED_TEST(SubGroup, Barrier1d) { check_sub_group_barrier<TypeParam, 1>(); }
TYPED_TEST(SubGroup, Barrier3d) { check_sub_group_barrier<TypeParam, 3>(); }

// ------------------------------------------------------------------- the references

/// Where work-item i (group-major, local linear order) sits in its sub-group.
struct SubPlace {
  std::size_t first;  // index of the sub-group's local id 0
  std::size_t id;     // local id in the sub-group
  std::size_t range;  // work-items in the sub-group
};
SubPlace sub_place(std::size_t i, std::size_t group_size, std::size_t sub) {
  const std::size_t g0 = i / group_size * group_size, l = i - g0, s0 = l / sub * sub;
  return {g0 + s0, l - s0, std::min(sub, group_size - s0)};
}

/// The group-major index of the calling work-item: its inputs and outputs.
template <int N>
KOKKOS_INLINE_FUNCTION std::size_t item_index(const kapi::NdItem<N>& it) {
  return it.get_group().get_group_linear_id() * it.get_local_linear_range() + it.get_local_linear_id();
}

template <int N>
std::vector<kapi::NdRange<N>> ranges_for(std::size_t max_group) {
  std::vector<kapi::NdRange<N>> out;
  for (const auto& s : shapes<N>())
    if (nd_range(s).local.size() <= max_group) out.push_back(nd_range(s));
  return out;
}

// ------------------------------------------------------------------------- shuffles

/// A value wider than a word and not a multiple of one: shuffled as words.
struct Triple {
  std::int32_t a;
  std::int64_t b;
  std::int16_t c;
  bool operator==(const Triple& o) const { return a == o.a && b == o.b && c == o.c; }
};
std::ostream& operator<<(std::ostream& os, const Triple& t) {
  return os << "{" << t.a << "," << t.b << "," << t.c << "}";
}

template <class T>
T shuffle_input(std::size_t i) {
  if constexpr (std::is_same_v<T, Triple>) {
    return Triple{std::int32_t(i * 3 + 1), std::int64_t(i) * 1000003 - 7, std::int16_t(i % 30000)};
  } else if constexpr (std::is_same_v<T, bool>) {
    return (i * 7) % 3 == 1;
  } else {
    return T(i % 1000 + 1) * T(std::is_signed_v<T> && i % 2 ? -1 : 1);
  }
}

enum ShuffleRow {
  select_mixed,
  shift_left_1,
  shift_left_3,
  shift_right_1,
  shift_right_5,
  xor_1,
  xor_6,
  xor_16,
  broadcast_0,
  broadcast_2,
  select_past_end,
  shift_left_past_end,
  shift_right_past_end,
  shuffle_rows
};
const char* shuffle_row_name(int r) {
  static const char* names[] = {"select_from_group((id*5+3) % (max+2))",
                                "shift_group_left(1)",
                                "shift_group_left(3)",
                                "shift_group_right(1)",
                                "shift_group_right(5)",
                                "permute_group_by_xor(1)",
                                "permute_group_by_xor(6)",
                                "permute_group_by_xor(16)",
                                "group_broadcast()",
                                "group_broadcast(2)",
                                "select_from_group(SIZE_MAX)",
                                "shift_group_left(SIZE_MAX)",
                                "shift_group_right(SIZE_MAX)"};
  return names[r];
}

/// The source local id of each row, or `none` when SYCL leaves the result unspecified
/// (kapi: the caller's own value).
constexpr std::size_t none = ~std::size_t(0);
std::size_t shuffle_source(int row, std::size_t id, std::size_t range, std::size_t max) {
  auto in = [&](std::size_t s) { return s < range ? s : none; };
  switch (row) {
    case select_mixed:
      return in((id * 5 + 3) % (max + 2));
    case shift_left_1:
      return in(id + 1);
    case shift_left_3:
      return in(id + 3);
    case shift_right_1:
      return id >= 1 ? id - 1 : none;
    case shift_right_5:
      return id >= 5 ? id - 5 : none;
    case xor_1:
      return in(id ^ 1);
    case xor_6:
      return in(id ^ 6);
    case xor_16:
      return in(id ^ 16);
    case broadcast_0:
      return in(0);
    case broadcast_2:
      return in(2);
    default:
      return none;
  }
}

template <class T, class Space>
struct Shuffles {
  Kokkos::View<T*, typename Space::memory_space> in;
  Kokkos::View<T**, Kokkos::LayoutRight, typename Space::memory_space> out;
  template <int N>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<N>& it) const {
    const kapi::SubGroup sg = it.get_sub_group();
    const std::size_t i = item_index(it), id = sg.get_local_id(), max = sg.get_max_local_range();
    const T x = in(i);
    const std::size_t all = ~std::size_t(0);
    out(select_mixed, i) = kapi::select_from_group(sg, x, (id * 5 + 3) % (max + 2));
    out(shift_left_1, i) = kapi::shift_group_left(sg, x);
    out(shift_left_3, i) = kapi::shift_group_left(sg, x, 3);
    out(shift_right_1, i) = kapi::shift_group_right(sg, x);
    out(shift_right_5, i) = kapi::shift_group_right(sg, x, 5);
    out(xor_1, i) = kapi::permute_group_by_xor(sg, x, 1);
    out(xor_6, i) = kapi::permute_group_by_xor(sg, x, 6);
    out(xor_16, i) = kapi::permute_group_by_xor(sg, x, 16);
    out(broadcast_0, i) = kapi::group_broadcast(sg, x);
    out(broadcast_2, i) = kapi::group_broadcast(sg, x, 2);
    out(select_past_end, i) = kapi::select_from_group(sg, x, all);
    out(shift_left_past_end, i) = kapi::shift_group_left(sg, x, all);
    out(shift_right_past_end, i) = kapi::shift_group_right(sg, x, all);
  }
};

template <class Space, class T, int N>
void check_shuffles() {
  const std::size_t sub = expected_sub_group_size<Space>();
  for (const auto& r : ranges_for<N>(kapi::max_work_group_size<Space>())) {
    const std::size_t n = r.global.size(), size = r.local.size();
    const auto in = std::make_unique<T[]>(n);  // not std::vector: its bool is not a bool
    for (std::size_t i = 0; i < n; ++i) in[i] = shuffle_input<T>(i);
    const auto din = kapi_test::make_view<T, Space>("in", n, [&](std::size_t i) { return in[i]; });
    Kokkos::View<T**, Kokkos::LayoutRight, typename Space::memory_space> out("out", shuffle_rows, n);
    kapi::call_kernel(Space(), Shuffles<T, Space>{din, out}, r);
    const auto h = kapi_test::to_host(out);
    for (int row = 0; row < shuffle_rows; ++row)
      for (std::size_t i = 0; i < n; ++i) {
        const SubPlace p = sub_place(i, size, sub);
        const std::size_t src = shuffle_source(row, p.id, p.range, sub);
        const T expected = src == none ? in[i] : in[p.first + src];
        ASSERT_EQ(h(row, i), expected) << shuffle_row_name(row) << ", group size " << size << ", local id " << p.id
                                       << " of a sub-group of " << p.range << " (" << N << "-d groups)";
      }
  }
}

TYPED_TEST(SubGroup, ShufflesOfEveryValueType) {
  kapi_test::for_each_type<std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, float, double, bool, char,
                           std::int16_t, Triple>([](auto t) {
    using T = typename decltype(t)::type;
    check_shuffles<TypeParam, T, 1>();
  });
}

TYPED_TEST(SubGroup, Shuffles3d) {
  check_shuffles<TypeParam, std::int32_t, 3>();
  check_shuffles<TypeParam, double, 3>();
}

// ----------------------------------------------------------------------------- votes

enum VoteRow { any_row, all_row, none_row, any_pred_row, all_pred_row, none_pred_row, vote_rows };

struct IsNegative {
  KOKKOS_INLINE_FUNCTION bool operator()(int v) const { return v < 0; }
};

template <class Space>
struct Votes {
  Kokkos::View<int*, typename Space::memory_space> in;
  Kokkos::View<int**, Kokkos::LayoutRight, typename Space::memory_space> out;
  template <int N>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<N>& it) const {
    const kapi::SubGroup sg = it.get_sub_group();
    const std::size_t i = item_index(it);
    const int x = in(i);
    out(any_row, i) = kapi::any_of_group(sg, x < 0);
    out(all_row, i) = kapi::all_of_group(sg, x < 0);
    out(none_row, i) = kapi::none_of_group(sg, x < 0);
    out(any_pred_row, i) = kapi::any_of_group(sg, x, IsNegative{});
    out(all_pred_row, i) = kapi::all_of_group(sg, x, IsNegative{});
    out(none_pred_row, i) = kapi::none_of_group(sg, x, IsNegative{});
  }
};

TYPED_TEST(SubGroup, Votes) {
  using Space = TypeParam;
  const std::size_t sub = expected_sub_group_size<Space>();
  for (const auto& r : ranges_for<1>(kapi::max_work_group_size<Space>())) {
    const std::size_t n = r.global.size(), size = r.local.size();
    // Sub-groups with none, some and all negative: the pattern changes every 40 items.
    std::vector<int> in(n);
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t phase = i / 40 % 3;
      in[i] = phase == 0 ? int(i) : phase == 1 ? -int(i) - 1 : (i % 5 == 2 ? -1 : 1);
    }
    auto din = kapi_test::make_view<int, Space>("in", n, [&](std::size_t i) { return in[i]; });
    Kokkos::View<int**, Kokkos::LayoutRight, typename Space::memory_space> out("out", vote_rows, n);
    kapi::call_kernel(Space(), Votes<Space>{din, out}, r);
    const auto h = kapi_test::to_host(out);
    for (std::size_t i = 0; i < n; ++i) {
      const SubPlace p = sub_place(i, size, sub);
      int negatives = 0;
      for (std::size_t k = 0; k < p.range; ++k) negatives += in[p.first + k] < 0;
      const int any = negatives > 0, all = negatives == int(p.range), nothing = negatives == 0;
      const int expected[vote_rows] = {any, all, nothing, any, all, nothing};
      for (int row = 0; row < vote_rows; ++row)
        ASSERT_EQ(h(row, i), expected[row])
            << "vote " << row << ", group size " << size << ", local id " << p.id << " of a sub-group of " << p.range;
    }
  }
}

// ------------------------------------------------------------- reductions and scans

using kapi_test::op_init;
using kapi_test::op_input;
using kapi_test::op_name;
using kapi_test::OpKind;
using kapi_test::ref_apply;
using kapi_test::ref_identity;

enum OpRow {
  reduce_row,
  reduce_init_row,
  inclusive_row,
  inclusive_init_row,
  exclusive_row,
  exclusive_init_row,
  op_rows
};
const char* op_row_name(int r) {
  static const char* names[] = {"reduce", "reduce+init", "inclusive", "inclusive+init", "exclusive", "exclusive+init"};
  return names[r];
}

/// Whole = false: the algorithms over the work-item's sub-group; true: over its work-group
/// (the device path built on the same warp primitives, partial last warps included).
/// One kernel per value type (and Whole): the operator is a run-time value among K..., and
/// each branch calls the algorithms with kapi's functor type, which selects their code
/// path and identity. Kernels that differ only by the operator would each instantiate the
/// whole launch machinery.
template <class T, class Space, bool Whole, OpKind... K>
struct CollectiveOps {
  Kokkos::View<T*, typename Space::memory_space> in;
  Kokkos::View<T**, Kokkos::LayoutRight, typename Space::memory_space> out;
  T init;
  OpKind op_kind;
  template <int N>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<N>& it) const {
    if constexpr (Whole) {
      dispatch(it, it.get_group());
    } else {
      dispatch(it, it.get_sub_group());
    }
  }
  template <int N, class Unit>
  KOKKOS_INLINE_FUNCTION void dispatch(const kapi::NdItem<N>& it, const Unit& unit) const {
    kapi_test::with_kapi_op<K...>(op_kind, [&](auto op) { run(it, unit, op); });
  }
  template <int N, class Unit, class Op>
  KOKKOS_INLINE_FUNCTION void run(const kapi::NdItem<N>& it, const Unit& unit, const Op op) const {
    const std::size_t i = item_index(it);
    const T x = in(i);
    out(reduce_row, i) = kapi::reduce_over_group(unit, x, op);
    out(reduce_init_row, i) = kapi::reduce_over_group(unit, x, init, op);
    out(inclusive_row, i) = kapi::inclusive_scan_over_group(unit, x, op);
    out(inclusive_init_row, i) = kapi::inclusive_scan_over_group(unit, x, op, init);
    out(exclusive_row, i) = kapi::exclusive_scan_over_group(unit, x, op);
    out(exclusive_init_row, i) = kapi::exclusive_scan_over_group(unit, x, init, op);
  }
};

// The kernel's results against the reference. Only the launch depends on the operator's
// type: everything else is compiled once per value type.
template <class T, class View>
void expect_sub_group_ops(OpKind k, bool whole, const T* in, std::size_t size, std::size_t sub, T init,
                          const View& out) {
  const auto h = kapi_test::to_host(out);
  const std::size_t n = h.extent(1);
  for (std::size_t i = 0; i < n; ++i) {
    const SubPlace p = sub_place(i, size, sub);
    T total = in[p.first], below = ref_identity<T>(k), below_init = init;
    for (std::size_t j = 1; j < p.range; ++j) total = ref_apply(k, total, in[p.first + j]);
    for (std::size_t j = 0; j < p.id; ++j) {
      below = ref_apply(k, below, in[p.first + j]);
      below_init = ref_apply(k, below_init, in[p.first + j]);
    }
    const T expected[op_rows] = {
        total,     ref_apply(k, init, total), ref_apply(k, below, in[i]), ref_apply(k, below_init, in[i]), below,
        below_init};
    for (int row = 0; row < op_rows; ++row)
      ASSERT_EQ(h(row, i), expected[row])
          << op_row_name(row) << " with " << op_name(k) << " over a " << (whole ? "work-group" : "sub-group")
          << ", group size " << size << ", local id " << p.id << " of " << p.range;
  }
}

template <class T, class Space>
auto sub_group_inputs(OpKind k, bool whole, std::size_t n) {
  auto in = std::make_unique<T[]>(n);  // not std::vector: its bool is not a bool
  for (std::size_t i = 0; i < n; ++i)
    in[i] = op_input<T>(k, i, whole ? kapi_test::rare_in_work_groups : kapi_test::rare_in_sub_groups);
  auto din = kapi_test::make_view<T, Space>("in", n, [&](std::size_t i) { return in[i]; });
  return std::make_pair(std::move(in), din);
}

/// Operator k with the kernel CollectiveOps<T, Space, Whole, K...>: instantiated per
/// kernel, not per operator.
template <class Space, class T, bool Whole, OpKind... K>
void check_sub_group_ops(OpKind k) {
  for (const auto& r : ranges_for<1>(kapi::max_work_group_size<Space>())) {
    const std::size_t n = r.global.size(), size = r.local.size();
    const std::size_t sub = Whole ? size : expected_sub_group_size<Space>();
    const auto [in, din] = sub_group_inputs<T, Space>(k, Whole, n);
    const T init = op_init<T>(k);
    Kokkos::View<T**, Kokkos::LayoutRight, typename Space::memory_space> out("out", op_rows, n);
    kapi::call_kernel(Space(), CollectiveOps<T, Space, Whole, K...>{din, out, init, k}, r);
    expect_sub_group_ops(k, Whole, in.get(), size, sub, init, out);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

/// Each of K... over sub-groups, in turn, with one kernel.
template <class Space, class T, OpKind... K>
void check_ops() {
  (check_sub_group_ops<Space, T, false, K...>(K), ...);
}

TYPED_TEST(SubGroup, EveryOperatorOnIntegers) {
  kapi_test::for_each_type<std::int32_t, std::uint32_t, std::int64_t, std::uint64_t>([](auto t) {
    using T = typename decltype(t)::type;
    check_ops<TypeParam, T, OpKind::plus, OpKind::multiplies, OpKind::minimum, OpKind::maximum, OpKind::bit_and,
              OpKind::bit_or, OpKind::bit_xor, OpKind::logical_and, OpKind::logical_or>();
  });
}

TYPED_TEST(SubGroup, EveryOperatorOnFloatingPoint) {
  kapi_test::for_each_type<float, double>([](auto t) {
    using T = typename decltype(t)::type;
    check_ops<TypeParam, T, OpKind::plus, OpKind::multiplies, OpKind::minimum, OpKind::maximum, OpKind::logical_and,
              OpKind::logical_or>();
  });
}

TYPED_TEST(SubGroup, SmallIntegersAndBool) {
  check_ops<TypeParam, std::int16_t, OpKind::plus, OpKind::maximum, OpKind::bit_xor>();
  check_ops<TypeParam, bool, OpKind::logical_and, OpKind::logical_or, OpKind::bit_xor>();
}

}  // namespace

namespace {

// The work-group algorithms on groups whose last warp is partial (33, 48, 100 work-items)
// and the others of the sub-group tests' shapes.
TYPED_TEST(SubGroup, WorkGroupCollectivesOverPartialWarps) {
  using S = TypeParam;
  // One work-group kernel per value type: int32's takes its four operators.
  constexpr auto int32_ops =
      check_sub_group_ops<S, std::int32_t, true, OpKind::plus, OpKind::multiplies, OpKind::minimum, OpKind::logical_or>;
  int32_ops(OpKind::plus);
  int32_ops(OpKind::multiplies);
  int32_ops(OpKind::minimum);
  check_sub_group_ops<S, std::uint64_t, true, OpKind::maximum>(OpKind::maximum);
  check_sub_group_ops<S, std::uint32_t, true, OpKind::bit_and>(OpKind::bit_and);
  check_sub_group_ops<S, std::int64_t, true, OpKind::bit_xor>(OpKind::bit_xor);
  int32_ops(OpKind::logical_or);
  check_sub_group_ops<S, double, true, OpKind::plus>(OpKind::plus);
  check_sub_group_ops<S, float, true, OpKind::minimum>(OpKind::minimum);
  check_sub_group_ops<S, std::int16_t, true, OpKind::plus>(OpKind::plus);
}

// Floating-point values whose sums round: every work-item of a sub-group (and of a
// work-group) gets the same bits, within n·eps·sum|x| of the exact sum.
template <class Space>
struct FloatSums {
  Kokkos::View<float*, typename Space::memory_space> in;
  Kokkos::View<float**, Kokkos::LayoutRight, typename Space::memory_space> out;
  template <int N>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<N>& it) const {
    const std::size_t i = item_index(it);
    out(0, i) = kapi::reduce_over_group(it.get_sub_group(), in(i), kapi::plus<>());
    out(1, i) = kapi::reduce_over_group(it.get_group(), in(i), kapi::plus<>());
  }
};

TYPED_TEST(SubGroup, FloatSumsAgreeAcrossTheGroup) {
  using Space = TypeParam;
  const std::size_t sub = expected_sub_group_size<Space>();
  for (const auto& r : ranges_for<1>(kapi::max_work_group_size<Space>())) {
    const std::size_t n = r.global.size(), size = r.local.size();
    std::vector<float> in(n);
    for (std::size_t i = 0; i < n; ++i) in[i] = float((i * 2654435761u) % 1000003u) / 1000003.0f * 2.0f - 0.7f;
    auto din = kapi_test::make_view<float, Space>("in", n, [&](std::size_t i) { return in[i]; });
    Kokkos::View<float**, Kokkos::LayoutRight, typename Space::memory_space> out("out", 2, n);
    kapi::call_kernel(Space(), FloatSums<Space>{din, out}, r);
    const auto h = kapi_test::to_host(out);
    for (int row = 0; row < 2; ++row)
      for (std::size_t i = 0; i < n; ++i) {
        const SubPlace p = sub_place(i, size, row == 0 ? sub : size);
        double exact = 0, magnitude = 0;
        for (std::size_t k = 0; k < p.range; ++k) exact += in[p.first + k], magnitude += std::fabs(in[p.first + k]);
        const double bound = double(p.range) * std::numeric_limits<float>::epsilon() * magnitude;
        const char* what = row == 0 ? "sub-group" : "work-group";
        ASSERT_EQ(h(row, i), h(row, p.first))
            << what << " sum differs between local ids 0 and " << p.id << ", group size " << size;
        ASSERT_LE(std::fabs(double(h(row, i)) - exact), bound) << what << " sum, group size " << size;
      }
  }
}

// Associative operators that do not commute: op(a, b) = a and op(a, b) = b. A reduction
// or scan that swaps operands anywhere gives another work-item's value.
struct First {
  template <class T>
  KOKKOS_INLINE_FUNCTION T operator()(const T& a, const T&) const {
    return a;
  }
};
struct Last {
  template <class T>
  KOKKOS_INLINE_FUNCTION T operator()(const T&, const T& b) const {
    return b;
  }
};

template <class Space>
struct OrderedOps {
  Kokkos::View<std::int64_t*, typename Space::memory_space> in;
  Kokkos::View<std::int64_t**, Kokkos::LayoutRight, typename Space::memory_space> out;
  template <int N>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<N>& it) const {
    const kapi::SubGroup sg = it.get_sub_group();
    const std::size_t i = item_index(it);
    const std::int64_t x = in(i);
    out(0, i) = kapi::reduce_over_group(sg, x, First{});
    out(1, i) = kapi::reduce_over_group(sg, x, Last{});
    out(2, i) = kapi::inclusive_scan_over_group(sg, x, First{});
    out(3, i) = kapi::inclusive_scan_over_group(sg, x, Last{});
    out(4, i) = kapi::reduce_over_group(sg, x, std::int64_t(-1), Last{});
  }
};

TYPED_TEST(SubGroup, OperandsStayInLocalIdOrder) {
  using Space = TypeParam;
  const std::size_t sub = expected_sub_group_size<Space>();
  for (const auto& r : ranges_for<1>(kapi::max_work_group_size<Space>())) {
    const std::size_t n = r.global.size(), size = r.local.size();
    auto in = kapi_test::make_view<std::int64_t, Space>("in", n, [](std::size_t i) { return std::int64_t(i) * 3 + 1; });
    Kokkos::View<std::int64_t**, Kokkos::LayoutRight, typename Space::memory_space> out("out", 5, n);
    kapi::call_kernel(Space(), OrderedOps<Space>{in, out}, r);
    const auto h = kapi_test::to_host(out);
    static const char* names[] = {"reduce(first)", "reduce(last)", "inclusive scan(first)", "inclusive scan(last)",
                                  "reduce(init, last)"};
    for (std::size_t i = 0; i < n; ++i) {
      const SubPlace p = sub_place(i, size, sub);
      const auto value = [](std::size_t k) { return std::int64_t(k) * 3 + 1; };
      const std::int64_t expected[5] = {value(p.first), value(p.first + p.range - 1), value(p.first), value(i),
                                        value(p.first + p.range - 1)};
      for (int row = 0; row < 5; ++row)
        ASSERT_EQ(h(row, i), expected[row])
            << names[row] << ", group size " << size << ", local id " << p.id << " of a sub-group of " << p.range;
    }
  }
}

// kapi::space_traits agrees with the sizes written out above and with
// is_host_execution_space_v; a type kapi was not taught gets the generic team path's
// defaults (no host engine, one work-item per sub-group, the result copied to host memory).
struct UnknownSpace {};
static_assert(!kapi::space_traits<UnknownSpace>::is_host && !kapi::space_traits<UnknownSpace>::is_cuda &&
              !kapi::space_traits<UnknownSpace>::is_hip && kapi::space_traits<UnknownSpace>::sub_group_size == 1);
static_assert(std::is_same_v<kapi::space_traits<UnknownSpace>::reduce_result_space, Kokkos::HostSpace>);
static_assert(!kapi::is_host_execution_space_v<UnknownSpace>);

TYPED_TEST(SubGroup, SpaceTraits) {
  using Space = TypeParam;
  using Traits = kapi::space_traits<Space>;
  EXPECT_EQ(Traits::sub_group_size, expected_sub_group_size<Space>());
  EXPECT_EQ(kapi::space_traits<const Space>::sub_group_size, Traits::sub_group_size);
  EXPECT_EQ(Traits::is_host, kapi::is_host_execution_space_v<Space>);
  EXPECT_EQ(Traits::is_host, kapi::is_host_execution_space_v<const Space>);
  EXPECT_FALSE(Traits::is_cuda && Traits::is_hip);
#if defined(KOKKOS_ENABLE_CUDA)
  EXPECT_EQ(Traits::is_cuda, (std::is_same_v<Space, Kokkos::Cuda>));
#endif
  EXPECT_FALSE(Traits::is_host && (Traits::is_cuda || Traits::is_hip));
}

// KAPI_IF_ON_DEVICE / KAPI_IF_ON_HOST pick the pass a kernel runs in, as
// KAPI_COMPILING_DEVICE_CODE says.
template <class Space>
struct WhichPass {
  Kokkos::View<int*, typename Space::memory_space> out;
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::Item<1>& it) const {
    int pass = 0;
    KAPI_IF_ON_DEVICE((pass += 1;))
    KAPI_IF_ON_HOST((pass += 2;))
    out(it.get_linear_id()) = pass == (KAPI_COMPILING_DEVICE_CODE ? 1 : 2) ? pass : -pass;
  }
};

TYPED_TEST(SubGroup, IfOnDeviceOrHost) {
  using Space = TypeParam;
  const std::size_t n = 37;
  Kokkos::View<int*, typename Space::memory_space> out("out", n);
  kapi::call_kernel(Space(), WhichPass<Space>{out}, kapi::Range<1>(n));
  const auto h = kapi_test::to_host(out);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(h(i), kapi::is_host_execution_space_v<Space> ? 2 : 1) << "item " << i;
}

}  // namespace
