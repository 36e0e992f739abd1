#!/usr/bin/env bash
# Kokkos develop 28848dfa8 (4.6.99) on the GPU: its mdspan View and its legacy View, each
# built by nvcc with the machine's g++, and a minimal program without kapi against each.
start=$SECONDS
export NVCC_WRAPPER_DEFAULT_ARCH=sm_90
{ ls /usr/bin/g++-* /usr/bin/clang++-*; g++ --version | head -1; command -v clang++ clang++-16 || echo "no clang"; nvcc --version | tail -2; nvidia-smi --query-gpu=name --format=csv,noheader; } 2>&1 | tee $OUT/env.txt
mkdir -p /tmp/k5 && tar xzf .k5/kokkos-28848dfa8.tar.gz -C /tmp/k5
sed -i "s/^default_arch=\"sm_70\"/default_arch=\"sm_90\"/" /tmp/k5/src/bin/nvcc_wrapper  # CUDA 13 has no sm_70
build() {  # build <name> <host compiler> <extra cmake args>
  local n=$1 host=$2; shift 2
  NVCC_WRAPPER_DEFAULT_COMPILER=$host cmake -S /tmp/k5/src -B /tmp/k5/b-$n -G Ninja -DCMAKE_CXX_COMPILER=/tmp/k5/src/bin/nvcc_wrapper \
    -DKokkos_ENABLE_CUDA=ON -DKokkos_ARCH_HOPPER90=ON -DKokkos_ENABLE_SERIAL=ON -DCMAKE_CXX_STANDARD=20 \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/tmp/k5/i-$n "$@" > $OUT/kokkos-$n.log 2>&1 &&
  NVCC_WRAPPER_DEFAULT_COMPILER=$host cmake --build /tmp/k5/b-$n -j 8 >> $OUT/kokkos-$n.log 2>&1 && cmake --install /tmp/k5/b-$n >> $OUT/kokkos-$n.log 2>&1
  local rc=$?
  echo "kokkos $n rc $rc at $((SECONDS - start)) s"
  [ $rc = 0 ] || grep -E "Error|error" $OUT/kokkos-$n.log | head -8
}
name() { case $1 in g++) echo gcc13 ;; g++-12) echo gcc12 ;; clang++-16) echo clang16 ;; esac; }
hosts=(g++ clang++-16); [ -x /usr/bin/g++-12 ] && hosts+=(g++-12)
for h in "${hosts[@]}"; do build mdspan-$(name $h) $h & done
build legacy-gcc13 g++ -DKokkos_ENABLE_IMPL_VIEW_LEGACY=ON &
wait
for hn in "${hosts[@]/%/:mdspan}" g++:legacy; do
  h=${hn%:*}
  n=${hn#*:}-$(name $h)
  export NVCC_WRAPPER_DEFAULT_COMPILER=$h
  cmake -S .k5/minimal -B /tmp/k5/m-$n -G Ninja -DCMAKE_CXX_COMPILER=/tmp/k5/i-$n/bin/nvcc_wrapper -DKokkos_ROOT=/tmp/k5/i-$n > $OUT/minimal-$n.log 2>&1 &&
    cmake --build /tmp/k5/m-$n >> $OUT/minimal-$n.log 2>&1 || { echo "minimal $n did not build"; tail -20 $OUT/minimal-$n.log; continue; }
  /tmp/k5/m-$n/minimal; echo "minimal $n (GPU, nvcc + $h) exit status $?"
  [ $n = mdspan-clang16 ] && compute-sanitizer --print-limit 2 /tmp/k5/m-$n/minimal 2>&1 | grep -vE "^=+ *$" | head -24 | cut -c1-220
done
echo "done $((SECONDS - start)) s"
