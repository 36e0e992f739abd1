# A/B of the fiber engine: before = /tmp/ab-gcc/build (e90c0d3), after = build/openmp (e867aee); GCC openmp.
# OUT: where the outputs go (mkdir it first); the before tree is a worktree of e90c0d3 built with cmake --preset openmp.
export OMP_PROC_BIND=spread OMP_PLACES=threads
for r in 1 2; do
  for w in before after; do
    if [ $w = before ]; then B=/tmp/ab-gcc/build; else B=build/openmp; fi
    for t in 1 2; do
      OMP_NUM_THREADS=$t $B/bench/bench_barrier --benchmark_repetitions=5 --benchmark_report_aggregates_only=true > $OUT/$w-barrier-t$t-$r.txt 2>&1
    done
    OMP_NUM_THREADS=2 $B/bench/bench_group_kernels --benchmark_repetitions=5 --benchmark_report_aggregates_only=true > $OUT/$w-groupk-$r.txt 2>&1
    OMP_NUM_THREADS=2 $B/bench/bench_matmul --benchmark_repetitions=3 --benchmark_report_aggregates_only=true --benchmark_filter='matmul/f32/(sliding-window-t(16|32)|phased-t16)/n:(128|256|512)/' > $OUT/$w-matmul-$r.txt 2>&1
    OMP_NUM_THREADS=2 $B/bench/bench_init3d --benchmark_repetitions=3 --benchmark_report_aggregates_only=true --benchmark_filter="nd-range|kapi-range" > $OUT/$w-init3d-$r.txt 2>&1
    echo "$w $r $(date +%T)"
  done
done
echo alldone
