#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tree_check_umbrella: scripts/check-tree.sh run on a scratch tree whose test includes the
# umbrella header kapi/kapi.hpp and whose example does too (allowed there): the check must
# fail and name the test's line only. Its exit status and output are checked by
# cmake/kapi_expect_exit.cmake (tests/tree_check.ctest.cmake).
#   tests/tree_check_umbrella.sh <path of scripts/check-tree.sh>
set -u
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/tests" "$scratch/examples/demo"
printf '#include <kapi/launch.hpp>\n#include <kapi/kapi.hpp>\n' > "$scratch/tests/test_demo.cpp"
printf '#include <kapi/kapi.hpp>\n' > "$scratch/examples/demo/main.cpp"
bash "$1" "$scratch" 2>&1
