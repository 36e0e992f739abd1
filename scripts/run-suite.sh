#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs the benchmark suite of one built configuration and writes its report.
#
#   scripts/run-suite.sh [config] [--full] [--apps "matmul reduce init3d"] [--out DIR]
#                        [--no-verify] [-- extra benchmark arguments]
#
#   config       a configuration built in build/<config> (default openmp); ./kapi run
#                builds it first
#   --full       the full sweep (GPU sizes, 5 repetitions of >= 0.5 s); default: quick
#                (3 repetitions of >= 0.1 s, sizes limited per backend: minutes on 2 cores)
#   --apps LIST  the benchmarks to run (default: every bench_<name> binary of the build:
#                matmul, reduce, init3d, and launch, the cost of one kernel launch, then
#                the others, e.g. apps made by ./kapi new, by name)
#   --out DIR    the results folder (default results/<config>-<host>-<date>[-N]; on CUDA
#                configurations the GPU's model instead of the host, e.g. cuda-hopper-h200-...)
#   --no-verify  skip the apps' command-line verification
#   -- ARGS      passed to every benchmark binary (e.g. --benchmark_filter=tuned,
#                --kapi_sizes=1024, --kapi_max_seconds=10, --kokkos-threads=2)
#   --check-args only check the arguments (./kapi run does, before it builds): exit 0 or 2
#   --ranks LIST the distributed suite instead: kapi-mpi's apps under mpirun on each rank
#                count (e.g. 1,2,4), strong and weak scaling, with the options of
#                scripts/run-scaling.sh (--apps, --type, --repeat, --verify, --mpirun,
#                --reduce-n, --matmul-n, --matmul-panel, --heat3d-n, --heat3d-block,
#                --heat3d-steps); the report's tables give time, speed-up and efficiency
#
# Writes into the results folder: <app>.json (Google Benchmark JSON, with the run's
# context), <app>.log (the binary's output), verify-<app>.log, meta.txt (machine, load,
# environment, git revision, commands), kokkos-configuration.txt, report.md and
# plots/<app>.png (scripts/report.py), and prints the report's tables.
# Environment: OMP_PROC_BIND (default spread) and OMP_PLACES (default threads) are set for
# builds with Kokkos' OpenMP backend unless already set; KAPI_PYTHON picks the Python that
# has matplotlib.
# Exit status: 0 all well, 1 an app's verification or a benchmark binary failed, 2 usage.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

config=openmp
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then config=$1; shift; fi
suite=quick apps="" out="" verify=1 extra=() check_only=0 me=run-suite ranks="" scaling=()
bad_args() {
  echo "$me: $*; accepted: --full --quick --apps LIST --out DIR --no-verify --ranks LIST (and its options) -- BENCHMARK-ARGS" >&2
  exit 2
}
while [ $# -gt 0 ]; do
  case "$1" in
    --full) suite=full ;;
    --quick) suite=quick ;;
    --apps) [ $# -ge 2 ] || bad_args "--apps needs a list of apps"; apps=$2; shift ;;
    --apps=*) apps=${1#--apps=} ;;
    --out) [ $# -ge 2 ] || bad_args "--out needs a folder"; out=$2; shift ;;
    --out=*) out=${1#--out=} ;;
    --no-verify) verify=0 ;;
    --check-args) check_only=1 me="kapi: run" ;;
    --ranks) [ $# -ge 2 ] || bad_args "--ranks needs a list of rank counts"; ranks=$2; shift ;;
    --ranks=*) ranks=${1#--ranks=} ;;
    --type | --repeat | --verify | --mpirun | --reduce-n | --reduce-block | --matmul-n | --matmul-panel | --heat3d-n | --heat3d-block | --heat3d-steps)
      [ $# -ge 2 ] || bad_args "$1 needs a value"; scaling+=("$1" "$2"); shift ;;
    --) shift; extra=("$@"); break ;;
    -h | --help) sed -n '3,34p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) bad_args "unknown flag '$1'" ;;
    *) bad_args "unexpected argument '$1' (the configuration comes first)" ;;
  esac
  shift
done
if [ -n "$ranks" ]; then
  [ -z "$apps" ] || scaling+=(--apps "${apps// /,}")
  "$root/scripts/run-scaling.sh" . . --ranks "$ranks" "${scaling[@]+"${scaling[@]}"}" --dry-run > /dev/null ||
    bad_args "bad distributed-suite options"
elif [ ${#scaling[@]} -gt 0 ]; then
  bad_args "${scaling[0]} belongs to the distributed suite (--ranks)"
fi
[ "$check_only" = 0 ] || exit 0

build=${KAPI_BUILD_DIR:-$root/build/$config}  # ./kapi run names it (its own folder for a Kokkos_ROOT)
if [ ! -d "$build" ]; then
  echo "run-suite: no build in ${build#$root/}: run ./kapi build $config (or ./kapi run $config)" >&2
  exit 2
fi
if [ -z "$apps" ] && [ -z "$ranks" ]; then
  for app in matmul reduce init3d launch; do [ -x "$build/bench/bench_$app" ] && apps+="$app "; done
  for exe in "$build"/bench/bench_*; do
    app=${exe##*/bench_}
    [ -f "$exe" ] && [ -x "$exe" ] && [[ " $apps " != *" $app "* ]] && apps+="$app "
  done
fi
apps=$(echo $apps)
[ -n "$apps" ] || [ -n "$ranks" ] || { echo "run-suite: no benchmark binaries in ${build#$root/}/bench" >&2; exit 2; }
[ -n "$ranks" ] || for app in $apps; do
  [ -x "$build/bench/bench_$app" ] || { echo "run-suite: ${build#$root/}/bench/bench_$app is missing" >&2; exit 2; }
done

host=$(hostname -s 2>/dev/null || hostname)
machine=$host  # the folder is named for the device on GPU configurations
if [ "${config#cuda}" != "$config" ] && command -v nvidia-smi > /dev/null 2>&1; then
  gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2> /dev/null | head -1 | sed 's/^NVIDIA //; s/ .*//' | tr 'A-Z' 'a-z')
  [ -n "$gpu" ] && machine=$gpu
fi
if [ -z "$out" ]; then
  out=$root/results/$config-$machine-$(date +%Y-%m-%d)
  if [ -e "$out" ]; then
    i=2
    while [ -e "$out-$i" ]; do i=$((i + 1)); done
    out=$out-$i
  fi
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)

# The Python that draws the plots: the first with matplotlib (Debian's python3-matplotlib
# lives in /usr/bin/python3; a pyenv or venv python3 earlier on PATH may lack it).
python=${KAPI_PYTHON:-}
if [ -z "$python" ]; then
  for p in /usr/bin/python3 python3; do
    if command -v "$p" > /dev/null && "$p" -c 'import matplotlib' 2> /dev/null; then python=$p; break; fi
  done
  [ -n "$python" ] || python=$(command -v python3 || echo /usr/bin/python3)
fi

# Thread binding for builds with Kokkos' OpenMP backend (its threads and the OpenMP host
# anchors), as Kokkos recommends; recorded in meta.txt and in every JSON's context.
# Other builds do not link the OpenMP runtime (bench/CMakeLists.txt).
kokkos_dir=$(sed -n 's/^Kokkos_DIR:[A-Z]*=//p' "$build/CMakeCache.txt" 2> /dev/null | head -1)
if grep -qs '^SET(Kokkos_DEVICES.*OPENMP' "$kokkos_dir/KokkosConfigCommon.cmake"; then
  export OMP_PROC_BIND=${OMP_PROC_BIND:-spread} OMP_PLACES=${OMP_PLACES:-threads}
fi
export KAPI_SUITE_START=$(date +%s.%N)
start=$(date +%s)
elapsed() { printf '%4ds' $(($(date +%s) - start)); }
git_rev=$(git -C "$root" describe --always --dirty 2> /dev/null || echo unknown)

# meta.txt: appended to, so that several runs into one --out folder (e.g. one app per
# call on a rationed GPU) keep every run's facts; report.py reads the last value of a key.
{
  echo "config: $config"
  echo "suite: $suite"
  echo "date: $(date -Is)"
  echo "host: $host"
  echo "git: $git_rev"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo 2> /dev/null | cut -d: -f2- | sed 's/^ //')"
  echo "nproc: $(nproc)"
  echo "load_before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "OMP_PROC_BIND: ${OMP_PROC_BIND:-}"
  echo "OMP_PLACES: ${OMP_PLACES:-}"
  echo "OMP_NUM_THREADS: ${OMP_NUM_THREADS:-}"
  echo "KOKKOS_NUM_THREADS: ${KOKKOS_NUM_THREADS:-}"
  echo "apps: $apps"
  echo "extra_args: ${extra[*]+${extra[*]}}"
} >> "$out/meta.txt"
if command -v nvidia-smi > /dev/null 2>&1; then
  echo "gpu: $(nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader 2>&1 | head -1)" >> "$out/meta.txt"
fi

if [ -n "$ranks" ]; then
  # The distributed suite: kapi-mpi under mpirun, then the report's scaling tables.
  echo "[run-suite] $config, distributed suite on ${ranks} rank(s) -> ${out#$root/}"
  status=0
  "$root/scripts/run-scaling.sh" "$build" "$out" --ranks "$ranks" "${scaling[@]+"${scaling[@]}"}" || status=1
  echo "elapsed_s: $(($(date +%s) - start))" >> "$out/meta.txt"
  "$python" "$root/scripts/report.py" "$out" --print || { echo "[run-suite] report.py failed" >&2; status=1; }
  echo "[run-suite] done in $(($(date +%s) - start)) s: ${out#$root/}/report.md"
  exit $status
fi
first=${apps%% *}
"$build/bench/bench_$first" --kapi_print_configuration > "$out/kokkos-configuration.txt" 2>&1 || true
echo "[run-suite] $config, $suite suite, apps: $apps -> ${out#$root/}"
echo "[run-suite] load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores; OMP_PROC_BIND=${OMP_PROC_BIND:-} OMP_PLACES=${OMP_PLACES:-}"
# Is the machine busy now? The share of CPU time used over one second (the load average
# lags: right after ./kapi's build it still counts the compiler).
cpu_busy() {
  local a b
  a=$(head -1 /proc/stat); sleep 1; b=$(head -1 /proc/stat)
  echo "$a" "$b" | awk '{ busy1 = $2 + $3 + $4 + $7 + $8 + $9; all1 = busy1 + $5 + $6;
                          busy2 = $13 + $14 + $15 + $18 + $19 + $20; all2 = busy2 + $16 + $17;
                          printf "%.0f", (all2 > all1 ? 100 * (busy2 - busy1) / (all2 - all1) : 0) }'
}
busy=$(cpu_busy 2> /dev/null || echo 0)
echo "busy_before_percent: $busy" >> "$out/meta.txt"
if [ "${busy:-0}" -ge 20 ]; then
  echo "[run-suite] warning: other processes use ${busy}% of the CPUs right now: the figures will be noisy; take figures on a quiet machine"
fi
status=0

# 1. The apps' own verification, at small sizes, on every execution space of the build.
verify_args() {
  case "$1" in
    matmul) echo "--m 67 --n 45 --k 131 --type float,double --repeat 1" ;;
    reduce) echo "--n 100003 --type float,double,int32,int64 --repeat 1" ;;
    init3d) echo "--ni 37 --nj 29 --nk 41 --repeat 1" ;;
    *) echo "--repeat 1" ;;
  esac
}
if [ "$verify" = 1 ]; then
  for app in $apps; do
    [ -d "$root/apps/$app" ] || continue  # launch: a framework benchmark, no app
    cli=$build/apps/$app/kapi-$app
    if [ ! -x "$cli" ]; then
      echo "[$(elapsed)] verify $app: no ${cli#$root/}; skipped"
      continue
    fi
    log=$out/verify-$app.log
    # shellcheck disable=SC2046
    if "$cli" $(verify_args "$app") > "$log" 2>&1; then
      echo "[$(elapsed)] verify $app: passed ($(verify_args "$app"))"
    else
      echo "[$(elapsed)] verify $app: FAILED, see ${log#$root/}:"
      tail -15 "$log" | sed 's/^/    /'
      status=1
    fi
  done
fi

# 2. The benchmarks.
for app in $apps; do
  echo "[$(elapsed)] bench $app ($suite)"
  if ! "$build/bench/bench_$app" --kapi_suite="$suite" --kapi_progress \
    --benchmark_out="$out/$app.json" --benchmark_out_format=json \
    --benchmark_context=git="$git_rev",host="$host" \
    "${extra[@]+"${extra[@]}"}" 2>&1 | tee "$out/$app.log" | sed 's/^/    /'; then
    echo "[$(elapsed)] bench $app: FAILED, see ${out#$root/}/$app.log"
    status=1
  fi
done
echo "load_after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/meta.txt"
# Each binary ends with the CPU time other processes took while it ran: the real test of
# a quiet machine (the load average after a run counts the benchmark's own threads).
for app in $apps; do
  line=$(grep -m1 "^\[kapi-bench\] $app: other processes" "$out/$app.log" 2> /dev/null || true)
  [ -n "$line" ] && echo "others_$app: ${line#*: other processes: }" >> "$out/meta.txt"
  line=$(grep -m1 "^\[kapi-bench\] $app: launch shapes: " "$out/$app.log" 2> /dev/null || true)
  [ -n "$line" ] && echo "shapes_$app: ${line#*: launch shapes: }" >> "$out/meta.txt"
done
echo "elapsed_s: $(($(date +%s) - start))" >> "$out/meta.txt"

# 3. Report, plots and the tables.
echo "[$(elapsed)] report: ${out#$root/}/report.md"
if ! "$python" "$root/scripts/report.py" "$out" --print; then
  echo "[run-suite] report.py failed" >&2
  status=1
fi
echo "[run-suite] done in $(($(date +%s) - start)) s: ${out#$root/}/report.md"
exit $status
