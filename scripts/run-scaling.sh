#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The distributed benchmarks: kapi-mpi's apps under mpirun over a list of rank counts,
# strong scaling (a fixed global size) and weak scaling (a fixed size per rank), into one
# results folder; scripts/report.py turns them into the report's scaling tables and plots
# (time, speed-up and efficiency against the 1-rank run of the same build).
#
#   scripts/run-scaling.sh <build-folder> <results-folder> [options]
#   (./kapi run <config> --ranks 1,2,4 [options] builds and calls it)
#
#   --ranks LIST          rank counts, comma-separated (default 1,2,4); each run starts
#                         one rank per GPU on GPU builds (ranks beyond the GPUs share them)
#   --apps LIST           reduce, matmul, heat3d (default all three)
#   --type T              element type of reduce and matmul (default float); heat3d: double
#   --reduce-n N          reduce, strong scaling: global elements (default 2^26)
#   --reduce-block N      reduce, weak scaling: elements per rank (default: none, no weak run)
#   --matmul-n N          matmul (SUMMA), strong scaling: square size (default 2048)
#   --matmul-panel W      SUMMA panel width (default auto: see kapi-mpi --help)
#   --heat3d-n N          heat3d, strong scaling: global cube (default 128)
#   --heat3d-block N      heat3d, weak scaling: cube per rank (default 64)
#   --heat3d-steps S      steps per timed run (default 10)
#   --repeat R            timed runs per point (default 5; medians reported)
#   --verify LEVEL        all | reference | none (default none: the apps' checks cost far more
#                         than the runs at sweep sizes; the test suite verifies on 1-4 ranks)
#   --mpirun "CMD"        the launcher and its flags (default: mpirun --oversubscribe
#                         --bind-to none, plus OpenMPI's consent to run as root when root)
#   --dry-run             print the commands only
# Sizes are counts or 2^p. The 8-GPU sweep of the project, for instance:
#   ./kapi run cuda-hopper --ranks 1,2,4,8 --matmul-n 16384 --reduce-n 2^31 --reduce-block 2^30
#     --heat3d-n 1024 --heat3d-block 512
# Host builds: each rank runs nproc/ranks threads (at least one; OMP_NUM_THREADS and
# KOKKOS_NUM_THREADS in the environment the launcher passes on).
# Writes scaling.jsonl (one KAPI_SUMMARY object per run, with the run's kind and rank
# count), scaling/<app>-<kind>-np<P>.log, and the meta.txt facts. Exit status: 0 all ran
# (and verified when asked), 1 a run failed, 2 usage.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
usage() { sed -n '3,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }
die() { echo "run-scaling: $*" >&2; exit 2; }
[ $# -ge 1 ] && { [ "$1" = --help ] || [ "$1" = -h ]; } && { usage; exit 0; }
[ $# -ge 2 ] || die "needs a build folder and a results folder (see --help)"
build=$1 out=$2; shift 2
ranks=1,2,4 apps=reduce,matmul,heat3d type=float reduce_n=2^26 reduce_block= matmul_n=2048 panel=auto heat_n=128 heat_block=64
steps=10 repeat=5 verify=none launcher="" dry=0
while [ $# -gt 0 ]; do
  opt=$1
  case "$opt" in
    --dry-run) dry=1; shift; continue ;;
    --*=*) set -- "${opt%%=*}" "${opt#*=}" "${@:2}"; opt=$1 ;;
  esac
  [ $# -ge 2 ] || die "$opt needs a value"
  v=$2
  case "$opt" in
    --ranks) ranks=$v ;; --apps) apps=$v ;; --type) type=$v ;; --reduce-n) reduce_n=$v ;; --reduce-block) reduce_block=$v ;;
    --matmul-n) matmul_n=$v ;; --matmul-panel) panel=$v ;; --heat3d-n) heat_n=$v ;;
    --heat3d-block) heat_block=$v ;; --heat3d-steps) steps=$v ;; --repeat) repeat=$v ;;
    --verify) verify=$v ;; --mpirun) launcher=$v ;;
    *) die "unknown option '$opt' (see --help)" ;;
  esac
  shift 2
done
[[ "$ranks" =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || die "--ranks: expected counts like 1,2,4, got '$ranks'"
for a in ${apps//,/ }; do
  case "$a" in reduce | matmul | heat3d) ;; *) die "--apps: '$a' is not reduce, matmul or heat3d" ;; esac
done
case "$verify" in all | reference | none) ;; *) die "--verify: expected all, reference or none, got '$verify'" ;; esac
exe=$build/apps/mpi/kapi-mpi
[ -x "$exe" ] || [ "$dry" = 1 ] || die "no $exe: build with MPI (KAPI_ENABLE_MPI, on when MPI is found; ./kapi build <config>)"
if [ -z "$launcher" ]; then
  launcher="mpirun --oversubscribe --bind-to none"
  if [ "$(id -u)" = 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
fi
jsonl=$out/scaling.jsonl
cores=$(nproc)
[ "$dry" = 1 ] || mkdir -p "$out/scaling"
[ "$dry" = 1 ] || {
  echo "scaling_ranks: $ranks"
  echo "scaling_launcher: $launcher"
  echo "scaling_sizes: reduce n=$reduce_n${reduce_block:+, weak $reduce_block per rank} ($type), matmul n=$matmul_n panel $panel ($type), heat3d strong n=$heat_n, weak block $heat_block per rank, $steps steps; $repeat repeats; verify $verify"
  command -v mpirun > /dev/null && echo "mpi: $(mpirun --version 2>&1 | head -1)"
} >> "$out/meta.txt"

status=0
# run <app> <kind> <ranks> <args...>: one point of the sweep.
run() {
  local app=$1 kind=$2 np=$3; shift 3
  local log=$out/scaling/$app-$kind-np$np.log threads=$(( cores / np > 0 ? cores / np : 1 ))
  # shellcheck disable=SC2086
  local cmd=($launcher -np "$np" "$exe" "$app" "$@"
             --repeat "$repeat" --verify "$verify")
  if [ "$dry" = 1 ]; then echo "${cmd[*]}"; return; fi
  echo "[run-scaling] $app $kind, $np rank(s): ${cmd[*]#$launcher }"
  if OMP_NUM_THREADS=$threads KOKKOS_NUM_THREADS=$threads "${cmd[@]}" > "$log" 2>&1; then
    local line
    line=$(grep -m1 '^KAPI_SUMMARY ' "$log" || true)
    if [ -n "$line" ]; then
      printf '{"kind":"%s","summary":%s}\n' "$kind" "${line#KAPI_SUMMARY }" >> "$jsonl"
      grep -v '^KAPI_SUMMARY' "$log" | grep -v '^ *$' | tail -n +3 | grep -v '^PASS$' | sed 's/^/    /' || true
    else
      echo "[run-scaling] $app $kind on $np rank(s): no summary line in ${log#$here/}"; status=1
    fi
  else
    echo "[run-scaling] $app $kind on $np rank(s) FAILED, see ${log#$here/}:"; tail -8 "$log" | sed 's/^/    /'
    status=1
  fi
}
for np in ${ranks//,/ }; do
  for a in ${apps//,/ }; do
    case "$a" in
      reduce) run reduce strong "$np" --n "$reduce_n" --type "$type"
              [ -z "$reduce_block" ] || run reduce weak "$np" --n-per-rank "$reduce_block" --type "$type" ;;
      matmul) run matmul strong "$np" --n "$matmul_n" --panel "$panel" --type "$type" ;;
      heat3d) run heat3d strong "$np" --n "$heat_n" --steps "$steps"
              run heat3d weak "$np" --n-per-rank "$heat_block" --steps "$steps" ;;
    esac
  done
done
exit $status
