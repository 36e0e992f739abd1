export OMP_NUM_THREADS=2 OMP_PROC_BIND=spread OMP_PLACES=threads
F='matmul/f32/(raw-teampolicy-t16|sliding-window-t(8|16|32)|phased-t16)/n:(256|512|1024)/'
for r in 1 2; do
  for w in old new; do
    B=/tmp/unsw/$w
    $B/bench_group_kernels --benchmark_repetitions=5 --benchmark_format=json --benchmark_out=/tmp/unsw/$w-group-$r.json > /dev/null 2>&1
    $B/bench_barrier --benchmark_repetitions=5 --benchmark_format=json --benchmark_out=/tmp/unsw/$w-barrier-$r.json > /dev/null 2>&1
    $B/bench_matmul --benchmark_filter="$F" --benchmark_repetitions=5 --benchmark_format=json --benchmark_out=/tmp/unsw/$w-matmul-$r.json > /dev/null 2>&1
    $B/bench_heat3d --benchmark_filter='nd-range|phased|/range' --benchmark_repetitions=5 --benchmark_format=json --benchmark_out=/tmp/unsw/$w-heat3d-$r.json > /dev/null 2>&1
    echo "$w $r $(date +%T)"
  done
done
echo alldone
