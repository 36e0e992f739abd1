#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs what a configuration needs and prints nothing but progress; idempotent.
#   scripts/setup-deps.sh <config>
# Debian packages: GoogleTest, Google Benchmark, OpenBLAS, matplotlib, ccache, Boost.Context
# (off x86-64 only: the host engine's own context switch needs none there),
# OpenMPI (the MPI layer and the distributed apps; KAPI_ENABLE_MPI=OFF builds without it)
# (and hipcc for the hip configuration; the aarch64 cross compiler, qemu-user and GoogleTest
# built for aarch64 for openmp-aarch64).
# Kokkos + Kokkos Kernels 3.4.01: built from Debian's trilinos 13.2 source package, one
# install per configuration under $KAPI_CACHE (default ~/.cache/kapi), unless the user
# gives their own Kokkos with Kokkos_ROOT. The hip configuration has no Kokkos Kernels.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
config=${1:?usage: setup-deps.sh <config>}
say() { printf '[kapi setup] %s\n' "$*"; }
die() {  # die <exit status> <message>: one line, and the partial folders go (trap below)
  local rc=$1; shift
  echo "kapi: $*" >&2
  exit "$rc"
}
# Scratch folders of this run: removed on any exit; what succeeded was renamed out of them.
scratch=()
trap 'rm -rf ${scratch[@]+"${scratch[@]}"}' EXIT
# A configuration has its Kokkos options in configs/<name>.cmake and a preset (as ./kapi checks).
configs=""
for f in "$here"/configs/*.cmake; do
  name=${f##*/}; name=${name%.cmake}
  [[ "$name" =~ ^[A-Za-z0-9][A-Za-z0-9_.-]*$ ]] &&
    grep -q "\"name\": *\"${name//./\\.}\"" "$here/CMakePresets.json" && configs+="$name "
done
[[ " $configs" == *" $config "* ]] || die 2 "unknown configuration '$config'; choose one of: $configs"
cache=${KAPI_CACHE:-$HOME/.cache/kapi}
jobs=${KAPI_JOBS:-$(nproc)}
offline=${KAPI_OFFLINE:-}

# --- what is needed, checked before anything is written --------------------------
prefix=$cache/$config/install
need_kokkos=1
if [ -n "${Kokkos_ROOT:-}" ] || [ -f "$prefix/.kapi-complete" ]; then need_kokkos=0; fi
has_sources() { [ -d "$1/kokkos" ] && [ -d "$1/kokkos-kernels" ]; }
src=${KAPI_KOKKOS_SOURCES:-$cache/src/trilinos-13.2.0/packages}
if [ "$need_kokkos" = 1 ] && [ -n "${KAPI_KOKKOS_SOURCES:-}" ] && ! has_sources "$src"; then
  die 2 "KAPI_KOKKOS_SOURCES=$src holds no kokkos/ and kokkos-kernels/ folders"
fi
tarball=kokkos-3.4.01-sources.tar.gz
if [ -n "$offline" ]; then
  # The folder scripts/pack-offline.sh writes: debs/*.deb and the Kokkos sources tarball.
  pack="pack one with scripts/pack-offline.sh on a machine with network"
  [ -d "$offline" ] || die 2 "KAPI_OFFLINE=$offline: no such folder ($pack)"
  offline=$(cd "$offline" && pwd)
  debs=("$offline"/debs/*.deb)
  [ -f "${debs[0]}" ] || die 2 "KAPI_OFFLINE=$offline has no debs/*.deb: not a folder from scripts/pack-offline.sh ($pack)"
  if [ "$need_kokkos" = 1 ] && ! has_sources "$src" && [ ! -f "$offline/$tarball" ]; then
    die 2 "KAPI_OFFLINE=$offline has no $tarball: not a folder from scripts/pack-offline.sh ($pack)"
  fi
  command -v dpkg-deb > /dev/null || die 1 "KAPI_OFFLINE needs dpkg-deb to unpack $offline/debs (Debian's dpkg)"
fi
# Success: the offline environment file is written last, so that it exists only after a
# complete setup (temporary file, then renamed).
finish() {
  if [ -n "$offline" ]; then
    local lib=$cache/debian-root/usr/lib/x86_64-linux-gnu tmp
    tmp=$(mktemp "$cache/.env.sh.XXXXXX"); scratch+=("$tmp")
    printf 'export CMAKE_PREFIX_PATH=%s${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}\nexport LD_LIBRARY_PATH=%s:%s/openblas-pthread${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\n' \
      "$cache/debian-root/usr" "$lib" "$lib" > "$tmp"
    if [ -e "$cache/debian-root/usr/bin/mpirun.openmpi" ]; then
      # OpenMPI moved from /usr: OPAL_PREFIX relocates its paths (wrapper data, components,
      # help files); its programs and libraries come first on the search paths; Debian's
      # /etc/openmpi settings are absent, so its warning about unused components is off.
      # PMIx has its own prefix: without PMIX_INSTALL_PREFIX it loads its plugins from
      # /usr, a machine's other PMIx if it has one (seen on the 2-GPU machine).
      printf 'export OPAL_PREFIX=%s\nexport PMIX_INSTALL_PREFIX=%s/pmix2\nexport PATH=%s/bin:$PATH\nexport LD_LIBRARY_PATH=%s/openmpi/lib:$LD_LIBRARY_PATH\nexport OMPI_MCA_btl_base_warn_component_unused=0\n' \
        "$cache/debian-root/usr" "$lib" "$cache/debian-root/usr" "$lib" >> "$tmp"
    fi
    chmod 644 "$tmp" && mv -f "$tmp" "$cache/env.sh"
  fi
  exit 0
}
first_line() { printf '%s' "$1" | grep -m1 . | cut -c1-200; }

# --- Debian packages --------------------------------------------------------------
pkgs=(cmake g++ ccache clang-format libgtest-dev libbenchmark-dev libopenblas-dev python3-matplotlib ca-certificates
      libopenmpi-dev openmpi-bin)
[ "$(uname -m)" = x86_64 ] || pkgs+=(libboost-context-dev)  # framework/src/host/context.hpp
[ "$config" = hip ] && pkgs+=(hipcc)  # ROCm 5.2.3's HIP compiler (clang 15) and runtime headers
# LLVM's compiler, its development files (the work-group loop pass) and OpenMP runtime
[ "${config#clang}" != "$config" ] && pkgs+=(clang-16 llvm-16-dev)
[ "$config" = clang ] && pkgs+=(libomp-16-dev)
if [ "${config#clang}" != "$config" ] && [ -n "$offline" ] && ! command -v clang++-16 > /dev/null; then
  needs="clang-16, llvm-16-dev"; [ "$config" = clang ] && needs+=" and libomp-16-dev"
  die 2 "the '$config' configuration needs Debian's $needs, which an offline pack does not carry; install them first"
fi
cross=0
[ "$config" != "${config%-aarch64}" ] && cross=1
# aarch64: the cross compiler (with the target's C and C++ runtimes and libgomp) and qemu-user.
[ "$cross" = 1 ] && pkgs+=(g++-aarch64-linux-gnu qemu-user-static)
if [ "$cross" = 1 ] && [ -n "$offline" ] && ! command -v aarch64-linux-gnu-g++ > /dev/null; then
  die 2 "the '$config' configuration needs Debian's g++-aarch64-linux-gnu and qemu-user-static, which an offline pack does not carry; install them first"
fi
missing=()
if [ -z "$offline" ]; then
  for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
fi
if [ -n "$offline" ]; then
  # No network: unpack the packed Debian packages (scripts/pack-offline.sh) into a private
  # root and point CMake at it; the system is left untouched. Unpacked into a scratch
  # folder, marked complete and renamed only when every package unpacked.
  root=$cache/debian-root
  if [ ! -f "$root/.complete" ]; then
    say "unpacking Debian packages from $offline/debs into $root"
    mkdir -p "$cache"
    tmp=$(mktemp -d "$cache/.debian-root.XXXXXX"); scratch+=("$tmp")
    for d in "${debs[@]}"; do
      err=$(dpkg-deb -x "$d" "$tmp" 2>&1) ||
        die 2 "KAPI_OFFLINE=$offline: debs/${d##*/} is not a usable Debian package ($(first_line "$err")); $pack"
    done
    if [ -e "$tmp/usr/bin/mpirun.openmpi" ]; then
      # The names Debian's update-alternatives would give OpenMPI's programs and headers
      # (what CMake's FindMPI looks for), relative links inside the root.
      for t in mpirun mpiexec mpicc mpicxx mpic++ mpiCC; do ln -sfn "$t.openmpi" "$tmp/usr/bin/$t"; done
      mkdir -p "$tmp/usr/include/x86_64-linux-gnu"
      ln -sfn ../../lib/x86_64-linux-gnu/openmpi/include "$tmp/usr/include/x86_64-linux-gnu/mpi"
    fi
    touch "$tmp/.complete" && chmod 755 "$tmp"
    rm -rf "$root" && mv "$tmp" "$root"
  fi
  export CMAKE_PREFIX_PATH=$root/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}
  if [ -e "$root/usr/bin/mpirun.openmpi" ]; then
    export OPAL_PREFIX=$root/usr PATH=$root/usr/bin:$PATH
  fi
fi
if [ ${#missing[@]} -gt 0 ]; then
  say "installing Debian packages: ${missing[*]}"
  sudo_=""; [ "$(id -u)" -eq 0 ] || sudo_=sudo
  $sudo_ apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo_ apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# --- GoogleTest for aarch64 -------------------------------------------------------
# Debian has no arm64 GoogleTest without multiarch; libgtest-dev ships its sources, built
# here with the cross compiler into $cache/<config>/gtest (./kapi passes it as GTest_ROOT).
if [ "$cross" = 1 ] && [ ! -f "$cache/$config/gtest/.kapi-complete" ]; then
  say "building GoogleTest for aarch64 from /usr/src/googletest"
  gwork=$(mkdir -p "$cache/$config" && mktemp -d "$cache/$config/.gtest-build.XXXXXX"); scratch+=("$gwork")
  cmake -S /usr/src/googletest -B "$gwork" -DCMAKE_TOOLCHAIN_FILE="$here/cmake/toolchains/aarch64-linux-gnu.cmake" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$cache/$config/gtest" > "$gwork.log" 2>&1 &&
    cmake --build "$gwork" -j "$jobs" >> "$gwork.log" 2>&1 && cmake --install "$gwork" >> "$gwork.log" 2>&1 ||
    { tail -30 "$gwork.log"; rm -f "$gwork.log"; die 1 "GoogleTest did not build for aarch64"; }
  rm -f "$gwork.log"
  touch "$cache/$config/gtest/.kapi-complete"
fi

# --- a user's own Kokkos wins ----------------------------------------------------
if [ -n "${Kokkos_ROOT:-}" ]; then say "using Kokkos_ROOT=$Kokkos_ROOT"; finish; fi

if [ -f "$prefix/.kapi-complete" ]; then say "Kokkos for '$config' already installed in $prefix"; finish; fi

# --- Kokkos sources from Debian's trilinos source package ------------------------
# KAPI_KOKKOS_SOURCES may point at an unpacked tree holding kokkos/ and kokkos-kernels/
# (or use KAPI_OFFLINE, see scripts/pack-offline.sh).
if [ -n "$offline" ] && ! has_sources "$src"; then
  # (src is the cache's folder here: a KAPI_KOKKOS_SOURCES without the sources was refused.)
  say "unpacking the Kokkos sources from $offline/$tarball"
  mkdir -p "$cache"
  tmp=$(mktemp -d "$cache/.sources.XXXXXX"); scratch+=("$tmp")
  err=$(tar -xzf "$offline/$tarball" -C "$tmp" 2>&1) ||
    die 2 "KAPI_OFFLINE=$offline: $tarball could not be unpacked ($(first_line "$err")); $pack"
  has_sources "$tmp" || die 2 "KAPI_OFFLINE=$offline: $tarball holds no kokkos/ and kokkos-kernels/; $pack"
  chmod 755 "$tmp" && mkdir -p "${src%/*}" && rm -rf "$src" && mv "$tmp" "$src"
fi
if ! has_sources "$src"; then
  apt_dir=$cache/apt; mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$cache/src"
  # Our own deb-src list, so the system's apt configuration is left untouched.
  echo "deb-src http://deb.debian.org/debian bookworm main" > "$apt_dir/sources.list"
  opts=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
        -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache" -o APT::Sandbox::User=root)
  say "downloading Debian's trilinos source package (Kokkos 3.4.01 inside)"
  apt-get -qq "${opts[@]}" update
  (cd "$cache/src" && apt-get -qq "${opts[@]}" source --download-only trilinos=13.2.0-4 >/dev/null)
  tarball=$(ls "$cache"/src/trilinos_13.2.0*.orig.tar.* | head -1)
  top=$(set +o pipefail; tar -tf "$tarball" | head -1 | cut -d/ -f1)
  say "unpacking packages/kokkos and packages/kokkos-kernels"
  tar -xf "$tarball" -C "$cache/src" "$top/packages/kokkos" "$top/packages/kokkos-kernels"
  rm -rf "$cache/src/trilinos-13.2.0" && mv "$cache/src/$top" "$cache/src/trilinos-13.2.0"
  src=$cache/src/trilinos-13.2.0/packages
fi

work=$cache/$config/work
rm -rf "$work" && mkdir -p "$work"
cp -r "$src/kokkos" "$src/kokkos-kernels" "$work/"
kokkos_cmake_args=()
if [ "$config" != "${config#cuda}" ]; then
  say "applying the project's CUDA 13 / Hopper compatibility patch to Kokkos 3.4.01"
  patch -d "$work/kokkos" -p1 -s < "$here/configs/patches/kokkos-3.4.01-cuda13-hopper.patch"
  patch -d "$work/kokkos-kernels" -p1 -s < "$here/configs/patches/kokkos-kernels-3.4.01-cuda13.patch"
  kokkos_cmake_args+=(-DCMAKE_CXX_COMPILER="$work/kokkos/bin/nvcc_wrapper")
fi
if [ "$config" = hip ]; then
  say "applying the project's MI200 (gfx90a) patch to Kokkos 3.4.01"
  patch -d "$work/kokkos" -p1 -s < "$here/configs/patches/kokkos-3.4.01-hip-vega90a.patch"
  kokkos_cmake_args+=(-DCMAKE_CXX_COMPILER=hipcc)
fi

say "building Kokkos 3.4.01 for '$config' ($jobs jobs; a few minutes)"
cmake -S "$work/kokkos" -B "$work/build-kokkos" -C "$here/configs/$config.cmake" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_CXX_STANDARD=17 \
  "${kokkos_cmake_args[@]}" > "$work/kokkos-configure.log" 2>&1 || { tail -30 "$work/kokkos-configure.log"; exit 1; }
cmake --build "$work/build-kokkos" -j "$jobs" > "$work/kokkos-build.log" 2>&1 || { tail -40 "$work/kokkos-build.log"; exit 1; }
cmake --install "$work/build-kokkos" > /dev/null

# Kokkos Kernels (not for hip: no rocBLAS anchors there, and the apps build without it;
# not for aarch64, which builds no benchmarks):
# no explicit instantiation (the apps instantiate the few kernels they
# use), BLAS from OpenBLAS on the host and cuBLAS on CUDA (no cuSPARSE: the calls that
# Kokkos Kernels 3.4.01 makes into it were removed in CUDA 12).
# OpenBLAS' Fortran symbols are lower case with a trailing underscore; saying so spares
# Kokkos Kernels from probing a Fortran compiler that GPU machines often lack.
kk_tpls=(-DKokkosKernels_ENABLE_TPL_BLAS=ON "-DF77_BLAS_MANGLE=(name,NAME) name ## _")
if [ -n "$offline" ]; then
  blas_dir=$cache/debian-root/usr/lib/x86_64-linux-gnu/openblas-pthread
  kk_tpls+=(-DBLAS_LIBRARY_DIRS="$blas_dir" -DLAPACK_LIBRARY_DIRS="$blas_dir")
fi
[ "$config" != "${config#cuda}" ] && kk_tpls+=(-DKokkosKernels_ENABLE_TPL_CUBLAS=ON -DKokkosKernels_ENABLE_TPL_CUSPARSE=OFF
  -DCMAKE_PROJECT_INCLUDE="$here/cmake/find-cudatoolkit-first.cmake")
if [ "$config" != hip ] && [ "$cross" = 0 ]; then
say "building Kokkos Kernels 3.4.01 for '$config'"
cmake -S "$work/kokkos-kernels" -B "$work/build-kk" -DKokkos_ROOT="$prefix" \
  -DCMAKE_CXX_COMPILER="$(grep -m1 '^CMAKE_CXX_COMPILER:' "$work/build-kokkos/CMakeCache.txt" | cut -d= -f2)" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" \
  -DKokkosKernels_INST_DOUBLE=OFF -DKokkosKernels_INST_FLOAT=OFF \
  -DKokkosKernels_INST_COMPLEX_DOUBLE=OFF -DKokkosKernels_INST_COMPLEX_FLOAT=OFF \
  -DKokkosKernels_INST_ORDINAL_INT=OFF -DKokkosKernels_INST_ORDINAL_INT64_T=OFF \
  -DKokkosKernels_INST_OFFSET_INT=OFF -DKokkosKernels_INST_OFFSET_SIZE_T=OFF \
  -DKokkosKernels_INST_LAYOUTLEFT=OFF -DKokkosKernels_INST_LAYOUTRIGHT=OFF \
  -DKokkosKernels_ENABLE_TESTS=OFF -DKokkosKernels_ENABLE_EXAMPLES=OFF \
  "${kk_tpls[@]}" > "$work/kk-configure.log" 2>&1 || { tail -30 "$work/kk-configure.log"; exit 1; }
cmake --build "$work/build-kk" -j "$jobs" > "$work/kk-build.log" 2>&1 || { tail -40 "$work/kk-build.log"; exit 1; }
cmake --install "$work/build-kk" > /dev/null
fi
touch "$prefix/.kapi-complete"
rm -rf "$work/build-kokkos" "$work/build-kk"
say "Kokkos for '$config' installed in $prefix"
finish
