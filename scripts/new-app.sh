#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Starts a new app from templates/app: a working kernel with its program, tests and benchmark.
#
#   scripts/new-app.sh <name> [--root DIR]        (or: ./kapi new <name>)
#
#   name        the app's name: lowercase letters, digits and underscores, starting with a
#               letter, at most 64 characters; it becomes the C++ namespace, so not a C++
#               keyword nor a name the C, C++, POSIX or OpenMP headers declare (omp_*, time,
#               index, ...) nor kokkos*, and it may not clash with the framework or an app,
#               test or benchmark that exists
#   --root DIR  the source tree to write into (default: the one this script belongs to)
#
# Creates, with <name> and <Name> (its CamelCase) filled in:
#   apps/<name>/CMakeLists.txt               the program kapi-<name> and its ctest runs
#   apps/<name>/include/<name>/<name>.hpp    the kernels (a three-point stencil: range,
#                                            nd-range with local memory and a barrier,
#                                            phased), their variant list and dispatch
#   apps/<name>/main.cpp                     kapi-<name>: verify against a host loop, time
#   tests/test_app_<name>.cpp                typed tests over the tested execution spaces
#   bench/bench_<name>.cpp                   Google Benchmark: the variants and an anchor
# The build, the test suite and scripts/run-suite.sh pick them up without further edits.
# Exit status: 0 created, 2 refused (nothing is written then).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
templates=$here/templates/app

usage() { sed -n '3,/^[^#]/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//'; }
refuse() {
  echo "new-app: $*" >&2
  exit 2
}

name="" root=$here
while [ $# -gt 0 ]; do
  case "$1" in
    -h | --help) usage; exit 0 ;;
    --root) [ $# -ge 2 ] || refuse "--root needs a directory"; root=$2; shift ;;
    --root=*) root=${1#--root=} ;;
    -*) refuse "unknown option '$1' (usage: scripts/new-app.sh <name> [--root DIR])" ;;
    *) [ -z "$name" ] || refuse "one name only (got '$name' and '$1')"; name=$1 ;;
  esac
  shift
done
[ -n "$name" ] || refuse "no app name given (usage: ./kapi new <name>, e.g. ./kapi new my_stencil)"
if [ ! -d "$root/apps" ] || [ ! -d "$root/tests" ] || [ ! -d "$root/bench" ]; then
  refuse "'$root' is not a kapi source tree (it has no apps/, tests/ and bench/)"
fi
root=$(cd "$root" && pwd)

# ---- is the name usable?
is_one_of() {  # is_one_of <word> <space-separated words>
  local w
  for w in $2; do [ "$w" = "$1" ] && return 0; done
  return 1
}
# Folders, file names (bench_<name>.cpp, ...) and CMake targets are made from it: short.
max_length=64
[ ${#name} -le $max_length ] ||
  refuse "'${name:0:40}...' is ${#name} characters long: an app name has at most $max_length"
[[ "$name" =~ ^[a-z][a-z0-9_]*$ ]] ||
  refuse "'$name' is not a valid app name: use lowercase letters, digits and underscores, starting with a letter (e.g. my_stencil)"
[[ "$name" != *__* ]] ||
  refuse "'$name' contains a double underscore: C++ reserves such names for the implementation"
# C++ keywords and alternative tokens (C++20), lowercase ones only: the name is a namespace.
keywords=" alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t
  char32_t class compl concept const consteval constexpr constinit const_cast continue co_await
  co_return co_yield decltype default delete do double dynamic_cast else enum explicit export
  extern false float for friend goto if inline int long mutable namespace new noexcept not not_eq
  nullptr operator or or_eq private protected public register reinterpret_cast requires return
  short signed sizeof static static_assert static_cast struct switch template this thread_local
  throw true try typedef typeid typename union unsigned using virtual void volatile wchar_t while
  xor xor_eq "
! is_one_of "$name" "$keywords" || refuse "'$name' is a C++ keyword; pick another name (e.g. ${name}_app)"
# Namespaces and folders the framework, its tests and benchmarks use, the libraries', and a
# type name of the generated files.
taken=" kapi kapi_apps kapi_bench kapi_test bench common include raw detail main std posix testing benchmark boost
  value_type "
! is_one_of "$name" "$taken" ||
  refuse "'$name' clashes with a name the framework or its libraries use (kapi, kapi_apps, kapi_bench, kapi_test, bench, common, std, testing, benchmark, ...); pick another name"
# Macros GCC and glibc define in the default (GNU) mode: the namespace would vanish.
! is_one_of "$name" "unix linux i386 errno" || refuse "'$name' is a predefined macro of the compiler or C library; pick another name"
# OpenMP's names (omp_get_wtime, ...) and Kokkos' (Kokkos, kokkos_*, KOKKOS_* macros): the
# builds include omp.h and Kokkos at global scope, whatever the host compiler below knows.
[[ ! "$name" =~ ^(omp_|kmp_|kokkos) ]] ||
  refuse "'$name' is in the OpenMP (omp_*, kmp_*) or Kokkos (kokkos*) name space; pick another name"
# Types and functions the CUDA headers declare at global scope: a CUDA build would fail.
[[ ! "$name" =~ ^((u?(char|short|int|long|longlong)|float|double)[1-4]|dim3|min|max)$ ]] ||
  refuse "'$name' is a type or function the CUDA headers declare at global scope; pick another name"
for existing in "apps/$name" "tests/test_app_$name.cpp" "bench/bench_$name.cpp"; do
  [ ! -e "$root/$existing" ] || refuse "'$name' is taken: $root/$existing already exists"
done
# The test suite is named <Name>App (CamelCase), and test suite names are global in the test executables.
camel=$(echo "$name" | sed -E 's/(^|_)([a-z])/\U\2/g; s/_//g')
if clash=$(grep -lw "${camel}App" "$root"/tests/*.cpp 2> /dev/null); then
  refuse "'$name' would name its tests ${camel}App, which ${clash//$root\//} already uses; pick another name"
fi
# A name the C and C++ library headers already declare at global scope (time, index, exp,
# stdin, ...) cannot be a namespace: ask the compiler, where there is one.
probe() {  # probe <name>: does "namespace <name>" compile after the library headers?
  {
    for h in cassert cctype cerrno cfenv cfloat cinttypes climits clocale cmath csetjmp csignal cstdarg \
      cstddef cstdint cstdio cstdlib cstring ctime cwchar cwctype iostream string thread; do
      echo "#include <$h>"
    done
    echo "#if __has_include(<unistd.h>)"
    for h in dlfcn.h fcntl.h pthread.h sched.h strings.h sys/mman.h sys/resource.h sys/stat.h sys/time.h unistd.h; do
      echo "#include <$h>"
    done
    echo "#endif"
    echo "#if __has_include(<omp.h>)"
    echo "#include <omp.h>"
    echo "#endif"
    echo "namespace $1 { int kapi_new_probe; }"
    echo "int kapi_new_probe_use() { return $1::kapi_new_probe; }"
  } | "$cxx" -std=gnu++17 -fsyntax-only -x c++ - > /dev/null 2>&1
}
cxx=${CXX:-c++}
if command -v "$cxx" > /dev/null 2>&1 && ! probe "$name" && probe kapi_new_probe_ok; then
  refuse "'$name' is already declared at global scope by the C, C++, POSIX or OpenMP headers (a function, variable, type or macro, as time, index, stdin or omp_get_wtime are); pick another name"
fi

# ---- generate: into a scratch folder first, so that a failure leaves the tree untouched.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
render() {  # render <template> <path under root>
  mkdir -p "$scratch/$(dirname "$2")"
  sed -e "s/@name@/$name/g" -e "s/@Name@/$camel/g" "$templates/$1" > "$scratch/$2"
  if grep -n '@[A-Za-z_]*@' "$scratch/$2" >&2; then
    refuse "templates/app/$1 has a placeholder other than @name@ and @Name@ (lines above)"
  fi
}
created=(
  "apps/$name/CMakeLists.txt"
  "apps/$name/include/$name/$name.hpp"
  "apps/$name/main.cpp"
  "tests/test_app_$name.cpp"
  "bench/bench_$name.cpp"
)
render CMakeLists.txt.in "${created[0]}"
render app.hpp.in "${created[1]}"
render main.cpp.in "${created[2]}"
render test_app.cpp.in "${created[3]}"
render bench.cpp.in "${created[4]}"
mkdir -p "$root/apps/$name/include/$name"
for f in "${created[@]}"; do cp "$scratch/$f" "$root/$f"; done

cat <<EOF
new-app: created the app '$name' in $root:
$(printf '  %s\n' "${created[@]}")
Your kernel goes in apps/$name/include/$name/$name.hpp; it starts as a working three-point
stencil (range, nd-range with local memory and a barrier, and phased variants).
Next (in $root; the default configuration, openmp, or name one as ./kapi does):
  ./kapi test                     # build, then run every test, yours included
  ./kapi run --apps $name    # verify and benchmark it; the report lands in results/
While you work on the kernel, build and run only this app (after one ./kapi build):
  cmake --build build/openmp --target kapi-$name kapi_tests_apps_OpenMP bench_$name
  build/openmp/apps/$name/kapi-$name
  build/openmp/tests/kapi_tests_apps_OpenMP --gtest_filter='*${camel}App*'
EOF
