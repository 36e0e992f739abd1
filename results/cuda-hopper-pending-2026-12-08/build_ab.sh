#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Compiles $1.cpp of this folder with bench_heat3d.cpp's flags and links it like bench_heat3d (README.md).
set -euo pipefail
B=build/cuda-hopper
name=$1
cc=$(ninja -C $B -t commands bench/bench_heat3d | grep -- "-c /.*bench/bench_heat3d.cpp" | tail -1 | sed 's/^.*ccache //')
src=$(cd "$(dirname "$0")" && pwd)/$name.cpp
cc=${cc//"$PWD/bench/bench_heat3d.cpp"/"$src"}
cc=$(echo "$cc" | sed -E "s# -o [^ ]+# -o /tmp/$name.o#; s# -MD -MT [^ ]+ -MF [^ ]+##")
(cd $B && eval "$cc -Xptxas=-v" 2>&1 | grep -E "Planes|registers" | grep -B1 registers | head -60 > $OUT/ptxas-$name.txt || true)
ld=$(ninja -C $B -t commands bench/bench_heat3d | tail -1 | sed 's/^.*ccache //')
ld=$(echo "$ld" | sed -E "s# -o [^ ]+# -o /tmp/$name#; s# [^ ]*bench_heat3d.cpp.o# /tmp/$name.o#; s# [^ ]*bench_main[^ ]*\.o##g")
echo "$ld" > $OUT/ld-$name.txt
(cd $B && eval "$ld")
