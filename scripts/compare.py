#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Compare two benchmark runs: per-benchmark ratios, changes beyond the noise flagged.

    scripts/compare.py A B [--metric rate|pct_of_anchor|pct_of_raw_kokkos]
                           [--filter REGEX] [--floor PCT] [--changed] [--fail-on-slower]

A and B are Google Benchmark JSON files written by the bench_<app> binaries, or results
folders of scripts/run-suite.sh (every *.json inside). Benchmarks are matched by name
(<app>/<type>/<variant>/<size>), so two backends, two machines, or a before/after pair
of the same configuration compare the same way; a variant renamed since an older run
(the aliases in scripts/targets.json, e.g. seed-t16 -> sliding-window-t16) is matched
under its name today.

For each benchmark present in both, the ratio B/A of the median rates over the
repetitions (> 1 means B is faster) and the noise threshold: max(2 x the larger
coefficient of variation of the rate over the two runs' repetitions, --floor, default 3%). A ratio outside 1 ± noise is
flagged 'faster' or 'SLOWER'. With --metric pct_of_anchor the ratio is of the % of the
anchor instead, which factors out a machine's speed (e.g. two GPUs). The summary gives,
per app, the geometric mean ratio and the counts.
Exit status: 0; 1 with --fail-on-slower when any benchmark is flagged SLOWER; 2 usage, a
missing or unreadable run, or two runs with no benchmark in common.
"""

import argparse
import math
import os
import re
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kapi_results as kr  # noqa: E402


def describe(runs, path):
    if not runs:
        return path
    c = runs[0].context
    backend = c.get("kokkos_backend", "?")
    if backend not in ("Cuda", "HIP", "SYCL"):
        backend += " (%s threads)" % c.get("kokkos_concurrency", "?")
    return "%s: %s %s, %s, %s" % (path, c.get("kapi_config", "?"), backend, c.get("device", "?"), c.get("date", "?"))


def metric_value(r, metric):
    """The median over the repetitions: of the rate counter (GFLOP/s, GB/s) or a ratio counter."""
    return r.rate if metric == "rate" else r.stat(metric)


def metric_cv(r, metric):
    """The coefficient of variation of that counter over the repetitions (a fraction)."""
    v = r.stat(r.unit if metric == "rate" else metric, "cv")
    return r.cv if v is None else v


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    ap = kr.ArgumentParser(prog="compare", description=__doc__,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("a", help="baseline: JSON file or results folder")
    ap.add_argument("b", help="contender: JSON file or results folder")
    ap.add_argument("--metric", default="rate", choices=["rate", "pct_of_anchor", "pct_of_raw_kokkos"])
    ap.add_argument("--filter", default=None, help="regular expression on benchmark names")
    ap.add_argument("--floor", type=float, default=3.0, help="smallest change flagged, in %% (default 3)")
    ap.add_argument("--changed", action="store_true", help="list only the flagged benchmarks")
    ap.add_argument("--fail-on-slower", action="store_true", help="exit 1 when a benchmark got slower")
    args = ap.parse_args()

    # Problems with the runs: one line and exit status 2.
    try:
        runs_a, runs_b = kr.load([args.a]), kr.load([args.b])
    except kr.ResultsError as e:
        kr.fail("compare: %s" % e)
    a, b = kr.merged(runs_a), kr.merged(runs_b)
    if not a or not b:
        kr.fail("compare: no benchmarks in %s" % (args.a if not a else args.b))
    try:
        pattern = re.compile(args.filter) if args.filter else None
    except re.error as e:
        kr.fail("compare: --filter %r is not a regular expression (%s)" % (args.filter, e))
    order = [n for r in runs_a for n in r.order] + [n for r in runs_b for n in r.order if n not in a]
    # Anchors of another name (openmp-fill on OpenMP, chunked-fill on Threads, cuda-memset
    # on CUDA) are matched by app, type and size: "<app>/<type>/[anchor]/<size>".
    def anchor_key(r):
        return "%s/%s/[anchor]/%s:%d" % (r.app, r.type, r.size_name, r.size)

    anchors_b = {anchor_key(r): r for r in b.values() if r.role == "anchor"}
    anchors_a = {anchor_key(r): r for r in a.values() if r.role == "anchor"}
    if not any((n in b or (r.role == "anchor" and anchor_key(r) in anchors_b))
               and (pattern is None or pattern.search(n)) for n, r in a.items()):
        def apps(results):
            return ", ".join(sorted({r.app for r in results.values()}))
        kr.fail("compare: %s (%s) and %s (%s) have no benchmark in common%s: nothing to compare" % (
            args.a, apps(a), args.b, apps(b), " matching --filter %r" % args.filter if pattern else ""))
    print("A = " + describe(runs_a, args.a))
    print("B = " + describe(runs_b, args.b))
    what = "rate B/A" if args.metric == "rate" else "%s B/A" % args.metric
    print("ratio = %s (for latencies in us: A/B); > 1: B is better. noise = max(2 x cv, %.0f%%)\n" % (what, args.floor))

    rows, per_app, only_a, only_b, failed, both_skipped = [], {}, [], [], [], 0
    for name in order:
        if pattern and not pattern.search(name):
            continue
        ra, rb = a.get(name), b.get(name)
        if ra is not None and rb is None and ra.role == "anchor" and anchor_key(ra) in anchors_b:
            rb = anchors_b[anchor_key(ra)]
            name = "%s (B: %s)" % (name, rb.variant)
        elif rb is not None and ra is None and rb.role == "anchor" and anchor_key(rb) in anchors_a:
            continue  # matched from A's side
        if ra is None:
            only_b.append(name)
            continue
        if rb is None:
            only_a.append(name)
            continue
        if not ra.ok and not rb.ok:
            both_skipped += 1
            continue
        if not ra.ok or not rb.ok:
            failed.append((name, ra.error if not ra.ok else "", rb.error if not rb.ok else ""))
            continue
        va, vb = metric_value(ra, args.metric), metric_value(rb, args.metric)
        if not va or not vb:
            continue
        ratio = va / vb if (args.metric == "rate" and ra.unit in kr.LOWER_IS_BETTER) else vb / va
        cvs = [c for c in (metric_cv(ra, args.metric), metric_cv(rb, args.metric)) if c is not None]
        noise = max([2 * c for c in cvs] + [args.floor / 100.0])
        flag = ""
        if ratio > 1 + noise:
            flag = "faster"
        elif ratio < 1 / (1 + noise):
            flag = "SLOWER"
        app = per_app.setdefault(ra.app, {"logs": [], "faster": 0, "slower": 0, "same": 0})
        app["logs"].append(math.log(ratio))
        app["faster" if flag == "faster" else "slower" if flag == "SLOWER" else "same"] += 1
        if args.changed and not flag:
            continue
        if args.metric == "rate":
            col_a = "%s %s" % (fmt(ra.rate), ra.unit or "")
            col_b = "%s %s" % (fmt(rb.rate), rb.unit or "")
        else:
            col_a, col_b = "%.1f%%" % va, "%.1f%%" % vb
        rows.append((name, col_a, col_b, "%.3fx" % ratio, "±%.1f%%" % (100 * noise), flag))

    if rows:
        header = ("benchmark", "A", "B", "B/A", "noise", "")
        widths = [max(len(x[i]) for x in rows + [header]) for i in range(len(header))]
        print("  ".join(h.ljust(w) if i == 0 else h.rjust(w) for i, (h, w) in enumerate(zip(header, widths))).rstrip())
        for row in rows:
            print("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))).rstrip())
    elif args.changed:
        print("no benchmark changed beyond the noise")
    if both_skipped:
        print("\n%d benchmarks skipped or failed in both runs (see the reports)" % both_skipped)
    if failed:
        print("\nnot compared (skipped or failed in one run):")
        for name, ea, eb in failed:
            print("  %s: %s" % (name, "; ".join(x for x in ("A: " + ea if ea else "", "B: " + eb if eb else "") if x)))
    for label, names in (("only in A", only_a), ("only in B", only_b)):
        if names:
            print("\n%s (%d): %s" % (label, len(names), ", ".join(names[:12]) + (" ..." if len(names) > 12 else "")))
    print("\nsummary (geometric mean of B/A; faster / SLOWER / within noise):")
    slower = 0
    for app, s in per_app.items():
        g = math.exp(sum(s["logs"]) / len(s["logs"]))
        print("  %-8s %.3fx over %3d benchmarks: %d faster, %d SLOWER, %d within noise" % (
            app, g, len(s["logs"]), s["faster"], s["slower"], s["same"]))
        slower += s["slower"]
    if args.fail_on_slower and slower:
        sys.exit(1)


def fmt(v):
    if v is None:
        return "—"
    return "%.0f" % v if v >= 100 else "%.1f" % v if v >= 10 else "%.3g" % v


if __name__ == "__main__":
    main()
