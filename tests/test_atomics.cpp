// SPDX-License-Identifier: Apache-2.0
// AtomicRef and atomic_fence: every operation on every value type under contention
// (many work-items, few addresses), from range kernels, barrier-free work-groups and
// work-groups with barriers (host contexts on host backends), on global and local
// memory, against host references.
#include <kapi/atomic_ref.hpp>
#include <kapi/barrier.hpp>
#include <kapi/item.hpp>
#include <kapi/launch.hpp>
#include <kapi/local_accessor.hpp>
#include <kapi/memory_model.hpp>
#include <kapi/range.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "execution_spaces.hpp"
#include "value_types.hpp"

namespace {

using kapi::AddressSpace;
using kapi::AtomicRef;
using kapi::MemoryOrder;
using kapi::MemoryScope;

template <class T, class Space>
using Vec = Kokkos::View<T*, typename Space::memory_space>;

// Work-item i's value: spread over T's range and exact in float.
template <class T>
KOKKOS_INLINE_FUNCTION T value_of(std::size_t i) {
  const std::int64_t h = std::int64_t((i * 2654435761u) % 1000003u);
  if constexpr (std::is_signed_v<T>) {
    return T(h - 500001);
  } else {
    return T(h + 1);  // never 0, the initial value of fetch_max's cell
  }
}

template <class T, class Space>
Vec<T, Space> filled(const char* label, std::size_t n, T value) {
  return kapi_test::make_view<T, Space>(label, n, [value](std::size_t) { return value; });
}

// The launches every contention test runs: a Range, and nd-ranges of each group size
// with and without barriers (with them, host backends run the group as contexts).
struct Launch {
  std::size_t local;  // 0: a Range launch
  bool barriers;
};

template <class Space>
std::vector<Launch> launches() {
  std::vector<Launch> l{{0, false}};
  for (std::size_t s : kapi_test::group_sizes<Space>()) {
    l.push_back({s, false});
    l.push_back({s, true});
  }
  return l;
}

inline std::size_t items_for(const Launch& l) {
  if (l.local == 0) return 4096;
  const std::size_t groups = std::max<std::size_t>(4, 4096 / l.local);
  return groups * l.local;
}

template <class Space, class Kernel>
void run(const Launch& l, std::size_t n, const Kernel& kernel) {
  if (l.local == 0)
    kapi::call_kernel(Space(), kernel, kapi::Range<1>(n));
  else
    kapi::call_kernel(Space(), kernel, kapi::NdRange<1>({n}, {l.local}));
}

std::string describe(const Launch& l) {
  return l.local == 0 ? std::string("range")
                      : "groups of " + std::to_string(l.local) + (l.barriers ? " with barriers" : "");
}

// A functor body run by every work-item of a Range or NdRange launch.
template <class Body>
struct PerItem {
  Body body;
  bool barriers;
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::Item<1>& it) const { body(it.get_linear_id()); }
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it) const {
    if (barriers) kapi::group_barrier(it.get_group());
    body(it.get_global_linear_id());
    if (barriers) kapi::group_barrier(it.get_group());
  }
};

// The contention tests' kernel: one per value type, running one of their cases (below).
template <class T, class Space>
struct Contended;
template <class T, class Space, class Body>
PerItem<Contended<T, Space>> contended(const Body& body, bool barriers);

// ----------------------------------------------------------------- add, sub, counters

template <class T, class Space>
struct AddSub {
  Vec<T, Space> bins, counter, add_olds, sub_olds;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t g) const {
    const std::size_t bin = g % bins.extent(0);
    AtomicRef<T>(bins(bin)).fetch_add(T(1));
    add_olds(g) = AtomicRef<T>(counter(0)).fetch_add(T(1));
    sub_olds(g) = AtomicRef<T>(counter(1)).fetch_sub(T(1));
    AtomicRef<T>(bins, bin) += T(2);  // numba-dpex's AtomicRef(array, index)
  }
};

template <class Space, class T>
void check_add_sub(const Launch& l) {
  const std::size_t n = items_for(l), nbins = 7;
  auto bins = filled<T, Space>("bins", nbins, T(0));
  auto counter = kapi_test::make_view<T, Space>("counter", 2, [n](std::size_t i) { return i == 0 ? T(0) : T(n); });
  Vec<T, Space> add_olds("add_olds", n), sub_olds("sub_olds", n);
  run<Space>(l, n, contended<T, Space>(AddSub<T, Space>{bins, counter, add_olds, sub_olds}, l.barriers));
  auto hb = kapi_test::to_host(bins);
  auto hc = kapi_test::to_host(counter);
  const auto what = describe(l) + ", " + kapi_test::type_name<T>();
  for (std::size_t b = 0; b < nbins; ++b) {
    const std::size_t hits = n / nbins + (b < n % nbins ? 1 : 0);
    ASSERT_EQ(hb(b), T(3 * hits)) << "bin " << b << ", " << what;
  }
  EXPECT_EQ(hc(0), T(n)) << what;
  EXPECT_EQ(hc(1), T(0)) << what;
  // Each old value is seen by exactly one work-item.
  auto ha = kapi_test::to_host(add_olds), hs = kapi_test::to_host(sub_olds);
  std::vector<T> a(ha.data(), ha.data() + n), s(hs.data(), hs.data() + n);
  std::sort(a.begin(), a.end());
  std::sort(s.begin(), s.end());
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(a[i], T(i)) << "fetch_add old values, " << what;
    ASSERT_EQ(s[i], T(i + 1)) << "fetch_sub old values, " << what;
  }
}

// ----------------------------------------------------------------------- min and max

template <class T, class Space>
struct MinMax {
  Vec<T, Space> extremes, min_olds, max_olds;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t g) const {
    min_olds(g) = AtomicRef<T>(extremes(0)).fetch_min(value_of<T>(g));
    max_olds(g) = AtomicRef<T>(extremes(1)).fetch_max(value_of<T>(g));
  }
};

template <class Space, class T>
void check_min_max(const Launch& l) {
  const std::size_t n = items_for(l);
  auto extremes = kapi_test::make_view<T, Space>(
      "extremes", 2, [](std::size_t i) { return i == 0 ? kapi::detail::highest<T>() : kapi::detail::lowest<T>(); });
  Vec<T, Space> min_olds("min_olds", n), max_olds("max_olds", n);
  run<Space>(l, n, contended<T, Space>(MinMax<T, Space>{extremes, min_olds, max_olds}, l.barriers));
  T lo = value_of<T>(0), hi = value_of<T>(0);
  for (std::size_t g = 1; g < n; ++g) lo = std::min(lo, value_of<T>(g)), hi = std::max(hi, value_of<T>(g));
  auto he = kapi_test::to_host(extremes);
  const auto what = describe(l) + ", " + kapi_test::type_name<T>();
  EXPECT_EQ(he(0), lo) << what;
  EXPECT_EQ(he(1), hi) << what;
  auto hmin = kapi_test::to_host(min_olds), hmax = kapi_test::to_host(max_olds);
  std::size_t saw_initial_min = 0, saw_initial_max = 0;
  for (std::size_t g = 0; g < n; ++g) {
    ASSERT_GE(hmin(g), lo) << what;  // an old value is a running minimum: never below the final one
    ASSERT_LE(hmax(g), hi) << what;
    saw_initial_min += hmin(g) == kapi::detail::highest<T>();
    saw_initial_max += hmax(g) == kapi::detail::lowest<T>();
  }
  EXPECT_EQ(saw_initial_min, 1u) << "exactly one work-item sees the initial value, " << what;
  EXPECT_EQ(saw_initial_max, 1u) << what;
}

// ------------------------------------------- floating-point min and max: NaN and ±0

// kapi's rule (atomic_ref.hpp, as SYCL's DPC++ and numba): fetch_min stores the operand
// only when operand < stored, fetch_max only when operand > stored; both return the
// stored value as it was. Compared as bits: which NaN, which zero.
template <class T>
using Bits = kapi::detail::bits_t<T>;

// std::numeric_limits' quiet NaN, made in device code too.
template <class T>
KOKKOS_INLINE_FUNCTION T quiet_nan() {
  if constexpr (sizeof(T) == 4) {
    return kapi::detail::bit_cast<T>(std::uint32_t(0x7fc00000u));
  } else {
    return kapi::detail::bit_cast<T>(std::uint64_t(0x7ff8000000000000ull));
  }
}

template <class T>
Bits<T> bits(T x) {
  Bits<T> b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

template <class T, class Space>
struct MinMaxCases {
  Vec<T, Space> cells, operands, olds;
  Vec<int, Space> is_min;
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::Item<1>& it) const {
    const std::size_t c = it.get_linear_id();
    AtomicRef<T> r(cells(c));
    olds(c) = is_min(c) ? r.fetch_min(operands(c)) : r.fetch_max(operands(c));
  }
};

template <class Space, class T>
void check_min_max_special_values() {
  const T nan = std::numeric_limits<T>::quiet_NaN(), other_nan = -nan, inf = std::numeric_limits<T>::infinity();
  ASSERT_EQ(bits(nan), bits(quiet_nan<T>()));
  ASSERT_NE(bits(nan), bits(other_nan));
  struct Case {
    T stored, operand;
    bool min;
    T after;  // what the cell must hold
  };
  const std::vector<Case> cases = {
      {T(5), nan, true, T(5)},      {T(5), nan, false, T(5)},            // a NaN operand is never stored
      {nan, T(3), true, nan},       {nan, T(3), false, nan},             // a stored NaN stays
      {nan, other_nan, true, nan},  {other_nan, nan, false, other_nan},  // ... the same NaN
      {-inf, nan, true, -inf},      {nan, -inf, true, nan},
      {nan, inf, false, nan},       {T(0), -T(0), true, T(0)},
      {-T(0), T(0), true, -T(0)},  // equal zeros: the stored one stays
      {T(0), -T(0), false, T(0)},   {-T(0), T(0), false, -T(0)},
      {T(5), T(2), true, T(2)},     {T(5), T(2), false, T(5)},  // and numbers as usual
      {T(2), T(5), true, T(2)},     {T(2), T(5), false, T(5)},
      {inf, -inf, true, -inf},      {-inf, inf, false, inf},
      {T(-1), -T(0), false, -T(0)},
  };
  const std::size_t n = cases.size();
  auto cells = kapi_test::make_view<T, Space>("cells", n, [&](std::size_t c) { return cases[c].stored; });
  auto operands = kapi_test::make_view<T, Space>("operands", n, [&](std::size_t c) { return cases[c].operand; });
  auto is_min = kapi_test::make_view<int, Space>("is_min", n, [&](std::size_t c) { return int(cases[c].min); });
  Vec<T, Space> olds("olds", n);
  kapi::call_kernel(Space(), MinMaxCases<T, Space>{cells, operands, olds, is_min}, kapi::Range<1>(n));
  auto hc = kapi_test::to_host(cells);
  auto ho = kapi_test::to_host(olds);
  for (std::size_t c = 0; c < n; ++c) {
    const Case& k = cases[c];
    const std::string what = std::string(k.min ? "fetch_min(" : "fetch_max(") + std::to_string(k.operand) + ") on " +
                             std::to_string(k.stored) + ", " + kapi_test::type_name<T>();
    EXPECT_EQ(bits(ho(c)), bits(k.stored)) << what << " returned " << ho(c) << ", not the old value";
    EXPECT_EQ(bits(hc(c)), bits(k.after)) << what << " left " << hc(c) << ", expected " << k.after;
  }
}

// Under contention, every third work-item's operand NaN: the NaNs are ignored, so the
// cells end at the extremes of the numbers and every old value is a number; a cell
// that starts NaN stays NaN and returns it to every work-item.
template <class T, class Space>
struct MinMaxWithNaN {
  Vec<T, Space> cells, min_olds, max_olds, nan_olds;
  KOKKOS_INLINE_FUNCTION static T operand(std::size_t g) { return g % 3 == 0 ? quiet_nan<T>() : value_of<T>(g); }
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t g) const {
    min_olds(g) = AtomicRef<T>(cells(0)).fetch_min(operand(g));
    max_olds(g) = AtomicRef<T>(cells(1)).fetch_max(operand(g));
    nan_olds(g) = g % 2 ? AtomicRef<T>(cells(2)).fetch_min(operand(g)) : AtomicRef<T>(cells(2)).fetch_max(operand(g));
  }
};

template <class Space, class T>
void check_min_max_with_nan(const Launch& l) {
  const std::size_t n = items_for(l);
  const T inf = std::numeric_limits<T>::infinity();
  auto cells = kapi_test::make_view<T, Space>("cells", 3, [inf](std::size_t i) {
    return i == 0 ? inf : i == 1 ? -inf : std::numeric_limits<T>::quiet_NaN();
  });
  Vec<T, Space> min_olds("min_olds", n), max_olds("max_olds", n), nan_olds("nan_olds", n);
  run<Space>(l, n, contended<T, Space>(MinMaxWithNaN<T, Space>{cells, min_olds, max_olds, nan_olds}, l.barriers));
  T lo = inf, hi = -inf;
  for (std::size_t g = 1; g < n; ++g)
    if (g % 3) lo = std::min(lo, value_of<T>(g)), hi = std::max(hi, value_of<T>(g));
  auto hc = kapi_test::to_host(cells);
  const auto what = describe(l) + ", " + kapi_test::type_name<T>();
  EXPECT_EQ(hc(0), lo) << what;
  EXPECT_EQ(hc(1), hi) << what;
  EXPECT_TRUE(std::isnan(hc(2))) << what;
  auto hmin = kapi_test::to_host(min_olds), hmax = kapi_test::to_host(max_olds), hnan = kapi_test::to_host(nan_olds);
  for (std::size_t g = 0; g < n; ++g) {
    ASSERT_GE(hmin(g), lo) << "work-item " << g << " got " << hmin(g) << ", " << what;  // false for NaN too
    ASSERT_LE(hmax(g), hi) << "work-item " << g << " got " << hmax(g) << ", " << what;
    ASSERT_TRUE(std::isnan(hnan(g))) << "work-item " << g << " got " << hnan(g) << ", " << what;
  }
}

// ----------------------------------------------------------- bitwise (integers only)

template <class T, class Space>
struct Bitwise {
  Vec<T, Space> words;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t g) const {
    const T bit = T(std::make_unsigned_t<T>(1) << (g % (8 * sizeof(T))));
    AtomicRef<T>(words(0)).fetch_or(bit);
    AtomicRef<T>(words(1)).fetch_and(T(~bit));
    AtomicRef<T>(words(2)).fetch_xor(value_of<T>(g));
    AtomicRef<T>(words(3)) |= bit;
    AtomicRef<T>(words(4)) &= T(~bit);
    AtomicRef<T>(words(5)) ^= value_of<T>(g);
  }
};

template <class Space, class T>
void check_bitwise(const Launch& l) {
  const std::size_t n = items_for(l);
  auto words = kapi_test::make_view<T, Space>("words", 6, [](std::size_t i) { return i % 3 == 1 ? T(~T(0)) : T(0); });
  run<Space>(l, n, contended<T, Space>(Bitwise<T, Space>{words}, l.barriers));
  T x = 0;
  for (std::size_t g = 0; g < n; ++g) x ^= value_of<T>(g);
  auto h = kapi_test::to_host(words);
  const auto what = describe(l) + ", " + kapi_test::type_name<T>();
  for (int k : {0, 3}) EXPECT_EQ(h(k), T(~T(0))) << "or, " << what;
  for (int k : {1, 4}) EXPECT_EQ(h(k), T(0)) << "and, " << what;
  for (int k : {2, 5}) EXPECT_EQ(h(k), x) << "xor, " << what;
}

// Bitwise operations do not exist for floating point (rejected at compile time).
template <class R, class = void>
struct has_fetch_and : std::false_type {};
template <class R>
struct has_fetch_and<R, std::void_t<decltype(std::declval<const R&>().fetch_and(typename R::value_type()))>>
    : std::true_type {};
static_assert(has_fetch_and<AtomicRef<std::int32_t>>::value && has_fetch_and<AtomicRef<std::uint64_t>>::value);
static_assert(!has_fetch_and<AtomicRef<float>>::value && !has_fetch_and<AtomicRef<double>>::value);

// ------------------------------------------------------------ exchange and CAS loops

template <class T, class Space>
struct ExchangeAndCas {
  Vec<T, Space> cells, exchange_olds, cas_olds;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t g) const {
    exchange_olds(g) = AtomicRef<T>(cells(0)).exchange(T(g + 1));
    // Increment cells(1) by compare-exchange; each success claims one value.
    AtomicRef<T> counter(cells(1));
    T expected = counter.load();
    if (g % 2 == 0) {
      while (!counter.compare_exchange_strong(expected, T(expected + T(1)))) {
      }
    } else {
      while (!counter.compare_exchange_weak(expected, T(expected + T(1)))) {
      }
    }
    cas_olds(g) = expected;
  }
};

template <class Space, class T>
void check_exchange_cas(const Launch& l) {
  const std::size_t n = items_for(l);
  auto cells = kapi_test::make_view<T, Space>("cells", 2, [n](std::size_t i) { return i == 0 ? T(n + 1) : T(0); });
  Vec<T, Space> exchange_olds("exchange_olds", n), cas_olds("cas_olds", n);
  run<Space>(l, n, contended<T, Space>(ExchangeAndCas<T, Space>{cells, exchange_olds, cas_olds}, l.barriers));
  auto hc = kapi_test::to_host(cells);
  auto he = kapi_test::to_host(exchange_olds), hcas = kapi_test::to_host(cas_olds);
  const auto what = describe(l) + ", " + kapi_test::type_name<T>();
  // exchange: the old values and the final value are the initial value and every work-item's.
  std::vector<T> seen(he.data(), he.data() + n);
  seen.push_back(hc(0));
  std::sort(seen.begin(), seen.end());
  for (std::size_t i = 0; i <= n; ++i) ASSERT_EQ(seen[i], T(i + 1)) << "exchange, " << what;
  EXPECT_EQ(hc(1), T(n)) << "compare_exchange counter, " << what;
  std::vector<T> claimed(hcas.data(), hcas.data() + n);
  std::sort(claimed.begin(), claimed.end());
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(claimed[i], T(i)) << "compare_exchange, " << what;
}

// One work-item: the exact semantics of compare_exchange, load/store, the operators.
template <class T, class Space>
struct SingleSemantics {
  Vec<T, Space> cell;
  Vec<int, Space> ok;
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::Item<1>&) const {
    AtomicRef<T, MemoryOrder::seq_cst> r(cell(0));
    int k = 0;
    r.store(T(5));
    ok(k++) = r.load() == T(5);
    T expected = T(4);
    ok(k++) = !r.compare_exchange_strong(expected, T(9));  // fails ...
    ok(k++) = expected == T(5);                            // ... and reports the value
    ok(k++) = r.load() == T(5);
    ok(k++) = r.compare_exchange(expected, T(9));  // numba-dpex's name
    ok(k++) = T(r) == T(9);
    ok(k++) = r.exchange(T(3)) == T(9);
    ok(k++) = (r += T(4)) == T(7);
    ok(k++) = (r -= T(2)) == T(5);
    ok(k++) = r.fetch_min(T(2)) == T(5) && r.load() == T(2);
    ok(k++) = r.fetch_max(T(8)) == T(2) && r.load() == T(8);
    if constexpr (std::is_floating_point_v<T>) {
      // Bitwise comparison: -0.0 does not match a stored +0.0.
      r.store(T(0));
      T negative_zero = -T(0);
      ok(k++) = !r.compare_exchange_strong(negative_zero, T(1)) && r.load() == T(0);
    } else {
      r.store(T(6));
      ok(k++) = ++r == T(7) && r++ == T(7) && --r == T(7) && r-- == T(7) && r.load() == T(6);
    }
    ok(k++) = r.is_lock_free();
    ok(k) = -1;  // end marker
  }
};

template <class Space, class T>
void check_single_semantics() {
  Vec<T, Space> cell("cell", 1);
  Vec<int, Space> ok("ok", 32);
  kapi::call_kernel(Space(), SingleSemantics<T, Space>{cell, ok}, kapi::Range<1>(1));
  auto h = kapi_test::to_host(ok);
  for (int k = 0; k < 32 && h(k) != -1; ++k) EXPECT_EQ(h(k), 1) << "check " << k << ", " << kapi_test::type_name<T>();
}

// ---------------------------------------------------------------- orders and fences

template <class T, class Space>
struct Ordered {
  Vec<T, Space> counter;
  MemoryOrder order;  // an argument of fetch_add and atomic_fence, as in SYCL
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t) const {
    AtomicRef<T, MemoryOrder::relaxed> r(counter(0));
    r.fetch_add(T(1), order);
    kapi::atomic_fence(order, MemoryScope::work_group);
    AtomicRef<T, MemoryOrder::acq_rel, MemoryScope::system>(counter(1)).fetch_add(T(1));
    kapi::atomic_fence(order, MemoryScope::device);
    AtomicRef<T, MemoryOrder::seq_cst, MemoryScope::work_item>(counter(2)).fetch_sub(T(1));
  }
};

template <class Space, class T, MemoryOrder Order>
void check_order(const Launch& l) {
  const std::size_t n = items_for(l);
  auto counter = kapi_test::make_view<T, Space>("counter", 3, [n](std::size_t i) { return i == 2 ? T(n) : T(0); });
  run<Space>(l, n, contended<T, Space>(Ordered<T, Space>{counter, Order}, l.barriers));
  auto h = kapi_test::to_host(counter);
  EXPECT_EQ(h(0), T(n)) << describe(l);
  EXPECT_EQ(h(1), T(n)) << describe(l);
  EXPECT_EQ(h(2), T(0)) << describe(l);
}

// ------------------------------------------------------------ one kernel per type

// The contention cases above as one kernel per value type: which case runs is a run-time
// value (the same in every work-item), and each branch runs that case's body as it is.
// A kernel per case would instantiate the whole launch machinery (for a Range and an
// nd-range launch) for each.
template <class T, class Space>
struct Contended {
  enum Which { add_sub, min_max, min_max_with_nan, bitwise, exchange_cas, ordered } which;
  AddSub<T, Space> add_sub_case;
  MinMax<T, Space> min_max_case;
  MinMaxWithNaN<T, Space> min_max_with_nan_case;
  Bitwise<T, Space> bitwise_case;
  ExchangeAndCas<T, Space> exchange_cas_case;
  Ordered<T, Space> ordered_case;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t g) const {
    switch (which) {
      case add_sub:
        add_sub_case(g);
        break;
      case min_max:
        min_max_case(g);
        break;
      case min_max_with_nan:
        if constexpr (std::is_floating_point_v<T>) min_max_with_nan_case(g);
        break;
      case bitwise:
        if constexpr (std::is_integral_v<T>) bitwise_case(g);
        break;
      case exchange_cas:
        exchange_cas_case(g);
        break;
      case ordered:
        ordered_case(g);
        break;
    }
  }
};

/// The kernel that runs `body` (one of Contended's cases) on every work-item.
template <class T, class Space, class Body>
PerItem<Contended<T, Space>> contended(const Body& body, bool barriers) {
  PerItem<Contended<T, Space>> kernel{{}, barriers};
  Contended<T, Space>& c = kernel.body;
  if constexpr (std::is_same_v<Body, AddSub<T, Space>>) {
    c.which = c.add_sub, c.add_sub_case = body;
  } else if constexpr (std::is_same_v<Body, MinMax<T, Space>>) {
    c.which = c.min_max, c.min_max_case = body;
  } else if constexpr (std::is_same_v<Body, MinMaxWithNaN<T, Space>>) {
    c.which = c.min_max_with_nan, c.min_max_with_nan_case = body;
  } else if constexpr (std::is_same_v<Body, Bitwise<T, Space>>) {
    c.which = c.bitwise, c.bitwise_case = body;
  } else if constexpr (std::is_same_v<Body, ExchangeAndCas<T, Space>>) {
    c.which = c.exchange_cas, c.exchange_cas_case = body;
  } else {
    static_assert(std::is_same_v<Body, Ordered<T, Space>>);
    c.which = c.ordered, c.ordered_case = body;
  }
  return kernel;
}

// ------------------------------------------------------ local memory and load/store

// A histogram per group in local memory (work-group scoped atomics), flushed into the
// global histogram with device-scoped ones.
template <class T, class Space>
struct LocalHistogram {
  Vec<T, Space> hist;
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it, const kapi::LocalAccessor<T, 1>& local) const {
    const std::size_t l = it.get_local_id(0), size = it.get_local_range(0), bins = local.size();
    for (std::size_t b = l; b < bins; b += size) local[b] = T(0);
    kapi::group_barrier(it.get_group());
    using LocalRef = AtomicRef<T, MemoryOrder::relaxed, MemoryScope::work_group, AddressSpace::local>;
    LocalRef(local[(it.get_global_id(0) * 7) % bins]).fetch_add(T(1));
    LocalRef(local, (it.get_global_id(0) * 3) % bins) += T(1);
    kapi::group_barrier(it.get_group());
    for (std::size_t b = l; b < bins; b += size) AtomicRef<T>(hist(b)).fetch_add(local[b]);
  }
};

template <class Space, class T>
void check_local_histogram(std::size_t local_size) {
  const std::size_t groups = std::max<std::size_t>(3, 2048 / local_size), n = groups * local_size, bins = 13;
  auto hist = filled<T, Space>("hist", bins, T(0));
  kapi::call_kernel(Space(), LocalHistogram<T, Space>{hist}, kapi::NdRange<1>({n}, {local_size}),
                    kapi::LocalAccessor<T, 1>(bins));
  std::vector<std::size_t> ref(bins, 0);
  for (std::size_t g = 0; g < n; ++g) ++ref[(g * 7) % bins], ++ref[(g * 3) % bins];
  auto h = kapi_test::to_host(hist);
  for (std::size_t b = 0; b < bins; ++b)
    ASSERT_EQ(h(b), T(ref[b])) << "bin " << b << ", group size " << local_size << ", " << kapi_test::type_name<T>();
}

// Release stores, a barrier, acquire loads of a neighbour's value.
template <class T, class Space>
struct StoreLoad {
  Vec<T, Space> cells, seen;
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it) const {
    const std::size_t g = it.get_global_id(0), size = it.get_local_range(0);
    AtomicRef<T, MemoryOrder::acq_rel>(cells(g)).store(value_of<T>(g));
    kapi::group_barrier(it.get_group(), MemoryScope::device);
    const std::size_t neighbour = g - it.get_local_id(0) + (it.get_local_id(0) + 1) % size;
    seen(g) = AtomicRef<T, MemoryOrder::acq_rel>(cells(neighbour)).load();
  }
};

template <class Space, class T>
void check_store_load(std::size_t local_size) {
  const std::size_t n = 4 * local_size;
  Vec<T, Space> cells("cells", n), seen("seen", n);
  kapi::call_kernel(Space(), StoreLoad<T, Space>{cells, seen}, kapi::NdRange<1>({n}, {local_size}));
  auto h = kapi_test::to_host(seen);
  for (std::size_t g = 0; g < n; ++g) {
    const std::size_t l = g % local_size, neighbour = g - l + (l + 1) % local_size;
    ASSERT_EQ(h(g), value_of<T>(neighbour)) << "work-item " << g << ", group size " << local_size;
  }
}

template <class Space>
struct Atomics : ::testing::Test {};
KAPI_TYPED_TEST_SUITE(Atomics);

TYPED_TEST(Atomics, FetchAddSubUnderContention) {
  kapi_test::for_each_value_type([](auto t) {
    using T = typename decltype(t)::type;
    for (const auto& l : launches<TypeParam>()) check_add_sub<TypeParam, T>(l);
  });
}

TYPED_TEST(Atomics, FetchMinMaxUnderContention) {
  kapi_test::for_each_value_type([](auto t) {
    using T = typename decltype(t)::type;
    for (const auto& l : launches<TypeParam>()) check_min_max<TypeParam, T>(l);
  });
}

TYPED_TEST(Atomics, FloatingMinMaxWithNaNAndSignedZeros) {
  kapi_test::for_each_type<float, double>([](auto t) {
    using T = typename decltype(t)::type;
    check_min_max_special_values<TypeParam, T>();
    for (const auto& l : launches<TypeParam>()) check_min_max_with_nan<TypeParam, T>(l);
  });
}

TYPED_TEST(Atomics, BitwiseUnderContention) {
  kapi_test::for_each_type<std::int32_t, std::int64_t, std::uint32_t, std::uint64_t>([](auto t) {
    using T = typename decltype(t)::type;
    for (const auto& l : launches<TypeParam>()) check_bitwise<TypeParam, T>(l);
  });
}

TYPED_TEST(Atomics, ExchangeAndCompareExchangeUnderContention) {
  kapi_test::for_each_value_type([](auto t) {
    using T = typename decltype(t)::type;
    for (const auto& l : launches<TypeParam>()) check_exchange_cas<TypeParam, T>(l);
  });
}

TYPED_TEST(Atomics, SingleWorkItemSemantics) {
  kapi_test::for_each_value_type([](auto t) { check_single_semantics<TypeParam, typename decltype(t)::type>(); });
}

TYPED_TEST(Atomics, EveryMemoryOrderAndFence) {
  for (const auto& l : launches<TypeParam>()) {
    check_order<TypeParam, std::int32_t, MemoryOrder::relaxed>(l);
    check_order<TypeParam, std::uint64_t, MemoryOrder::acquire>(l);
    check_order<TypeParam, float, MemoryOrder::release>(l);
    check_order<TypeParam, double, MemoryOrder::acq_rel>(l);
    check_order<TypeParam, std::int64_t, MemoryOrder::seq_cst>(l);
  }
}

TYPED_TEST(Atomics, LocalMemoryHistogram) {
  kapi_test::for_each_value_type([](auto t) {
    for (std::size_t s : kapi_test::group_sizes<TypeParam>())
      check_local_histogram<TypeParam, typename decltype(t)::type>(s);
  });
}

TYPED_TEST(Atomics, ReleaseStoreAcquireLoad) {
  kapi_test::for_each_value_type([](auto t) {
    for (std::size_t s : kapi_test::group_sizes<TypeParam>())
      check_store_load<TypeParam, typename decltype(t)::type>(s);
  });
}

}  // namespace
