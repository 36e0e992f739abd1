#!/usr/bin/env bash
# kapi's cuda-hopper build against Kokkos develop 28848dfa8 (legacy View: its mdspan View
# fails in Kokkos' own kernels on CUDA), C++20, warnings as errors; then its tests.
start=$SECONDS
mkdir -p /tmp/k5 && tar xzf .k5/kokkos-28848dfa8.tar.gz -C /tmp/k5
cmake -S /tmp/k5/src -B /tmp/k5/b-legacy -G Ninja -DCMAKE_CXX_COMPILER=/tmp/k5/src/bin/nvcc_wrapper \
  -DKokkos_ENABLE_CUDA=ON -DKokkos_ARCH_HOPPER90=ON -DKokkos_ENABLE_SERIAL=ON -DCMAKE_CXX_STANDARD=20 \
  -DKokkos_ENABLE_IMPL_VIEW_LEGACY=ON -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/tmp/k5/i-legacy > $OUT/kokkos.log 2>&1 &&
  cmake --build /tmp/k5/b-legacy -j 16 >> $OUT/kokkos.log 2>&1 && cmake --install /tmp/k5/b-legacy >> $OUT/kokkos.log 2>&1 ||
  { echo "kokkos failed"; tail -20 $OUT/kokkos.log; exit 1; }
echo "kokkos $((SECONDS - start)) s; $(g++ --version | head -1)"
cmake -S . -B /tmp/k5/kapi -G Ninja -DCMAKE_CXX_COMPILER=/tmp/k5/i-legacy/bin/nvcc_wrapper -DCMAKE_BUILD_TYPE=Release \
  -DKokkos_ROOT=/tmp/k5/i-legacy -DKAPI_WERROR=ON -DKAPI_ENABLE_MPI=OFF -DKAPI_ENABLE_BENCHMARKS=OFF -DKAPI_CHECK_SOURCES=OFF > $OUT/kapi-configure.log 2>&1 ||
  { echo "configure failed"; tail -30 $OUT/kapi-configure.log; exit 1; }
timeout 330 cmake --build /tmp/k5/kapi -j 16 > $OUT/kapi-build.log 2>&1; rc=$?
echo "kapi build rc $rc at $((SECONDS - start)) s; warnings: $(grep -c 'warning' $OUT/kapi-build.log)"
[ $rc = 0 ] || { grep -B2 -A8 "error" $OUT/kapi-build.log | head -40; exit 1; }
timeout 150 ctest --test-dir /tmp/k5/kapi -j 4 -E "outside_project|kokkos_view_probe" > $OUT/ctest.log 2>&1
grep -E "tests passed|tests failed|\*\*\*Failed" $OUT/ctest.log | head -20
echo "done $((SECONDS - start)) s"
