#!/bin/bash
# two alternated rounds, old/new, GCC (openmp) and clang (Kokkos develop) builds
export OMP_NUM_THREADS=2 OMP_PROC_BIND=spread OMP_PLACES=threads
for round in 1 2; do
  for b in gcc-old gcc-new clang-old clang-new; do
    ./$b --benchmark_filter='/(nd-range|phased|range)/n:(64|128)/' 2>/dev/null | grep _median |
      awk -v r=$round -v b=$b '{sub(/\/min_time.*/, "", $1); print r, b, $1, $2, $3}'
  done
done
