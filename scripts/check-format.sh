#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The C++ sources are formatted as .clang-format says (ctest: format_check, so every
# `./kapi test` and CI run it). clang-format versions format differently: the check runs
# with the major version the tree was formatted with (14, Debian 12's) and is skipped with
# another one (exit status 77).
#
#   scripts/check-format.sh [--fix] [SOURCE_DIR]
#
# Files: the tracked *.hpp/*.cpp/*.h/*.cu under framework/ apps/ bench/ tests/ examples/
# templates/. Prints each file that differs and the first lines of its diff; exit status 0
# clean, 1 otherwise. --fix rewrites them instead.
set -uo pipefail
fix=0
[ "${1:-}" = --fix ] && { fix=1; shift; }
root=$(cd "${1:-$(dirname "${BASH_SOURCE[0]}")/..}" && pwd)
cd "$root" || exit 1
want=14
tool=$(command -v clang-format-$want || command -v clang-format || true)
if [ -z "$tool" ]; then
  echo "check-format: clang-format is not installed (Debian: apt-get install clang-format); skipped"
  exit 77
fi
have=$("$tool" --version | sed -n 's/.*version \([0-9]*\)\..*/\1/p')
if [ "$have" != "$want" ]; then
  echo "check-format: $tool is version $have; the tree is formatted with clang-format $want; skipped"
  exit 77
fi
if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
  files=$(git ls-files --cached -- framework apps bench tests examples templates |
          grep -E '\.(hpp|cpp|h|cu)$')
else
  files=$(find framework apps bench tests examples templates -type f \( -name '*.hpp' -o -name '*.cpp' -o -name '*.h' -o -name '*.cu' \))
fi
if [ "$fix" = 1 ]; then
  xargs "$tool" -i <<< "$files"
  exit 0
fi
failed=0
while IFS= read -r f; do
  [ -f "$f" ] || continue
  if ! out=$("$tool" "$f" | diff -u "$f" - 2>&1); then
    echo "$f: not formatted as .clang-format says (scripts/check-format.sh --fix rewrites it):"
    head -12 <<< "$out" | sed 's/^/    /'
    failed=1
  fi
done <<< "$files"
[ "$failed" = 0 ] && echo "check-format: $(wc -l <<< "$files") files formatted"
exit "$failed"
