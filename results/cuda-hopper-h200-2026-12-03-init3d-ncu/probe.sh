# SPDX-License-Identifier: Apache-2.0
# The probe run on the GPU machine (device tool): build, init3d at N = 1000, Nsight Compute.
set -x
KAPI_OFFLINE=.offline KAPI_JOBS=16 ./kapi build cuda-hopper > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
A=build/cuda-hopper/apps/init3d/kapi-init3d
NCU=/usr/local/cuda/bin/ncu
$NCU --set full --import-source no --launch-count 1 -k regex:cuda_groups $A --n 1000 --policy kapi-nd-range --repeat 1 > $OUT/ncu-nd.txt 2>&1
$NCU --set full --launch-count 1 -k regex:cuda_range $A --n 1000 --policy kapi-range --repeat 1 > $OUT/ncu-range.txt 2>&1
$NCU --section SourceCounters --print-details all --launch-count 1 -k regex:cuda_groups $A --n 1000 --policy kapi-nd-range --repeat 1 > $OUT/ncu-nd-src.txt 2>&1
cuobjdump -sass -fun cuda_groups $A > $OUT/nd.sass 2>&1 || cuobjdump -sass $A | grep -A200 "cuda_groups.*InitBody" | head -400 > $OUT/nd.sass
grep -c "" $OUT/*.txt $OUT/nd.sass
