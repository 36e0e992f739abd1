#!/usr/bin/env bash
# Rules on the source tree that no compiler checks (ctest: tree_check, so every
# `./kapi test` and CI run it).
#
#   scripts/check-tree.sh [SOURCE_DIR]
#
# 1. kapi's internals stay inside the framework: no file outside framework/ and tests/
#    (apps, benchmarks, examples, docs, README, scripts, templates, ...) names kapi's
#    detail namespace or includes a header from a detail/ folder of kapi. What
#    apps and users need is public API; a detail that one needs is a missing public name.
# 2. The CMake code does not use PROJECT_IS_TOP_LEVEL (or <project>_IS_TOP_LEVEL) outside
#    comments: it exists from CMake 3.21 on, the
#    project's minimum is lower, and on older versions it is silently empty (tests, apps
#    and benchmarks would switch off); the top-level CMakeLists.txt computes it itself.
#
# Files checked: those git tracks and new ones (not ignored) in folders that hold tracked
# files, else (no git) every file outside build/, results/ and .git/. build/ and results/
# (generated) are never checked.
# Prints each offending line as path:line: text. Exit status: 0 clean, 1 otherwise.
set -uo pipefail
root=$(cd "${1:-$(dirname "${BASH_SOURCE[0]}")/..}" && pwd)
cd "$root" || exit 1

if git -C "$root" rev-parse --is-inside-work-tree > /dev/null 2>&1; then
  # Tracked files, and new ones in the project's folders (a new app, say); a folder that
  # holds no tracked file at all (a scratch copy of the tree) is not the project's.
  tracked=$(git ls-files --cached)
  files=$( {
    echo "$tracked"
    git ls-files --others --exclude-standard |
      awk -v tops="$(cut -d/ -f1 <<< "$tracked" | sort -u | tr '\n' ' ')" '
        BEGIN { n = split(tops, t, " "); for (i = 1; i <= n; i++) top[t[i]] = 1 }
        { split($0, p, "/"); if (!index($0, "/") || (p[1] in top)) print }'
  } | sort -u)
else
  files=$(find . -type f -not -path './build/*' -not -path './results/*' -not -path './.git/*' | sed 's|^\./||')
fi
files=$(grep -vE '^(build|results)/' <<< "$files")

failed=0
# report <rule> <grep output>: prints the hits under the rule's explanation.
report() {
  [ -n "$2" ] || return 0
  echo "tree check: $1:"
  sed 's/^/  /' <<< "$2"
  failed=1
}
# hits <ERE> <file...>: path:line: text of every matching line (missing files skipped).
hits() {
  local re=$1
  shift
  [ $# -gt 0 ] || return 0
  printf '%s\0' "$@" | xargs -0 grep -sHnE -- "$re" |
    sed -E 's/^([^:]*):([0-9]+):[[:space:]]*/\1:\2: /' | cut -c1-240
}

# The patterns are split so that this script does not match itself.
ns='kapi''::''detail'
inc='#[[:space:]]*include[[:space:]]*[<"]kapi/([^>"]*/)?''detail/'
mapfile -t outside < <(grep -vE '^(framework|tests)/' <<< "$files")
report "kapi's internals named outside framework/ and tests/ (use the public API, or ask for a public name)" \
  "$(hits "$ns|$inc" "${outside[@]}")"

mapfile -t cmake_files < <(grep -E '(^|/)CMakeLists\.txt$|\.cmake(\.in)?$|(^|/)CMakeLists\.txt\.in$' <<< "$files")
report "PROJECT_IS_TOP_LEVEL or <project>_IS_TOP_LEVEL used in CMake code (CMake >= 3.21 only; use kapi_top_level from the top-level CMakeLists.txt)" \
  "$(hits '^[^#]*[A-Za-z0-9]_IS''_TOP_LEVEL' "${cmake_files[@]}")"

if [ "$failed" = 0 ]; then
  echo "tree check: clean (${#outside[@]} files outside framework/ and tests/, ${#cmake_files[@]} CMake files)"
fi
exit "$failed"
