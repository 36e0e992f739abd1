#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# kapi-test-cache: reads only its arguments (and the packages' files: qemu, the sysroot)
# Runs an aarch64 program under qemu-user (the cross configurations' CMAKE_CROSSCOMPILING_EMULATOR):
#   run-under-qemu.sh <program> [args...]
# The program sees this script as its argv[0], so that a program that executes itself again
# (GoogleTest's death tests run each in a fresh copy: execv(argv[0], ...)) comes back here
# rather than to the host kernel, which cannot run an aarch64 binary without binfmt_misc.
# That second call carries no program: KAPI_QEMU_PROGRAM, set by the first, names it.
set -eu
sysroot=${KAPI_QEMU_SYSROOT:-/usr/aarch64-linux-gnu}
if [ -n "${KAPI_QEMU_PROGRAM:-}" ] && { [ $# -eq 0 ] || [ "${1#-}" != "$1" ]; }; then
  program=$KAPI_QEMU_PROGRAM
else
  [ $# -ge 1 ] || { echo "run-under-qemu.sh: usage: run-under-qemu.sh <program> [args...]" >&2; exit 2; }
  program=$1
  shift
fi
case "$program" in /*) ;; *) program=$PWD/$program ;; esac
export KAPI_QEMU_PROGRAM="$program"
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
exec qemu-aarch64-static -L "$sysroot" -0 "$self" "$program" "$@"
