#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The driver and its scripts against hostile input (issue 16): each bad call must end with
# one clear line naming the problem, a non-zero exit status (2 for bad input), and nothing
# half-written left behind.
#
#   tests/driver_checks.sh [SOURCE_DIR]        (ctest: driver_checks)
#
# Works in scratch copies of the scripts under a mktemp folder, with its own KAPI_CACHE,
# stubs for apt-get, sudo, cmake and ctest (a check that wrongly got that far fails
# instead of installing or building) and stubbed setup in the copy used for the flag
# checks. Offline, a few seconds; safe to run beside itself (one folder per run).
# Exit status: 0 all checks passed, 1 otherwise.
set -uo pipefail
source_dir=$(cd "${1:-$(dirname "${BASH_SOURCE[0]}")/..}" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/kapi-driver-checks.XXXXXX")
trap 'rm -rf "$work"' EXIT
unset KAPI_OFFLINE Kokkos_ROOT KAPI_KOKKOS_SOURCES KAPI_PYTHON
export KAPI_CACHE=$work/cache KAPI_JOBS=1

failed=0 passed=0
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
pass() { echo "ok:   $*"; passed=$((passed + 1)); }

# expect <what> <exit status> <regex> <command...>: runs the command; it must exit with
# that status, its output must match the regex, hold no Python traceback, and, on a
# failure, have exactly one line besides '[kapi ...]' progress lines.
out=""
expect() {
  local what=$1 want=$2 re=$3 rc lines
  shift 3
  out=$("$@" 2>&1 < /dev/null)
  rc=$?
  lines=$(grep -vc '^\[kapi' <<< "$out")
  if [ "$rc" != "$want" ]; then
    fail "$what: exit status $rc, expected $want ($*):"$'\n'"$(tail -5 <<< "$out" | cut -c1-300)"
  elif ! grep -qE -- "$re" <<< "$out"; then
    fail "$what: output does not match '$re' ($*):"$'\n'"$(tail -5 <<< "$out" | cut -c1-300)"
  elif grep -q 'Traceback' <<< "$out"; then
    fail "$what: a Python traceback ($*):"$'\n'"$(tail -5 <<< "$out")"
  elif [ "$want" != 0 ] && [ "$lines" != 1 ]; then
    fail "$what: $lines lines of output, expected one ($*):"$'\n'"$(head -5 <<< "$out" | cut -c1-300)"
  else
    pass "$what"
  fi
}
# absent <what> <path...>: none of the paths may exist (globs are expanded by the caller).
absent() {
  local what=$1 p
  shift
  for p in "$@"; do
    if [ -e "$p" ]; then fail "$what: ${p#$work/} was left behind"; return; fi
  done
  pass "$what"
}
present() {
  local what=$1 p
  shift
  for p in "$@"; do
    if [ ! -e "$p" ]; then fail "$what: ${p#$work/} is missing"; return; fi
  done
  pass "$what"
}

# ---- scratch copies of the driver, and stubs for what must never run here --------------
copy_tree() {  # copy_tree <dest>: the driver, scripts, configurations, templates; no apps
  mkdir -p "$1"/apps "$1"/tests "$1"/bench
  cp -R "$source_dir"/kapi "$source_dir"/CMakePresets.json "$source_dir"/scripts "$source_dir"/configs \
    "$source_dir"/cmake "$source_dir"/templates "$1"/
}
tree=$work/tree  # real scripts (setup, report, compare, new)
drv=$work/drv    # setup-deps.sh stubbed: the driver's own checks must stop before it
copy_tree "$tree"
copy_tree "$drv"
printf '#!/bin/sh\necho "STUB setup-deps.sh reached: $*"\nexit 98\n' > "$drv/scripts/setup-deps.sh"
mkdir -p "$work/bin"
for tool in apt-get apt sudo cmake ctest; do
  printf '#!/bin/sh\necho "STUB %s must not run here: $*"\nexit 97\n' "$tool" > "$work/bin/$tool"
done
chmod +x "$drv/scripts/setup-deps.sh" "$work"/bin/*
export PATH=$work/bin:$PATH

# ---- 2. configs/ holds configurations only; a configuration needs a file and a preset ----
expect "configs lists configurations" 0 'openmp' "$drv/kapi" configs
listed=$out
if grep -qx 'find-cudatoolkit-first' <<< "$listed"; then
  fail "configs lists the CMake helper find-cudatoolkit-first"
else
  pass "configs does not list the CMake helper find-cudatoolkit-first"
fi
for f in "$source_dir"/configs/*.cmake; do  # every file in configs/ is a configuration
  name=${f##*/}; name=${name%.cmake}
  if grep -qx -- "$name" <<< "$listed"; then pass "configs/$name.cmake is a configuration"
  else fail "configs/$name.cmake is in configs/ but not a configuration (no preset?): move helpers to cmake/"; fi
done
echo 'find_package(CUDAToolkit REQUIRED)' > "$drv/configs/helper-only.cmake"
cp "$drv/configs/helper-only.cmake" "$tree/configs/"
expect "build refuses the CMake helper find-cudatoolkit-first" 2 "unknown configuration 'find-cudatoolkit-first'" \
  "$drv/kapi" build find-cudatoolkit-first
expect "build refuses a configs/ file without a preset" 2 "unknown configuration 'helper-only'" \
  "$drv/kapi" build helper-only
expect "build refuses a preset without a configs/ file" 2 "unknown configuration 'base'" "$drv/kapi" build base
expect "test refuses a pattern for a name" 2 "unknown configuration 'o.enmp'" "$drv/kapi" test o.enmp
expect "configs leaves out a configs/ file without a preset" 0 'openmp' "$drv/kapi" configs
if grep -qx helper-only <<< "$out"; then fail "configs lists helper-only (no preset)"; else pass "configs lists no helper-only"; fi
expect "setup-deps.sh refuses a configs/ file without a preset" 2 "^kapi: unknown configuration 'helper-only'" \
  "$tree/scripts/setup-deps.sh" helper-only
absent "a refused configuration writes no cache" "$KAPI_CACHE"

# ---- 3. flags a command does not take are refused, with the ones it does ----------------
expect "test refuses a misspelt flag" 2 "unknown flag '--santize' for 'test'; accepted: --compile-only --sanitize --compute-sanitizer" \
  "$drv/kapi" test openmp --santize
expect "test refuses a misspelt flag (no configuration)" 2 "unknown flag '--santize'" "$drv/kapi" test --santize
expect "build refuses a flag of test" 2 "unknown flag '--compile-only' for 'build'; accepted: --sanitize" \
  "$drv/kapi" build openmp --compile-only
expect "setup refuses flags" 2 "unknown flag '--sanitize' for 'setup'; accepted: none" "$drv/kapi" setup openmp --sanitize
expect "test refuses a second configuration" 2 "unexpected argument 'serial' for 'test'" "$drv/kapi" test openmp serial
expect "configs refuses arguments" 2 "configs takes no arguments" "$drv/kapi" configs openmp
expect "run refuses the cross configuration before building" 2 "^kapi: run: 'openmp-aarch64' builds no benchmarks" \
  "$drv/kapi" run openmp-aarch64
expect "run refuses a misspelt flag before building" 2 "unknown flag '--santize'.*accepted: --full --quick --apps" \
  "$drv/kapi" run openmp --santize
expect "run refuses a flag of test" 2 "unknown flag '--sanitize'" "$drv/kapi" run --sanitize
expect "run refuses --apps without a list" 2 "--apps needs a list" "$drv/kapi" run openmp --apps
expect "run-suite.sh refuses a misspelt flag" 2 "unknown flag '--ful'.*accepted: --full" "$tree/scripts/run-suite.sh" openmp --ful
# The flags each command takes still get through (to the stubbed setup).
expect "test takes its flags" 98 "STUB setup-deps.sh reached: openmp" "$drv/kapi" test openmp --compile-only --sanitize --compute-sanitizer --rerun
expect "test takes its flags without a configuration" 98 "STUB setup-deps.sh reached: openmp" "$drv/kapi" test --sanitize
expect "build takes --sanitize" 98 "STUB setup-deps.sh reached: serial" "$drv/kapi" build serial --sanitize
expect "run takes run-suite.sh's flags" 98 "STUB setup-deps.sh reached: threads" \
  "$drv/kapi" run threads --full --apps "matmul reduce" --out "$work/out" --no-verify -- --benchmark_filter=x --santize
absent "refused flags write no build folder" "$drv/build/openmp" "$drv/build/openmp-sanitize" "$work/out"

# ---- 1. KAPI_OFFLINE: checked first, a broken pack fails, complete only when whole -----
setup() { "$tree/scripts/setup-deps.sh" openmp; }
leftovers() { echo "$KAPI_CACHE"/.[!.]* "$KAPI_CACHE"/src "$KAPI_CACHE/env.sh"; }
# shellcheck disable=SC2046  # leftovers' paths are globs, expanded here
{
  KAPI_OFFLINE=$work/no-such-pack expect "a missing KAPI_OFFLINE folder is named" 2 \
    "^kapi: KAPI_OFFLINE=$work/no-such-pack: no such folder" setup
  absent "a missing KAPI_OFFLINE folder leaves nothing" "$KAPI_CACHE"
  KAPI_OFFLINE=$work/no-such-pack expect "./kapi setup with a missing KAPI_OFFLINE folder" 2 \
    "^kapi: KAPI_OFFLINE=.*no-such-pack: no such folder" "$tree/kapi" setup openmp
  absent "./kapi setup with a missing KAPI_OFFLINE folder leaves nothing" "$KAPI_CACHE"
  mkdir -p "$work/empty-pack"
  KAPI_OFFLINE=$work/empty-pack expect "a KAPI_OFFLINE folder without debs/" 2 \
    "^kapi: KAPI_OFFLINE=$work/empty-pack has no debs/\\*\\.deb" setup
  absent "a KAPI_OFFLINE folder without debs/ leaves nothing" "$KAPI_CACHE"/*
  if command -v dpkg-deb > /dev/null; then
    # A tiny valid package, a corrupt one and the sources tarball, good and corrupt.
    mkdir -p "$work/pkg/DEBIAN" "$work/pkg/usr/share/kapi-probe"
    printf 'Package: kapi-probe\nVersion: 1.0\nArchitecture: all\nMaintainer: kapi <kapi@example.org>\nDescription: probe\n' \
      > "$work/pkg/DEBIAN/control"
    echo probe > "$work/pkg/usr/share/kapi-probe/hello"
    chmod 755 "$work/pkg" "$work/pkg/DEBIAN"
    mkdir -p "$work/good/debs" "$work/srcs/kokkos/bin" "$work/srcs/kokkos-kernels"
    dpkg-deb -Zgzip --build "$work/pkg" "$work/good/debs/kapi-probe_1.0_all.deb" > /dev/null
    tar -czf "$work/good/kokkos-3.4.01-sources.tar.gz" -C "$work/srcs" kokkos kokkos-kernels
    mkdir -p "$work/no-sources/debs" "$work/bad-deb/debs" "$work/bad-tar/debs"
    cp "$work/good/debs/"*.deb "$work/no-sources/debs/"
    cp -R "$work/good/." "$work/bad-deb/"
    echo 'not a Debian package' > "$work/bad-deb/debs/zzz-broken_1.0_all.deb"
    cp "$work/good/debs/"*.deb "$work/bad-tar/debs/"
    head -c 3000 /dev/urandom > "$work/bad-tar/kokkos-3.4.01-sources.tar.gz"

    KAPI_OFFLINE=$work/no-sources expect "a KAPI_OFFLINE folder without the Kokkos sources" 2 \
      "^kapi: KAPI_OFFLINE=$work/no-sources has no kokkos-3.4.01-sources.tar.gz" setup
    absent "a KAPI_OFFLINE folder without the sources leaves nothing" "$KAPI_CACHE"/*
    KAPI_OFFLINE=$work/bad-deb Kokkos_ROOT=$work/kokkos expect "a corrupt .deb fails setup" 2 \
      "^kapi: KAPI_OFFLINE=$work/bad-deb: debs/zzz-broken_1.0_all.deb is not a usable Debian package" setup
    absent "a corrupt .deb leaves no private root, env.sh or scratch" "$KAPI_CACHE/debian-root" $(leftovers)
    KAPI_OFFLINE=$work/bad-tar expect "a corrupt sources tarball fails setup" 2 \
      "^kapi: KAPI_OFFLINE=$work/bad-tar: kokkos-3.4.01-sources.tar.gz could not be unpacked" setup
    absent "a corrupt sources tarball leaves no sources, env.sh or scratch" $(leftovers)
    rm -rf "$KAPI_CACHE"
    KAPI_OFFLINE=$work/good Kokkos_ROOT=$work/kokkos expect "a good pack with your own Kokkos sets up" 0 \
      "using Kokkos_ROOT" setup
    present "a good pack: complete private root and env.sh" "$KAPI_CACHE/debian-root/.complete" \
      "$KAPI_CACHE/debian-root/usr/share/kapi-probe/hello" "$KAPI_CACHE/env.sh"
    if grep -q "CMAKE_PREFIX_PATH=$KAPI_CACHE/debian-root/usr" "$KAPI_CACHE/env.sh" 2> /dev/null; then
      pass "env.sh points CMake at the private root"
    else fail "env.sh does not point CMake at the private root"; fi
    absent "a good pack leaves no scratch" "$KAPI_CACHE"/.[!.]*
    rm -f "$KAPI_CACHE/env.sh"
    # Then Kokkos from the pack: the sources unpack, the (stubbed) build fails, no env.sh.
    KAPI_OFFLINE=$work/good expect "the Kokkos build from a good pack reaches cmake (a stub here)" 1 "STUB cmake" setup
    present "a good pack's sources unpack into the cache" "$KAPI_CACHE/src/trilinos-13.2.0/packages/kokkos-kernels"
    absent "a failed Kokkos build writes no env.sh and leaves no scratch" "$KAPI_CACHE/env.sh" "$KAPI_CACHE"/.[!.]*
  else
    echo "skip: no dpkg-deb, the checks of packed Debian packages are left out"
  fi
  # pack-offline.sh: a failed download (apt-get is a stub here) leaves no pack that looks whole.
  rm -rf "$KAPI_CACHE"
  mkdir -p "$KAPI_CACHE/src/trilinos-13.2.0/packages" "$work/pack"
  cp -R "$work/srcs/kokkos" "$work/srcs/kokkos-kernels" "$KAPI_CACHE/src/trilinos-13.2.0/packages/" 2> /dev/null ||
    mkdir -p "$KAPI_CACHE/src/trilinos-13.2.0/packages/"{kokkos,kokkos-kernels}
  expect "pack-offline.sh with a failed download" 1 "^kapi: apt-get download of the Debian packages failed" \
    "$tree/scripts/pack-offline.sh" "$work/pack"
  absent "a failed pack-offline.sh leaves no partial pack" "$work/pack/debs" "$work/pack/kokkos-3.4.01-sources.tar.gz" \
    "$work"/pack/.[!.]*
  # --no-mpi asks for the packages without OpenMPI's (an apt-get that records what it was asked).
  mkdir -p "$work/bin-record"
  printf '#!/bin/sh\necho "$*" > "%s/asked"\nexit 97\n' "$work" > "$work/bin-record/apt-get"
  chmod +x "$work/bin-record/apt-get"
  for mode in with-mpi no-mpi; do
    rm -f "$work/asked"
    flags=()
    [ "$mode" = no-mpi ] && flags=(--no-mpi)
    PATH=$work/bin-record:$PATH expect "pack-offline.sh ($mode) asks apt-get" 1 "^kapi: apt-get download" \
      "$tree/scripts/pack-offline.sh" ${flags[@]+"${flags[@]}"} "$work/pack"
    if ! grep -q libbenchmark-dev "$work/asked" 2> /dev/null; then
      fail "pack-offline.sh ($mode): apt-get was not asked for the build's packages"
    elif grep -q openmpi "$work/asked" && [ "$mode" = no-mpi ]; then
      fail "pack-offline.sh --no-mpi still asks for OpenMPI: $(cat "$work/asked")"
    elif ! grep -q openmpi "$work/asked" && [ "$mode" = with-mpi ]; then
      fail "pack-offline.sh without --no-mpi leaves OpenMPI out: $(cat "$work/asked")"
    else
      pass "pack-offline.sh ($mode): OpenMPI asked for only without --no-mpi"
    fi
  done
  expect "pack-offline.sh rejects an unknown option" 2 "^kapi: pack-offline.sh: unknown option '--mpi'" \
    "$tree/scripts/pack-offline.sh" --mpi "$work/pack"
  rm -rf "$KAPI_CACHE"
}

# ---- 4. report and compare: one line and exit status 2 for missing or broken results ---
py_json() {  # py_json <file> <app> <sizes...>: a small Google Benchmark JSON, two variants per size
  local file=$1 app=$2 n sep=""
  shift 2
  {
    echo '{"context": {"kapi_config": "openmp", "kokkos_backend": "OpenMP", "date": "2026-01-01"}, "benchmarks": ['
    for n in "$@"; do
      echo "$sep"'{"name": "'"$app"'/f32/copy/n:'"$n"'/real_time", "run_type": "iteration", "repetitions": 1,
        "real_time": 4.0, "time_unit": "us", "GB/s": 10.0, "label": "anchor"},
       {"name": "'"$app"'/f32/range/n:'"$n"'/real_time", "run_type": "iteration", "repetitions": 1,
        "real_time": 5.0, "time_unit": "us", "GB/s": 8.0, "pct_of_anchor": 80.0, "label": "kapi"}'
      sep=,
    done
    echo ']}'
  } > "$file"
}
r=$work/results
mkdir -p "$r/good" "$r/other" "$r/empty" "$r/corrupt" "$r/no-json" "$r/dir-report"
py_json "$r/good/demo.json" demo 4096 65536  # two sizes: plotted where there is matplotlib
py_json "$r/other/other.json" other 4096
py_json "$r/dir-report/demo.json" demo 4096
mkdir "$r/dir-report/report.md"
: > "$r/empty/demo.json"
printf '{"context": {}, "benchmarks": [' > "$r/corrupt/demo.json"
expect "report of a missing folder" 2 "^kapi: report: .*no-such-run: no such results folder" "$tree/kapi" report "$r/no-such-run"
expect "report of an empty JSON" 2 "^kapi: report: .*empty/demo.json: empty" "$tree/kapi" report "$r/empty"
expect "report of a corrupt JSON" 2 "^kapi: report: .*corrupt/demo.json: not valid JSON" "$tree/kapi" report "$r/corrupt"
expect "report of a folder without JSON" 2 "^kapi: report: .*no-json: no \\*\\.json" "$tree/kapi" report "$r/no-json"
expect "report of a file" 2 "^kapi: report: .*demo.json: not a folder" "$tree/kapi" report "$r/good/demo.json"
expect "report refuses a second folder" 2 "^kapi: report: unrecognized arguments" "$tree/kapi" report "$r/good" "$r/other"
absent "failed reports write no report.md" "$r/empty/report.md" "$r/corrupt/report.md" "$r/no-json/report.md"
expect "report that cannot write report.md" 2 "^kapi: report: cannot write .*dir-report/report.md" \
  "$tree/kapi" report "$r/dir-report"
absent "a report that cannot be written leaves no temporary file" "$r"/dir-report/.report.md*
expect "report of a good run" 0 "demo" "$tree/kapi" report "$r/good"
present "report of a good run writes report.md" "$r/good/report.md"
absent "report leaves no temporary file" "$r"/good/.report.md* "$r"/good/plots/.*.tmp
if [ -f "$r/good/plots/demo.png" ]; then pass "report drew plots/demo.png"; else echo "skip: no plots (no matplotlib)"; fi
# An app with benchmarks of two types gets a table for each (the first type's alone before
# the benchmark of group kernels, whose kernels are its types).
mkdir -p "$r/two-types"
py_json "$r/two-types/f32.part" demo 4096
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
d["benchmarks"] += [dict(b, name=b["name"].replace("/f32/", "/f64/"), real_time=2 * b["real_time"]) for b in d["benchmarks"]]
json.dump(d, open(sys.argv[2], "w"))' "$r/two-types/f32.part" "$r/two-types/demo.json"
rm "$r/two-types/f32.part"
expect "report of an app with two types" 0 "demo \\(f64" "$tree/kapi" report "$r/two-types"
if grep -q "^## demo (f32" "$r/two-types/report.md" && grep -q "^## demo (f64" "$r/two-types/report.md"; then
  pass "the report has a table per type"
else fail "the report of an app with two types lacks one of its tables"; fi
# Scaling results of two sizes of one app, kind, type and variant get a plot each (both
# were drawn to one name before e8412ab, the second over the first).
mkdir -p "$r/scaling"
py_json "$r/scaling/demo.json" demo 4096
for n in 64 128; do
  for p in 1 2; do
    echo '{"kind": "strong", "summary": {"app": "mpi-heat3d", "space": "OpenMP", "ranks": '$p', "grid": "'$p'x1x1",
      "transport": "test transport '$p'",
      "results": [{"type": "double", "variant": "nd-range", "nx": '$n', "ny": '$n', "nz": '$n',
      "median_s": 0.0'$p', "gpoints_per_s": 1.0, "pass": true, "verified": "all"}]}}' | tr -d '\n'
    echo
  done
done > "$r/scaling/scaling.jsonl"
expect "report of a run with scaling results at two sizes" 0 "heat3d, strong scaling" "$tree/kapi" report "$r/scaling"
# The report names how data moved between ranks (the runs of several ranks' transport).
if grep -q "data between ranks: test transport 2\." "$r/scaling/report.md"; then pass "the scaling report names the transport"
else fail "the scaling report does not name the 2-rank runs' transport"; fi
if grep -q "plots/scaling-" "$r/scaling/report.md"; then
  plots=$(grep -o "plots/scaling-heat3d-strong-double-nd-range[^)]*[.]png" "$r/scaling/report.md" | sort -u)
  if [ "$(wc -l <<< "$plots")" = 2 ] && [ -f "$r/scaling/$(head -1 <<< "$plots")" ] &&
    [ -f "$r/scaling/$(tail -1 <<< "$plots")" ]; then
    pass "two sizes of one scaling series get two plots"
  else
    fail "two sizes of one scaling series: plots $(tr '\n' ' ' <<< "$plots")"
  fi
else
  echo "skip: no scaling plots (no matplotlib)"
fi
cp "$r/good/report.md" "$work/report.before"
cp "$r/corrupt/demo.json" "$r/good/zz-broken.json"
expect "report of a run with one corrupt JSON" 2 "^kapi: report: .*zz-broken.json: not valid JSON" "$tree/kapi" report "$r/good"
if cmp -s "$r/good/report.md" "$work/report.before"; then pass "a failed report keeps the previous report.md"
else fail "a failed report changed the previous report.md"; fi
rm "$r/good/zz-broken.json"
expect "compare with a missing run" 2 "^kapi: compare: .*no-such-run: no such results folder or JSON file" \
  "$tree/kapi" compare "$r/no-such-run" "$r/good"
expect "compare with an empty JSON" 2 "^kapi: compare: .*empty/demo.json: empty" "$tree/kapi" compare "$r/good" "$r/empty"
expect "compare with a corrupt JSON" 2 "^kapi: compare: .*corrupt/demo.json: not valid JSON" \
  "$tree/kapi" compare "$r/corrupt/demo.json" "$r/good"
expect "compare of runs with nothing in common" 2 "^kapi: compare: .*have no benchmark in common" \
  "$tree/kapi" compare "$r/good" "$r/other"
expect "compare with a broken --filter" 2 "^kapi: compare: --filter '\\(' is not a regular expression" \
  "$tree/kapi" compare "$r/good" "$r/good" --filter '('
expect "compare with an unknown flag" 2 "^kapi: compare: unrecognized arguments: --santize" \
  "$tree/kapi" compare "$r/good" "$r/good" --santize
expect "compare of a run with itself" 0 "demo .*1\\.000x over +4 benchmarks" "$tree/kapi" compare "$r/good" "$r/good/demo.json"

# ---- 5. kapi new: names the build cannot use are refused, nothing written ---------------
long65=$(printf 'a%.0s' $(seq 65))
long241=$(printf 'b%.0s' $(seq 241))
expect "new refuses an OpenMP function's name" 2 "^new-app: 'omp_get_wtime' is in the OpenMP" "$tree/kapi" new omp_get_wtime
expect "new refuses the OpenMP prefix" 2 "^new-app: 'omp_stencil' is in the OpenMP" "$tree/kapi" new omp_stencil
expect "new refuses the Kokkos prefix" 2 "^new-app: 'kokkos_stencil' is in the OpenMP .* or Kokkos" "$tree/kapi" new kokkos_stencil
expect "new refuses a 65-character name" 2 "^new-app: 'a{40}\\.\\.\\.' is 65 characters long: an app name has at most 64" \
  "$tree/kapi" new "$long65"
expect "new refuses a 241-character name" 2 "is 241 characters long" "$tree/kapi" new "$long241"
expect "new still refuses a keyword" 2 "'namespace' is a C\\+\\+ keyword" "$tree/kapi" new namespace
if [ -z "$(find "$tree/apps" "$tree/tests" "$tree/bench" -mindepth 1 | head -1)" ]; then
  pass "refused names write nothing"
else
  fail "refused names left files: $(find "$tree/apps" "$tree/tests" "$tree/bench" -mindepth 1 | head -5 | tr '\n' ' ')"
fi
expect "new takes a 64-character name" 0 "created the app" "$tree/kapi" new "${long65:1}"
present "new wrote the app" "$tree/apps/${long65:1}/include/${long65:1}/${long65:1}.hpp" \
  "$tree/tests/test_app_${long65:1}.cpp" "$tree/bench/bench_${long65:1}.cpp"

echo "driver checks: $passed passed, $failed failed"
[ "$failed" = 0 ]
