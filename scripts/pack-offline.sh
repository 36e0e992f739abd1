#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Packs what `./kapi` downloads into one folder, for a machine without network (an
# air-gapped cluster node, a lent GPU machine): the Kokkos 3.4.01 / Kokkos Kernels 3.4.01
# sources and the Debian packages the build needs, OpenMPI's with the libraries it loads
# that a machine without MPI lacks (about 7 MB; setup unpacks them into a private root and
# relocates OpenMPI there with OPAL_PREFIX). There, run
#   KAPI_OFFLINE=<folder> ./kapi test <config>
#   scripts/pack-offline.sh [--no-mpi] [folder]   (default: .offline, ignored by git)
#     --no-mpi  leaves OpenMPI and its libraries out (about 7 MB less): for one machine
#               that runs no MPI, where what is uploaded is capped; the build then has
#               no kapi-mpi
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
die() { echo "kapi: $*" >&2; exit "${rc:-1}"; }
mpi=1
folders=()
for arg in "$@"; do
  case $arg in
    --no-mpi) mpi=0 ;;
    -*) rc=2 die "pack-offline.sh: unknown option '$arg' (it takes --no-mpi and a folder)" ;;
    *) folders+=("$arg") ;;
  esac
done
set -- ${folders[@]+"${folders[@]}"}
[ $# -le 1 ] || rc=2 die "pack-offline.sh takes one folder (got $#: $*)"
mkdir -p "${1:-$here/.offline}" || rc=2 die "cannot create the folder '${1:-$here/.offline}'"
out=$(cd "${1:-$here/.offline}" && pwd)
cache=${KAPI_CACHE:-$HOME/.cache/kapi}
src=$cache/src/trilinos-13.2.0/packages
if [ ! -d "$src/kokkos-kernels" ]; then
  # The source download is part of any configuration's setup; serial is the quickest.
  (unset KAPI_OFFLINE; "$here/scripts/setup-deps.sh" serial)
fi
# Everything is written beside its final place and renamed when complete, so that a failed
# or interrupted pack never leaves a folder that looks whole (setup-deps.sh checks it).
scratch=()
trap 'rm -rf ${scratch[@]+"${scratch[@]}"}' EXIT
tmp=$(mktemp "$out/.kokkos-3.4.01-sources.tar.gz.XXXXXX"); scratch+=("$tmp")
tar -czf "$tmp" -C "$src" kokkos kokkos-kernels || die "packing the Kokkos sources from $src failed"
debs=$(mktemp -d "$out/.debs.XXXXXX"); scratch+=("$debs")
packages=(libgtest-dev libgmock-dev googletest libbenchmark-dev libbenchmark1debian
          libopenblas-dev libopenblas-pthread-dev libopenblas0-pthread)
[ "$mpi" = 0 ] ||
  packages+=(openmpi-bin openmpi-common libopenmpi3 libopenmpi-dev libevent-core-2.1-7 libevent-pthreads-2.1-7
             libfabric1 libhwloc15 libibverbs1 libnl-3-200 libnl-route-3-200 libpmix2 libpsm-infinipath1 libpsm2-2
             libucx0 librdmacm1 libmunge2 libnuma1)
(cd "$debs" && apt-get download -o APT::Sandbox::User=root "${packages[@]}" >/dev/null) ||
  die "apt-get download of the Debian packages failed (network? Debian 12's archive in the apt sources?)"
for d in "$debs"/*.deb; do dpkg-deb --info "$d" > /dev/null 2>&1 || die "downloaded ${d##*/} is not a valid Debian package"; done
chmod 644 "$tmp" "$debs"/*.deb && chmod 755 "$debs"
rm -rf "$out/debs" && mv "$debs" "$out/debs" && mv -f "$tmp" "$out/kokkos-3.4.01-sources.tar.gz"
du -sh "$out"
