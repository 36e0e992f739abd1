#!/usr/bin/env bash
# Packs what `./kapi` downloads into one folder, for a machine without network (an
# air-gapped cluster node, a lent GPU machine): the Kokkos 3.4.01 / Kokkos Kernels 3.4.01
# sources and the Debian packages the build needs. There, run
#   KAPI_OFFLINE=<folder> ./kapi test <config>
#   scripts/pack-offline.sh [folder]      (default: .offline, ignored by git)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=$(mkdir -p "${1:-$here/.offline}" && cd "${1:-$here/.offline}" && pwd)
cache=${KAPI_CACHE:-$HOME/.cache/kapi}
src=$cache/src/trilinos-13.2.0/packages
if [ ! -d "$src/kokkos-kernels" ]; then
  # The source download is part of any configuration's setup; serial is the quickest.
  "$here/scripts/setup-deps.sh" serial
fi
tar -czf "$out/kokkos-3.4.01-sources.tar.gz" -C "$src" kokkos kokkos-kernels
mkdir -p "$out/debs"
(cd "$out/debs" && apt-get download -o APT::Sandbox::User=root \
   libgtest-dev libgmock-dev googletest libbenchmark-dev libbenchmark1debian \
   libboost-context1.74-dev libboost-context1.74.0 libboost1.74-dev \
   libopenblas-dev libopenblas-pthread-dev libopenblas0-pthread >/dev/null)
du -sh "$out"
