export OMP_NUM_THREADS=2 OMP_PROC_BIND=spread OMP_PLACES=threads
F='matmul/f32/(raw-teampolicy-t16|sliding-window-t(2|8|16|32)|phased-t16|tuned)/n:(256|512|1024)/'
for r in 1 2; do
  for w in before after; do
    if [ $w = before ]; then B=/tmp/ab-before/build; else B=/work/main/build/clang; fi
    $B/bench/bench_matmul --benchmark_filter="$F" --benchmark_repetitions=5 > /tmp/ab/$w-matmul-$r.txt 2>&1
    $B/bench/bench_heat3d --benchmark_repetitions=5 > /tmp/ab/$w-heat3d-$r.txt 2>&1
    echo "$w $r $(date +%T)"
  done
done
echo alldone
