// SPDX-License-Identifier: Apache-2.0
// bench_launch: what one launch of a trivial kernel costs the caller, from the call to
// the kernel's completion (host wall clock around the call and a fence, on every space:
// the latency a caller waits, not the GPU's busy time).
//   raw-kokkos  raw-parallel-for  Kokkos::parallel_for(RangePolicy(space, 0, 1)) + fence
//   kapi        range-1           kapi::call_kernel with Range<1>(1)
//               nd-range-1x1      kapi::call_kernel with NdRange<1>(1, 1)
//               nd-range-1x256    kapi::call_kernel with NdRange<1>(256, 256): one group of
//                                 256 work-items (device: one block; host: one thread)
// The kernel stores 1 into one element. Counter "us": microseconds per launch; the
// target (issue 6) is kapi <= raw + 2 us.
#include <kapi/item.hpp>
#include <kapi/launch.hpp>
#include <kapi/range.hpp>
#include <string>

#include "common/harness.hpp"

namespace {

using namespace kapi_bench;
using Flag = Kokkos::View<int*, MemSpace>;

struct RawStore {
  Flag flag;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { flag(i) = 1; }
};

struct RangeStore {
  template <class V>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::Item<1>& it, const V& flag) const {
    flag(it.get_id(0)) = 1;
  }
};

struct NdRangeStore {
  template <class V>
  KOKKOS_INLINE_FUNCTION void operator()(const kapi::NdItem<1>& it, const V& flag) const {
    if (it.get_global_id(0) == 0) flag(0) = 1;
  }
};

struct Data {
  Flag flag;
};
using Cache = std::shared_ptr<DataCache<Data>>;

std::string verify(const Data& d) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.flag);
  return h(0) == 1 ? std::string() : "the kernel did not store its 1";
}

Case base(const Cache& data, const std::string& variant, Role role) {
  Case c;
  c.app = "launch";
  c.type = "i32";
  c.variant = variant;
  c.role = role;
  c.size_name = "n";
  c.size = 1;
  c.work = 1;
  c.unit = "us";
  c.time_unit = benchmark::kMicrosecond;
  c.wall_clock = true;
  c.poison = [data] { Kokkos::deep_copy(data->get(1)->flag, 0); };
  c.verify = [data] { return verify(*data->get(1)); };
  return c;
}

template <class Kernel, class R>
Case kapi_case(const Space& space, const Cache& data, const std::string& name, const R& range) {
  Case c = base(data, name, Role::kapi);
  c.bind = [space, data, range] {
    auto d = data->get(1);
    return std::function<void()>([space, d, range] { kapi::call_kernel(space, Kernel{}, range, d->flag); });
  };
  return c;
}

void register_all(Harness& h) {
  benchmark::AddCustomContext("raw_kokkos", "Kokkos::parallel_for(RangePolicy(space, 0, 1), functor) + fence");
  benchmark::AddCustomContext("launch_timing",
                              "host wall clock (steady_clock) from the call to the fence's return, "
                              "on every space (CUDA included)");
  const Space space = h.space();
  const Cache data = h.make_cache<Data>([](std::size_t) { return Data{Flag(std::string("flag"), 1)}; });
  Case raw = base(data, "raw-parallel-for", Role::raw_kokkos);
  raw.bind = [space, data] {
    auto d = data->get(1);
    return std::function<void()>([space, d] {
      Kokkos::parallel_for("bench_launch::raw",
                           Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(space, 0, 1), RawStore{d->flag});
      space.fence();
    });
  };
  h.add(raw);
  h.add(kapi_case<RangeStore>(space, data, "range-1", kapi::Range<1>(1)));
  h.add(kapi_case<NdRangeStore>(space, data, "nd-range-1x1", kapi::NdRange<1>(kapi::Range<1>(1), kapi::Range<1>(1))));
  h.add(kapi_case<NdRangeStore>(space, data, "nd-range-1x256",
                                kapi::NdRange<1>(kapi::Range<1>(256), kapi::Range<1>(256))));
}

}  // namespace

int main(int argc, char** argv) { return kapi_bench::run_main(argc, argv, "launch", register_all); }
