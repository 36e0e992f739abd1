#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Rules on the source tree that no compiler checks (ctest: tree_check, so every
# `./kapi test` and CI run it).
#
#   scripts/check-tree.sh [SOURCE_DIR]
#
# 1. kapi's internals stay inside the framework: no file outside framework/ and tests/
#    (apps, benchmarks, examples, docs, README, scripts, templates, ...) names kapi's
#    detail namespace, nested ones included (the detail namespace inside kapi::matrix, ...), or
#    includes a header from a detail/ folder of kapi. What apps and users need is public
#    API; a detail that one needs is a missing public name.
# 2. The CMake code does not use PROJECT_IS_TOP_LEVEL (or <project>_IS_TOP_LEVEL) outside
#    comments: it exists from CMake 3.21 on, the
#    project's minimum is lower, and on older versions it is silently empty (tests, apps
#    and benchmarks would switch off); the top-level CMakeLists.txt computes it itself.
# 3. The framework's layering (docs/architecture.md): public headers -> kapi/detail/ ->
#    one backend folder -> Kokkos. A backend folder is a folder of framework/include/kapi
#    that holds only a detail/ folder (host/, team/, cuda/, hip/: found, not listed).
#    a. A public header (framework/include/kapi/**.hpp outside any detail/ folder) includes
#       no backend folder's header directly: it goes through a dispatch header in
#       kapi/detail/ (detail/launcher.hpp, detail/group_ops.hpp, detail/barriers.hpp, ...).
#    b. A backend's header includes no public header that includes, directly or through
#       other headers, any backend's header: dependencies point one way, and a backend
#       builds on the public building blocks that need no backend (config.hpp,
#       space_traits.hpp, item.hpp, work_group.hpp, sub_group.hpp, ...).
# 4. The project's own sources (tests/, apps/, bench/) include the kapi headers they use,
#    never the umbrella kapi/kapi.hpp: an edit of one header then rebuilds only the units
#    that use it (the apps `./kapi new` writes too). kapi.hpp is for users: examples/,
#    docs and the README use it.
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
ns='kapi''::([A-Za-z_][A-Za-z0-9_]*::)*''detail'
inc='#[[:space:]]*include[[:space:]]*[<"]kapi/([^>"]*/)?''detail/'
mapfile -t outside < <(grep -vE '^(framework|tests)/' <<< "$files")
report "kapi's internals named outside framework/ and tests/ (use the public API, or ask for a public name)" \
  "$(hits "$ns|$inc" "${outside[@]}")"

mapfile -t cmake_files < <(grep -E '(^|/)CMakeLists\.txt$|\.cmake(\.in)?$|(^|/)CMakeLists\.txt\.in$' <<< "$files")
report "PROJECT_IS_TOP_LEVEL or <project>_IS_TOP_LEVEL used in CMake code (CMake >= 3.21 only; use kapi_top_level from the top-level CMakeLists.txt)" \
  "$(hits '^[^#]*[A-Za-z0-9]_IS''_TOP_LEVEL' "${cmake_files[@]}")"

# Rule 3: the include graph of kapi's headers (paths from framework/include).
mapfile -t kapi_headers < <(grep -E '^framework/include/kapi/.*\.(hpp|h)$' <<< "$files")
existing_headers=()
for f in "${kapi_headers[@]}"; do [ -f "$f" ] && existing_headers+=("$f"); done
backends=$(printf '%s\n' "${existing_headers[@]}" | awk -F/ '
  NF >= 5 { sub_dir[$4] = 1; if ($5 != "detail") public_files[$4] = 1 }
  END { for (d in sub_dir) if (!(d in public_files)) print d }' | sort | tr '\n' ' ')
layering=""
if [ -n "$backends" ] && [ ${#existing_headers[@]} -gt 0 ]; then
  # path:line:#include <kapi/...> for every kapi include of every kapi header.
  layering=$(printf '%s\0' "${existing_headers[@]}" |
    xargs -0 grep -HnoE '^[[:space:]]*#[[:space:]]*include[[:space:]]*<kapi/[^>]+>' |
    awk -v backends="$backends" '
      BEGIN { n = split(backends, b, " "); for (i = 1; i <= n; i++) backend_dir[b[i]] = 1 }
      function is_backend(h, p) { split(h, p, "/"); return (p[2] in backend_dir) && p[3] == "detail" }
      function is_public(h) { return h !~ /(^|\/)detail\// }
      # The first backend header h reaches through its includes ("" if none).
      function reaches(h, i, r) {
        if (h in memo) return memo[h]
        memo[h] = ""
        for (i = 1; i <= count[h]; i++) {
          if (is_backend(edge[h, i])) { memo[h] = edge[h, i]; return memo[h] }
          r = reaches(edge[h, i])
          if (r != "") { memo[h] = r " (through " edge[h, i] ")"; return memo[h] }
        }
        return ""
      }
      {
        path = $0; sub(/:.*/, "", path)
        rest = substr($0, length(path) + 2); line = rest; sub(/:.*/, "", line)
        to = rest; sub(/^[^<]*</, "", to); sub(/>.*/, "", to)
        from = path; sub(/^framework\/include\//, "", from)
        count[from]++; edge[from, count[from]] = to
        hits_n++; hit_from[hits_n] = from; hit_path[hits_n] = path; hit_line[hits_n] = line; hit_to[hits_n] = to
      }
      END {
        for (i = 1; i <= hits_n; i++) {
          f = hit_from[i]; t = hit_to[i]
          if (is_public(f) && is_backend(t))
            print hit_path[i] ":" hit_line[i] ": public header includes backend header " t " (include a kapi/detail/ dispatch header instead)"
          else if (is_backend(f) && is_public(t)) {
            r = reaches(t)
            if (r != "") print hit_path[i] ":" hit_line[i] ": backend header includes " t ", which includes backend header " r
          }
        }
      }')
fi
report "layering: public headers -> kapi/detail/ -> backend folders (${backends% }) -> Kokkos, one way (docs/architecture.md)" \
  "$layering"

umbrella='#[[:space:]]*include[[:space:]]*[<"]kapi/''kapi\.hpp[>"]'
mapfile -t own < <(grep -E '^(tests|apps|bench)/.*\.(cpp|hpp|h|cu)$' <<< "$files")
report "the umbrella header included by the project's own sources (include the kapi headers the file uses)" \
  "$(hits "$umbrella" "${own[@]}")"

if [ "$failed" = 0 ]; then
  echo "tree check: clean (${#outside[@]} files outside framework/ and tests/, ${#cmake_files[@]} CMake files, ${#existing_headers[@]} kapi headers; backend folders: ${backends% })"
fi
exit "$failed"
