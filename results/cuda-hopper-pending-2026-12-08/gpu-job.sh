#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The pending GPU job (README.md): run from a copy of this folder in .offline/pending/ (the
# results tree is too large to travel), with $OUT set by the device tool. Env: STAGES
# (space list of build tests ab fp64 ncu ab3d heat suite), TARGETS (ninja targets),
# ROUNDS (suite rounds), APPS (suite apps), FP64_ROUNDS.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../.."
export KAPI_OFFLINE=$PWD/.offline KAPI_CACHE=$PWD/build/.kapi-cache KAPI_JOBS=16
CFG=cuda-hopper B=build/cuda-hopper
STAGES=${STAGES:-build tests ab}
log=$OUT/log.txt
t0=$(date +%s)
stamp() { echo "== $(( $(date +%s) - t0 )) s: $*"; }
{
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.sm,memory.total,driver_version --format=csv
for st in $STAGES; do
  case $st in
  build)
    stamp setup
    ./kapi setup $CFG > $OUT/setup.log 2>&1 || { tail -30 $OUT/setup.log; exit 1; }
    K=$KAPI_CACHE/$CFG/install
    [ -f $B/build.ninja ] || cmake --preset $CFG -B $B -DKokkos_ROOT=$K -DCMAKE_CXX_COMPILER=$K/bin/nvcc_wrapper > $OUT/cmake.log 2>&1 || { tail -30 $OUT/cmake.log; exit 1; }
    stamp ninja
    ninja -C $B ${TARGETS:-bench_matmul bench_heat3d kapi-heat3d kapi-matmul kapi_tests_memory_Cuda kapi_tests_apps_Cuda} > $OUT/ninja.log 2>&1 || { grep -B5 -A20 'error' $OUT/ninja.log | head -80; exit 1; }
    stamp built ;;
  tests)
    timeout 180 $B/tests/kapi_tests_memory_Cuda --gtest_filter='*Fp64*:*JointMatrix*' 2>&1 | grep -E 'OK|FAIL|PASSED|tests ran|Failure|Expected|actual' | tail -30
    [ -x $B/tests/kapi_tests_apps_Cuda ] && timeout 300 $B/tests/kapi_tests_apps_Cuda --gtest_filter='*atmul*:*eat3d*' 2>&1 | grep -E 'OK|FAIL|PASSED|tests ran' | tail -15
    stamp tests ;;
  ab)
    for r in ${FP64_ROUNDS:-1 2}; do
      $B/bench/bench_matmul --kapi_sizes=2048,4096,8192 --benchmark_repetitions=3 \
        --benchmark_filter='f32/(tuned-tf32|cublas-tf32)/' 2>&1 | grep -E 'median|error|Error|refused' ; stamp ab$r
    done ;;
  fp64)
    for r in ${FP64_ROUNDS:-1 2}; do
      $B/bench/bench_matmul --kapi_sizes=2048,4096,8192 --benchmark_repetitions=3 \
        --benchmark_filter='matmul/f64/(cublas-dgemm|tuned-fp64|tuned-fp64-k16-async3-f16|tuned-fp64-k32-async3-f16)/' 2>&1 | grep -E 'median|error|Error|refused' ; stamp fp64-$r
    done ;;
  heat)
    for r in 1 2; do scripts/run-suite.sh $CFG --apps heat3d --out results/heat-$r > $OUT/heat-$r.log 2>&1; grep -A30 -i 'targets' $OUT/heat-$r.log | head -40; stamp heat$r; done ;;
  ab3d)
    OUT=$OUT bash "$here/build_ab.sh" ab_heat3d && { /tmp/ab_heat3d; /tmp/ab_heat3d; } 2>&1; stamp ab3d ;;
  ncu)
    /usr/local/cuda/bin/ncu --kernel-name regex:'pack|wgmma' --launch-count 6 --metrics gpu__time_duration.sum \
      $B/bench/bench_matmul --kapi_sizes=2048 --benchmark_repetitions=1 --benchmark_min_time=0.01 \
      --benchmark_filter='f32/tuned-tf32/' > $OUT/ncu-tf32.txt 2>&1; grep -E "pack|wgmma|duration" $OUT/ncu-tf32.txt | head -30; stamp ncu ;;
  suite)
    for r in $(seq 1 ${ROUNDS:-1}); do scripts/run-suite.sh $CFG ${APPS:+--apps "$APPS"} --out results/suite-$r > $OUT/suite-$r.log 2>&1; tail -60 $OUT/suite-$r.log | grep -A40 -i targets; stamp suite$r; done ;;
  esac
done
} 2>&1 | tee $log
[ -d results ] && tar -czf $OUT/results.tgz results 2>/dev/null
true
