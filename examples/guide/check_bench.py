#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Runs the guide's benchmark briefly and checks what it wrote, as docs/guide.md reads it.

    check_bench.py BENCH_BINARY OUT_DIR SCRIPTS_DIR

Runs BENCH_BINARY at one tiny size with one short repetition into OUT_DIR/blur.json,
reads the JSON with SCRIPTS_DIR/kapi_results.py, and fails unless the anchor and every
kapi variant ran (checked, timed, a rate and a % of the anchor), then builds the report
with SCRIPTS_DIR/report.py and fails unless its table has a row per variant.
"""

import os
import subprocess
import sys

EXPECTED = {"raw-kokkos-range": "anchor", "range": "kapi", "nd-range-l256": "kapi", "phased-l256": "kapi"}
SIZE = 4096


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    binary, out_dir, scripts = argv
    os.makedirs(out_dir, exist_ok=True)
    json_path = os.path.join(out_dir, "blur.json")
    if os.path.exists(json_path):
        os.remove(json_path)
    command = [binary, "--kapi_sizes=%d" % SIZE, "--benchmark_repetitions=1", "--benchmark_min_time=0.01",
               "--benchmark_out=" + json_path, "--benchmark_out_format=json"]
    print(" ".join(command), flush=True)
    if subprocess.call(command) != 0:
        return "the benchmark binary failed"
    sys.path.insert(0, scripts)
    import kapi_results
    import report

    run = kapi_results.Run(json_path)
    problems = []
    for variant, role in EXPECTED.items():
        name = "blur/f32/%s/n:%d" % (variant, SIZE)
        r = run.results.get(name)
        if r is None:
            problems.append("%s: missing from %s" % (name, json_path))
            continue
        if r.role != role:
            problems.append("%s: role %s, expected %s" % (name, r.role, role))
        if not r.ok:
            problems.append("%s: did not run: %s" % (name, r.error))
            continue
        if r.unit != "GB/s" or not r.rate or r.rate <= 0:
            problems.append("%s: no positive GB/s rate (unit %s, rate %s)" % (name, r.unit, r.rate))
        if role == "kapi" and (r.pct_anchor is None or r.pct_anchor <= 0):
            problems.append("%s: no %% of the anchor (pct_of_anchor %s)" % (name, r.pct_anchor))
    table = report.build(out_dir, plots=False)
    print(table)
    for variant in EXPECTED:
        if not any(line.startswith("| " + variant + " ") for line in table.split("\n")):
            problems.append("report.py's table has no row for %s" % variant)
    if problems:
        return "\n".join(problems)
    print("blur.json: the anchor and %d kapi variants ran, checked and timed; report.py reads them" %
          (len(EXPECTED) - 1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
