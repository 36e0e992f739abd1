#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# What a user's file costs to compile with kapi, against the same file with plain Kokkos:
# examples/compile-time/{plain_kokkos,range,range_and_nd_range}.cpp compiled alone (-c),
# in alternating rounds, with the host configuration's compiler and Kokkos, as a user's
# build compiles them (-O3, -fopenmp on openmp). Prints each file's CPU seconds per round
# (the compiler's user + system time: what the compile costs, and unlike wall time not
# inflated by whatever else the machine runs),
# the medians, and each median as a ratio to plain Kokkos'.
#
#   scripts/compile-time.sh [config] [rounds]     (default: openmp 3; Kokkos from
#                                                  ./kapi setup <config>, or Kokkos_ROOT)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
config=${1:-openmp} rounds=${2:-3}
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "compile-time.sh: rounds must be a positive integer (got '$rounds')" >&2; exit 2; }
case $config in
  openmp) flags=(-fopenmp) cxx=${CXX:-g++} ;;
  serial | threads) flags=(-pthread) cxx=${CXX:-g++} ;;
  clang) flags=(-fopenmp) cxx=${CXX:-clang++-16} ;;
  *) echo "compile-time.sh: '$config' is not a host configuration (openmp, threads, serial, clang)" >&2; exit 2 ;;
esac
kokkos=${Kokkos_ROOT:-${KAPI_CACHE:-$HOME/.cache/kapi}/$config/install}
[ -f "$kokkos/include/Kokkos_Core.hpp" ] ||
  { echo "compile-time.sh: no Kokkos in $kokkos (run ./kapi setup $config, or set Kokkos_ROOT)" >&2; exit 2; }
files=(plain_kokkos range range_and_nd_range)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
declare -A times
TIMEFORMAT="%3U %3S"  # bash's time: user and system seconds
for ((r = 1; r <= rounds; r++)); do
  for f in "${files[@]}"; do
    if ! { time "$cxx" -std=c++17 -O3 -DNDEBUG "${flags[@]}" -I"$here/framework/include" -isystem "$kokkos/include" \
      -c "$here/examples/compile-time/$f.cpp" -o "$out/$f.o" 2>"$out/$f.err"; } 2>"$out/$f.time"; then
      cat "$out/$f.err" >&2
      exit 1
    fi
    times[$f]+="$(awk '{printf "%.2f", $1 + $2}' "$out/$f.time") "
  done
done
median() { tr ' ' '\n' <<< "$1" | sed '/^$/d' | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
anchor=$(median "${times[plain_kokkos]}")
echo "compile time of one file ($cxx -O3 ${flags[*]} -c, $rounds alternating rounds, CPU seconds; Kokkos in $kokkos)"
printf '| %-22s | %-28s | %6s | %s |\n' file rounds median "vs plain Kokkos"
echo '| --- | --- | --- | --- |'
for f in "${files[@]}"; do
  m=$(median "${times[$f]}")
  printf '| %-22s | %-28s | %6.2f | %.2fx |\n' "$f.cpp" "$(printf '%.2f ' ${times[$f]})" "$m" "$(awk -v a="$m" -v b="$anchor" 'BEGIN {print a / b}')"
done
