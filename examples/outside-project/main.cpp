// The README's example: the seed's sliding-window matmul, written against the
// installed kapi package, checked against a plain triple loop.
#include <kapi/kapi.hpp>

#include <cstdio>

using Matrix = Kokkos::View<float**, Kokkos::LayoutRight>;

struct SlidingWindowMatmul {
  KOKKOS_INLINE_FUNCTION void operator()(kapi::NdItem<2> it, Matrix a, Matrix b, Matrix c,
                                         kapi::LocalAccessor<float, 2> a_tile,
                                         kapi::LocalAccessor<float, 2> b_tile) const {
    const std::size_t i = it.get_global_id(0), j = it.get_global_id(1);
    const std::size_t li = it.get_local_id(0), lj = it.get_local_id(1);
    const std::size_t tile = it.get_local_range(0), n = c.extent(0);
    float acc = 0;
    for (std::size_t k0 = 0; k0 < n; k0 += tile) {
      a_tile(li, lj) = (i < n && k0 + lj < n) ? a(i, k0 + lj) : 0.f;
      b_tile(li, lj) = (k0 + li < n && j < n) ? b(k0 + li, j) : 0.f;
      kapi::group_barrier(it.get_group());
      for (std::size_t k = 0; k < tile; ++k) acc += a_tile(li, k) * b_tile(k, lj);
      kapi::group_barrier(it.get_group());
    }
    if (i < n && j < n) c(i, j) = acc;
  }
};

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  const std::size_t n = 5;
  Matrix a("A", n, n), b("B", n, n), c("C", n, n);
  auto ha = Kokkos::create_mirror_view(a), hb = Kokkos::create_mirror_view(b);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) ha(i, j) = float(i + j), hb(i, j) = float(i) - float(j);
  Kokkos::deep_copy(a, ha);
  Kokkos::deep_copy(b, hb);

  kapi::LocalAccessor<float, 2> a_tile(2, 2), b_tile(2, 2);
  kapi::call_kernel(SlidingWindowMatmul{}, kapi::NdRange<2>({6, 6}, {2, 2}), a, b, c, a_tile, b_tile);

  auto hc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c);
  int wrong = 0;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      float ref = 0;
      for (std::size_t k = 0; k < n; ++k) ref += ha(i, k) * hb(k, j);
      wrong += hc(i, j) != ref;
    }
  std::printf("outside project on %s: %s\n", Kokkos::DefaultExecutionSpace::name(), wrong ? "FAIL" : "PASS");
  return wrong ? 1 : 0;
}
