// Kokkos' mdspan-based View, no kapi: default-constructed Views assigned, copied and
// destroyed, then a fill (ViewFill) and a sum (ParallelReduce) over an assigned one.
#include <Kokkos_Core.hpp>
#include <cstdio>
int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  int status = 0;
  {
    Kokkos::View<double*> a;  // default-constructed: no allocation record
    Kokkos::View<double*> copy(a);
    copy = a;
    std::printf("default View: use_count %d, data %p\n", int(a.use_count()), static_cast<void*>(a.data()));
    Kokkos::View<double*> b("b", 1000);
    a = b;
    Kokkos::deep_copy(a, 1.0);
    Kokkos::fence();
    std::printf("fill done\n");
    std::fflush(stdout);
    double sum = 0;
    Kokkos::parallel_reduce("sum", 1000, KOKKOS_LAMBDA(int i, double& s) { s += a(i); }, sum);
    std::printf("sum %g (expected 1000)\n", sum);
    status = sum == 1000 ? 0 : 1;
  }
  Kokkos::finalize();
  return status;
}
