// SPDX-License-Identifier: Apache-2.0
// What Kokkos Tools sees of kapi's launches: run with the recorder library loaded
// (KOKKOS_PROFILE_LIBRARY, KAPI_TOOLS_RECORD: tests/tools/CMakeLists.txt), it launches
// range, nd-range, phased, hierarchical, named (by a string or a type), loop-nest and reduce kernels, and range and nd-range
// kernels with reduction variables (Kokkos parallel_reduce regions), on every enabled space a
// known number of times, finalizes Kokkos (which closes the record) and checks that each
// launch shows under its expected label exactly that many times.
#include <kapi/execution_space.hpp>
#include <kapi/functional.hpp>
#include <kapi/hierarchical.hpp>
#include <kapi/item.hpp>
#include <kapi/launch.hpp>
#include <kapi/loop_nest.hpp>
#include <kapi/phased.hpp>
#include <kapi/range.hpp>
#include <kapi/reduce.hpp>
#include <kapi/reduction.hpp>
#include <kapi/work_group.hpp>

#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace {

struct FillRange {
  template <class View>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::Item<1>& it, const View& x) const {
    x(it.get_id(0)) = 1.0f;
  }
};

struct FillNdRange {
  template <class View>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it, const View& x) const {
    x(it.get_global_id(0)) = 2.0f;
  }
};

struct FillPhased {
  template <class View>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::WorkGroup<1>& wg, const View& x) const {
    kapi::for_each_work_item(wg, [&](const kapi::NdItem<1>& it) { x(it.get_global_id(0)) = 3.0f; });
  }
};

struct SumRange {
  template <class View, class Sum>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::Item<1>& it, const View& x, Sum& sum) const {
    sum += x(it.get_id(0));
  }
};

struct SumNdRange {
  template <class View, class Sum>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it, const View& x, Sum& sum) const {
    sum += x(it.get_global_id(0));
  }
};

template <class View>
struct FillHierarchical {
  View x;
  KOKKOS_INLINE_FUNCTION void operator()(kapi::HGroup<1> g) const {
    g.parallel_for_work_item([&](kapi::HItem<1> it) { x(it.get_global_id(0)) = 4.0f; });
  }
};

template <class View>
struct NestBody {
  View a;
  KOKKOS_INLINE_FUNCTION void operator()(kapi::nest::index_type i, kapi::nest::index_type j,
                                         kapi::nest::index_type k) const {
    a(i, j, k) = 1.0;
  }
};

std::map<std::string, int> expected;

template <class Space>
void launch_all(const Space& space) {
  using Memory = typename Space::memory_space;
  const std::size_t n = 1024;
  Kokkos::View<float*, Memory> x("x", n);
  for (int r = 0; r < 3; ++r) kapi::call_kernel(space, FillRange{}, kapi::Range<1>(n), x);
  expected["for kapi::range " + kapi::detail::type_name<FillRange>()] += 3;

  for (int r = 0; r < 2; ++r) kapi::call_kernel(space, FillNdRange{}, kapi::NdRange<1>(n, 64), x);
  expected["for kapi::nd_range " + kapi::detail::type_name<FillNdRange>()] += 2;

  kapi::call_kernel(space, FillPhased{}, kapi::NdRange<1>(n, 64), x);
  expected["for kapi::phased " + kapi::detail::type_name<FillPhased>()] += 1;

  // Named by a type, as SYCL's parallel_for<class Name>: the type's name (a class declared in
  // the call is local to this function; its function's signature is left out).
  kapi::call_kernel<class SyclNamedFill>(space, FillRange{}, kapi::Range<1>(n), x);
  kapi::call_kernel_async<class SyclNamedNdFill>(space, FillNdRange{}, kapi::NdRange<1>(n, 64), x).wait();
  expected["for SyclNamedFill"] += 1;
  expected["for SyclNamedNdFill"] += 1;

  // SYCL's hierarchical spelling: a phased launch of the kernel given.
  kapi::parallel_for_work_group(space, kapi::Range<1>(n / 64), kapi::Range<1>(64), FillHierarchical<decltype(x)>{x});
  kapi::parallel_for_work_group<class SyclNamedGroups>(space, kapi::Range<1>(n / 64), kapi::Range<1>(64),
                                                       FillHierarchical<decltype(x)>{x});
  expected["for kapi::phased " + kapi::detail::type_name<FillHierarchical<decltype(x)>>()] += 1;
  expected["for SyclNamedGroups"] += 1;

  for (int r = 0; r < 4; ++r) kapi::call_kernel("my-named-fill", space, FillRange{}, kapi::Range<1>(n), x);
  expected["for my-named-fill"] += 4;

  // Launches with reduction variables are Kokkos parallel_reduce regions under the same labels.
  Kokkos::View<float, Memory> total("total");
  for (int r = 0; r < 2; ++r)
    kapi::call_kernel(space, SumRange{}, kapi::Range<1>(n), x, kapi::reduction(total, kapi::plus<>()));
  expected["reduce kapi::range " + kapi::detail::type_name<SumRange>()] += 2;
  kapi::call_kernel(space, SumNdRange{}, kapi::NdRange<1>(n, 64), x, kapi::reduction(total, kapi::plus<>()));
  expected["reduce kapi::nd_range " + kapi::detail::type_name<SumNdRange>()] += 1;
  kapi::call_kernel("my-named-sum", space, SumRange{}, kapi::Range<1>(n), x, kapi::reduction(total, kapi::plus<>()));
  expected["reduce my-named-sum"] += 1;

  Kokkos::View<double***, Kokkos::LayoutRight, Memory> a("a", 4, 8, 16);
  const NestBody<decltype(a)> body{a};
  kapi::loop_nest(space, kapi::nest::Tiles{}, kapi::Range<3>(4, 8, 16), body);
  kapi::loop_nest(space, kapi::nest::RangeKernel{}, kapi::Range<3>(4, 8, 16), body);
  expected["for kapi::nest " + kapi::nest::Tiles{}.name() + " " + kapi::detail::type_name<NestBody<decltype(a)>>()] +=
      1;
  expected["for kapi::nest kapi-range " + kapi::detail::type_name<NestBody<decltype(a)>>()] += 1;

  kapi::ReduceWorkspace<float, Space> ws(space, n);
  const float sum = kapi::reduce(space, Kokkos::View<const float*, Memory>(x), kapi::plus<>(), ws);
  if (sum != float(n)) {  // the last fill (the named one) wrote 1 everywhere
    std::fprintf(stderr, "FAIL: the reduction gave %g, expected %g\n", double(sum), double(n));
    std::exit(1);
  }
  // Every pass of the recursive reduction shows under one label; at least one pass runs.
  expected["for kapi::reduce recursive_pass " + kapi::detail::type_name<float>()] += 0;
  // A device's result comes back through kapi's own copy, shown as a deep copy.
  if (!kapi::is_host_execution_space_v<Space>) expected["copy kapi::reduce result <- kapi::reduce partials"] += 1;
}

template <class... Spaces>
void launch_on_each(kapi::execution_space_list<Spaces...>) {
  (launch_all(Spaces()), ...);
}

}  // namespace

int main(int argc, char** argv) {
  const char* path = std::getenv("KAPI_TOOLS_RECORD");
  if (!path || !std::getenv("KOKKOS_PROFILE_LIBRARY")) {
    std::fprintf(stderr, "FAIL: run with KOKKOS_PROFILE_LIBRARY (the recorder) and KAPI_TOOLS_RECORD set\n");
    return 1;
  }
  Kokkos::initialize(argc, argv);
  launch_on_each(kapi::enabled_execution_spaces());
  Kokkos::finalize();

  std::map<std::string, int> seen;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) ++seen[line];
  int failures = 0;
  for (const auto& [label, count] : expected) {
    const int got = seen.count(label) ? seen[label] : 0;
    const bool ok = count == 0 ? got > 0 : got == count;
    if (!ok) {
      std::fprintf(stderr, "FAIL: \"%s\" recorded %d times, expected %s%d\n", label.c_str(), got,
                   count == 0 ? "at least " : "", count == 0 ? 1 : count);
      ++failures;
    }
  }
  if (failures) {
    std::fprintf(stderr, "recorded:\n");
    for (const auto& [label, count] : seen) std::fprintf(stderr, "  %d x %s\n", count, label.c_str());
    return 1;
  }
  std::printf("Kokkos Tools saw every kapi launch under its expected label (%zu labels checked)\n", expected.size());
  return 0;
}
