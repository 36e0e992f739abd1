#!/usr/bin/env python3
"""Markdown report and plots of one benchmark suite run.

    scripts/report.py RESULTS_DIR [--print] [--no-plots]

Reads RESULTS_DIR/<app>.json (Google Benchmark JSON from bench_<app>) and meta.txt
(scripts/run-suite.sh), writes RESULTS_DIR/report.md and RESULTS_DIR/plots/<app>.png, and
with --print shows the tables and targets on the terminal. Plots need matplotlib
(Debian: python3-matplotlib, in /usr/bin/python3); without it the report has no plots.
"""

import argparse
import os
import re
import signal
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kapi_results as kr  # noqa: E402

ROLE_ORDER = {"anchor": 0, "raw-kokkos": 1, "library": 2, "kapi": 3}
SLOW = re.compile(r"one run would take ~([0-9.e+]+) s \(limit ([0-9.e+]+) s")
NOISY_CV = 0.05  # cells whose run time varied more than this over the repetitions get a †


def fmt_rate(v):
    if v is None:
        return "—"
    if v >= 100:
        return "%.0f" % v
    if v >= 10:
        return "%.1f" % v
    return "%.2f" % v


def fmt_pct(v):
    if v is None:
        return "—"
    return "%.0f%%" % v if v >= 9.95 else "%.1f%%" % v if v >= 0.095 else "%.2f%%" % v


def read_meta(folder):
    meta = {}
    path = os.path.join(folder, "meta.txt")
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                k, sep, v = line.partition(":")
                if sep:
                    meta[k.strip()] = v.strip()
    return meta


def is_device(ctx):
    return ctx.get("kokkos_backend", "") in ("Cuda", "HIP", "SYCL")


# ----------------------------------------------------------------------------- targets
# Issue 5 (host, openmp) and issue 6 (CUDA) targets, checked against the medians.


def _by_variant(results, app):
    out = {}
    for r in results.values():
        if r.app == app:
            out.setdefault(r.variant, {})[r.size] = r
    return out


def _pow2(n):
    return "2^%d" % (n.bit_length() - 1) if n and n & (n - 1) == 0 else str(n)


def targets(results, ctx_by_app):
    """Rows of (target, figure, status) for the apps present."""
    rows = []
    apps = {r.app for r in results.values()}

    def best_kapi(app, size, key="pct_anchor"):
        best = None
        for r in results.values():
            if r.app == app and r.size == size and r.role == "kapi" and r.ok and getattr(r, key) is not None:
                if best is None or getattr(r, key) > getattr(best, key):
                    best = r
        return best

    def check(name, pairs, threshold, higher=True, unit="%"):
        """pairs: list of (where, value or None). Status over all measured values."""
        measured = [(w, v) for w, v in pairs if v is not None]
        if not measured:
            rows.append((name, "not measured", "n/a"))
            return
        ok = all((v >= threshold) if higher else (v <= threshold) for _, v in measured)
        fig = ", ".join("%s: %s" % (w, ("%.1f%%" % v) if unit == "%" else ("%.2f%s" % (v, unit))) for w, v in measured)
        rows.append((name, fig, "reached" if ok else "MISSED"))

    device = any(is_device(c) for c in ctx_by_app.values())
    if "reduce" in apps:
        sizes = sorted({r.size for r in results.values() if r.app == "reduce"})
        if not device:
            big = [n for n in sizes if n >= 1 << 24]
            pairs = []
            for n in big:
                b = best_kapi("reduce", n)
                pairs.append(("n=%s %s" % (_pow2(n), b.variant if b else "?"), b.pct_anchor if b else None))
            check("reduce: best framework variant >= 90% of the OpenMP SIMD anchor at n >= 2^24", pairs, 90)
        else:
            n = 1 << 28
            r = results.get("reduce/f32/recursive/n:%d" % n)
            check("reduce: recursive >= 95% of CUB at n = 2^28", [("n=2^28", r.pct_anchor if r and r.ok else None)], 95)
            # The pairwise passes move sum(m + ceil(m/2)) elements (m = n, ceil(n/2), ...):
            # about 3n, so its bandwidth is traffic/n times its rate of n elements.
            p = results.get("reduce/f32/pairwise/n:%d" % n)
            check("reduce: pairwise >= 90% of what its memory traffic allows (bandwidth vs CUB's) at n = 2^28",
                  [("n=2^28, %.2fn elements moved" % (pairwise_traffic(n) / n),
                    p.pct_anchor * pairwise_traffic(n) / n if p and p.ok and p.pct_anchor else None)], 90)
    if "init3d" in apps:
        sizes = sorted({r.size for r in results.values() if r.app == "init3d"})
        if not device:
            pairs = []
            for n in [s for s in sizes if s >= 300]:
                b = best_kapi("init3d", n)
                pairs.append(("N=%d %s" % (n, b.variant if b else "?"), b.pct_anchor if b else None))
            check("init3d: best policy >= 90% of the fill anchor at N >= 300", pairs, 90)
            # The barrier-free nd-range form against the range form of the same body.
            by = _by_variant(results, "init3d")
            nd, rng = by.get("kapi-nd-range", {}), by.get("kapi-range", {})
            check("init3d: kapi-nd-range >= 80% of kapi-range at N >= 100",
                  [("N=%d" % n, 100.0 * nd[n].rate / rng[n].rate if nd[n].ok and n in rng and rng[n].ok else None)
                   for n in sorted(nd) if n >= 100], 80)
        else:
            b = best_kapi("init3d", 1000)
            check("init3d: best policy >= 95% of the fill anchor at N = 1000",
                  [("N=1000 %s" % (b.variant if b else "?"), b.pct_anchor if b else None)], 95)
            t = results.get("init3d/f64/tiles-32x8x1/N:1000")
            check("init3d: tiles-32x8x1 >= 90% of the fill anchor at N = 1000",
                  [("N=1000", t.pct_anchor if t and t.ok else None)], 90)
    if "matmul" in apps:
        by = _by_variant(results, "matmul")
        tuned = by.get("tuned", {})
        if not device:
            check("matmul: tuned >= 50% of KokkosBlas::gemm (OpenBLAS) at n = 1024 and 2048",
                  [("n=%d" % n, tuned[n].pct_anchor if n in tuned and tuned[n].ok else None) for n in (1024, 2048)], 50)
        else:
            check("matmul: tuned >= 75% of cuBLAS SGEMM at n = 4096 and 8192",
                  [("n=%d" % n, tuned[n].pct_anchor if n in tuned and tuned[n].ok else None) for n in (4096, 8192)], 75)
        # Flat seed kernels against their phased twins (same tile): time ratio.
        pairs = []
        for v, rs in sorted(by.items()):
            if not v.startswith("seed-t"):
                continue
            twin = by.get("phased-" + v[len("seed-"):], {})
            for n in sorted(rs):
                if rs[n].ok and n in twin and twin[n].ok:
                    pairs.append(("%s n=%d" % (v, n), twin[n].rate / rs[n].rate))
        if pairs:
            worst = max(pairs, key=lambda p: p[1])
            ok = worst[1] <= 3.0
            rows.append(("matmul: flat seed no more than 3x slower than its phased twin",
                         "worst %s: %.2fx (%d pairs)" % (worst[0], worst[1], len(pairs)), "reached" if ok else "MISSED"))
        else:
            rows.append(("matmul: flat seed no more than 3x slower than its phased twin", "not measured", "n/a"))
    if "barrier" in apps:
        by = _by_variant(results, "barrier")
        b = by.get("barrier", {})
        figs = ["%d items %.1f ns" % (n, b[n].rate) for n in sorted(b) if b[n].ok]
        rows.append(("barrier: ns per work-item per group_barrier (tracked, issue 11)",
                     ", ".join(figs) if figs else "not measured", "tracked" if figs else "n/a"))
    if "launch" in apps:
        raw = results.get("launch/i32/raw-parallel-for/n:1")
        pairs = []
        for r in sorted((r for r in results.values() if r.app == "launch" and r.role == "kapi" and r.ok),
                        key=lambda r: r.variant):
            if raw is not None and raw.ok:
                pairs.append((r.variant, r.rate - raw.rate))
        if pairs:
            worst = max(pairs, key=lambda p: p[1])
            rows.append(("launch: call_kernel of a trivial kernel <= raw Kokkos parallel_for + 2 us%s" % (
                "" if device else " (issue 6 sets it for CUDA)"),
                "raw %.2f us; " % raw.rate + ", ".join("%s %+.2f us" % p for p in pairs),
                "reached" if worst[1] <= 2.0 else "MISSED"))
    # Framework variants against their raw-Kokkos twins (same algorithm without kapi).
    for app, variants, twin in twin_pairs(results, device):
        pairs = []
        for v in variants:
            for r in sorted((r for r in results.values() if r.app == app and r.variant == v and r.ok),
                            key=lambda r: r.size):
                if r.pct_raw is not None and r.size >= twin_min_size(app):
                    pairs.append(("%s %s=%s" % (v, r.size_name, _pow2(r.size) if app == "reduce" else r.size),
                                  r.pct_raw))
        if not pairs:
            continue
        if app == "reduce":  # no raw twin per algorithm: the best framework variant per size
            best = {}
            for where, value in pairs:
                size = where.split()[-1]
                if size not in best or value > best[size][1]:
                    best[size] = (where, value)
            pairs = list(best.values())
            what = "reduce: best framework variant within 5%% of raw Kokkos (%s), n >= 2^20" % twin
        else:
            what = "%s: %s within 5%% of the raw-Kokkos twin (%s), %s >= %d" % (
                app, "/".join(variants), twin, pairs[0][0].split()[-1].split("=")[0], twin_min_size(app))
        worst = min(pairs, key=lambda p: p[1])
        rows.append((what, "worst %s: %.1f%%; median %.1f%% (%d points)" % (
            worst[0], worst[1], sorted(p[1] for p in pairs)[len(pairs) // 2], len(pairs)),
            "reached" if worst[1] >= 95 else "MISSED"))
    return rows


def pairwise_traffic(n):
    """Elements read and written by the pairwise passes over n elements."""
    total, m = 0, n
    while m > 1:
        half = (m + 1) // 2
        total += m + half
        m = half
    return total


def twin_min_size(app):
    """Below these sizes a run takes microseconds and the ratio measures launch costs."""
    return {"matmul": 256, "reduce": 1 << 20, "init3d": 200}.get(app, 0)


def twin_pairs(results, device):
    """(app, framework variants, what the raw twin is) for the 'within 5%' target."""
    present = {(r.app, r.variant) for r in results.values()}
    out = []
    if device:
        mm = [v for v in ("seed-t16", "phased-t16") if ("matmul", v) in present]
    else:
        mm = [v for v in ("phased-t16",) if ("matmul", v) in present]
    if mm:
        out.append(("matmul", mm, "raw-teampolicy-t16"))
    red = sorted(v for a, v in present if a == "reduce" and results_role(results, a, v) == "kapi")
    if red:
        out.append(("reduce", red, "kokkos-parallel-reduce"))
    ini = [v for v in ("collapsed", "kapi-range") if ("init3d", v) in present]
    if ini:
        out.append(("init3d", ini, "raw-mdrange"))
    return out


def results_role(results, app, variant):
    for r in results.values():
        if r.app == app and r.variant == variant:
            return r.role
    return None


# ----------------------------------------------------------------------------- tables


def app_table(run, app):
    rs = [r for r in run.results.values() if r.app == app]
    sizes = sorted({r.size for r in rs})
    size_name = rs[0].size_name if rs else "n"
    pow2 = all(s & (s - 1) == 0 for s in sizes) and sizes and sizes[-1] > 65536
    variants = []
    for name in run.order:
        r = run.results[name]
        if r.app == app and (r.variant, r.role) not in variants:
            variants.append((r.variant, r.role))
    variants.sort(key=lambda vr: ROLE_ORDER.get(vr[1], 3))
    unit = next((r.unit for r in rs if r.unit), "rate")
    has_anchor = any(r.role == "anchor" for r in rs)
    header = ["variant", "role"] + ["%s=%s" % (size_name, _pow2(s) if pow2 else s) for s in sizes]
    rows, notes = [], []
    for v, role in variants:
        row = [v, role]
        skipped_at = []
        for s in sizes:
            r = run.results.get("%s/%s/%s/%s:%d" % (app, rs[0].type, v, size_name, s))
            if r is None:
                row.append("")
            elif not r.ok:
                row.append("skip")
                skipped_at.append((s, r.error))
            else:
                cell = fmt_rate(r.rate)
                if role != "anchor" and has_anchor:
                    cell += " · " + fmt_pct(r.pct_anchor)
                if role == "kapi":
                    cell += " · " + fmt_pct(r.pct_raw)
                if r.cv is not None and r.cv > NOISY_CV:
                    cell += " †"
                row.append(cell)
        rows.append(row)
        if skipped_at:
            reasons, predicted = {}, []
            for s, e in skipped_at:
                label = _pow2(s) if pow2 else str(s)
                m = SLOW.search(e or "")
                if m:
                    predicted.append((label, m.group(1), m.group(2)))
                else:
                    reasons.setdefault(e, []).append(label)
            if predicted:
                notes.append("%s at %s=%s: predicted too slow (%s s per run; limit %s s per run, "
                             "--kapi_max_seconds)" % (v, size_name, ", ".join(p[0] for p in predicted),
                                                      ", ".join("~" + p[1] for p in predicted), predicted[0][2]))
            for e, at in reasons.items():
                notes.append("%s at %s=%s: %s" % (v, size_name, ", ".join(at), e))
    return unit, header, rows, notes


def markdown_table(header, rows):
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    line = lambda cells: "| " + " | ".join(str(c).ljust(w) for c, w in zip(cells, widths)) + " |"  # noqa: E731
    out = [line(header), "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    out += [line(r) for r in rows]
    return "\n".join(out)


# ----------------------------------------------------------------------------- plots


def plot_app(run, app, path):
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    rs = [r for r in run.results.values() if r.app == app and r.ok]
    if len({r.size for r in rs}) < 2:  # one size (launch): the table says it all
        return False
    unit = next((r.unit for r in rs if r.unit), "rate")
    series = {}
    for r in rs:
        series.setdefault((r.variant, r.role), []).append(r)
    fig, (ax_rate, ax_pct) = plt.subplots(1, 2, figsize=(13, 5))
    colors = plt.get_cmap("tab10").colors + plt.get_cmap("Dark2").colors
    k = 0
    for (variant, role), points in sorted(series.items(), key=lambda kv: (ROLE_ORDER.get(kv[0][1], 3), kv[0][0])):
        points.sort(key=lambda r: r.size)
        x = [r.size for r in points]
        if role == "anchor":
            style = dict(color="black", linewidth=2.8, marker="s", markersize=6, zorder=5)
        elif role == "raw-kokkos":
            style = dict(color="0.45", linewidth=2.0, linestyle="--", marker="D", markersize=5, zorder=4)
        else:
            style = dict(color=colors[k % len(colors)], linewidth=1.4, marker="o", markersize=4)
            k += 1
        label = "%s (%s)" % (variant, role) if role != "kapi" else variant
        ax_rate.plot(x, [r.rate for r in points], label=label, **style)
        if role != "anchor":
            px = [(r.size, r.pct_anchor) for r in points if r.pct_anchor is not None]
            if px:
                ax_pct.plot([p[0] for p in px], [p[1] for p in px], label=label, **style)
    ctx = run.context
    if is_device(ctx):
        title = "%s — %s, %s" % (app, ctx.get("device", "?").split(" (")[0], ctx.get("kapi_config", "?"))
    else:
        title = "%s — %s, %s thread(s), %s" % (app, ctx.get("kokkos_backend", "?"), ctx.get("kokkos_concurrency", "?"),
                                              ctx.get("kapi_config", "?"))
    size_name = rs[0].size_name
    sizes = sorted({r.size for r in rs})
    pow2 = all(s & (s - 1) == 0 for s in sizes) and sizes[-1] > 65536
    ticks = sizes if len(sizes) <= 12 else sizes[::2]
    for ax in (ax_rate, ax_pct):
        ax.set_xscale("log", base=2)
        ax.set_xticks(ticks)
        ax.set_xticklabels([_pow2(s) if pow2 else str(s) for s in ticks], fontsize=8)
        ax.minorticks_off()
        ax.set_xlabel(size_name)
        ax.grid(True, which="major", alpha=0.3)
    ax_rate.set_yscale("log")
    ax_rate.set_ylabel(("microseconds per run" if unit == "us" else unit) + " (median)")
    ax_rate.set_title(title, fontsize=10)
    ax_pct.axhline(100, color="black", linewidth=1.0)
    ax_pct.set_ylabel("% of anchor (median)")
    ax_pct.set_title("relative to the anchor (%s)" % ", ".join(sorted(v for v, role in series if role == "anchor")),
                     fontsize=10)
    ax_pct.set_ylim(bottom=0)
    ax_rate.legend(fontsize=7, loc="best")
    fig.tight_layout()
    tmp = None
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = _temporary_beside(path)
        fig.savefig(tmp, dpi=100, format="png")
        os.replace(tmp, path)
    except OSError as e:
        raise OSError(e.errno, e.strerror, path)
    finally:
        plt.close(fig)
        if tmp and os.path.exists(tmp):
            os.remove(tmp)
    return True


def _temporary_beside(path):
    """A new temporary file's name in path's folder (renamed onto path when complete)."""
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp",
                               dir=os.path.dirname(path) or ".")
    os.close(fd)
    return tmp


def write_file(path, text):
    """Writes path whole or not at all: a temporary file beside it, then renamed. An
    OSError names path."""
    tmp = None
    try:
        tmp = _temporary_beside(path)
        with open(tmp, "w") as f:
            f.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except OSError as e:
        raise OSError(e.errno, e.strerror, path)
    finally:
        if tmp and os.path.exists(tmp):
            os.remove(tmp)


# ----------------------------------------------------------------------------- report


def build(folder, plots=True):
    runs = kr.load([folder])
    meta = read_meta(folder)
    by_app = {}
    for run in runs:
        for app in run.apps():
            by_app[app] = run
    known = ("matmul", "reduce", "init3d", "launch")
    order = [a for a in known if a in by_app] + sorted(a for a in by_app if a not in known)
    ctx = next(iter(by_app.values())).context if by_app else {}
    results = kr.merged(runs)
    md = []
    config = ctx.get("kapi_config", meta.get("config", "?"))
    md.append("# Benchmark report: %s on %s" % (config, meta.get("host", ctx.get("host_name", "?"))))
    md.append("")
    info = [
        ("configuration", "%s (%s suite)" % (config, ctx.get("kapi_suite", meta.get("suite", "?")))),
        ("date", meta.get("date", ctx.get("date", "?"))),
        ("backend", ("%s (device; host side: %s thread(s))" % (ctx.get("kokkos_backend", "?"),
                                                               ctx.get("host_concurrency", "?")))
         if is_device(ctx) else "%s, %s thread(s); OMP_PROC_BIND=%s, OMP_PLACES=%s" % (
            ctx.get("kokkos_backend", "?"), ctx.get("kokkos_concurrency", "?"), ctx.get("OMP_PROC_BIND", "?"),
            ctx.get("OMP_PLACES", "?"))),
        ("device", ctx.get("device", "?")),
        ("Kokkos", "%s (backends %s)" % (ctx.get("kokkos_version", "?"), ctx.get("kokkos_backends", "?"))),
        ("compiler", "%s; flags: %s" % (ctx.get("compiler", "?"), ctx.get("cxx_flags", "?"))),
        ("timing", ctx.get("timing", "?")),
        ("repetitions", "%s per benchmark; cells are medians" % _repetitions(results)),
        ("machine load", "before %s, after %s (1/5/15-min load averages, %s cores)" % (
            meta.get("load_before", "?"), meta.get("load_after", "?"), meta.get("nproc", "?"))),
        ("git", ctx.get("git", meta.get("git", "?"))),
    ]
    others = ["%s %s" % (k[len("others_"):], v) for k, v in meta.items() if k.startswith("others_")]
    if others:
        info.insert(9, ("other processes", "; ".join(others)))
    mm = by_app.get("matmul")
    if mm is not None and "openblas_core" in mm.context:
        info.append(("OpenBLAS core", mm.context["openblas_core"]))
    md.append(markdown_table(["", ""], info))
    md.append("")
    disturbed = []
    for k, v in meta.items():
        m = re.search(r"= ([0-9.]+)% of", v) if k.startswith("others_") else None
        if m and float(m.group(1)) >= 5.0:
            disturbed.append("%s %s%%" % (k[len("others_"):], m.group(1)))
    if disturbed:
        md.append("**Warning: other processes took a share of the CPUs while benchmarks ran (%s): those figures "
                  "are noisy. Take figures on a quiet machine.**" % ", ".join(disturbed))
        md.append("")
    md.append("Each cell: median rate · %% of the anchor · %% of the raw-Kokkos twin (anchors show the rate, raw-Kokkos "
              "rows rate · %% of anchor). Percentages compare run times measured in the same process. "
              "† marks a run time that varied by more than %d%% (coefficient of variation) over the repetitions; "
              "`skip` cells are explained under the table." % int(NOISY_CV * 100))
    md.append("")
    terminal = []
    for app in order:
        run = by_app[app]
        unit, header, rows, notes = app_table(run, app)
        rs = [r for r in run.results.values() if r.app == app]
        typ = rs[0].type if rs else "?"
        md.append("## %s (%s, %s)" % (app, typ, unit))
        md.append("")
        for key, what in (("anchor", "anchor"), ("raw_kokkos", "raw Kokkos")):
            if key in run.context:
                md.append("- %s: %s" % (what, run.context[key]))
        md.append("")
        table = markdown_table(header, rows)
        md.append(table)
        md.append("")
        if unit == "us":
            what = "microseconds per launch · % of raw Kokkos (raw time / this time)"
        elif unit == "ns/item":
            what = "nanoseconds per work-item per round · % of anchor (anchor time / this time)"
        else:
            what = "rate · % of anchor · % of raw Kokkos"
        terminal.append("%s (%s, %s: %s)\n%s" % (app, typ, unit, what, table))
        if notes:
            md.append("Skipped:")
            md.extend("- " + n for n in notes)
            md.append("")
        png = os.path.join(folder, "plots", app + ".png")
        if plots and plot_app(run, app, png):
            md.append("![%s](plots/%s.png)" % (app, app))
            md.append("")
    rows = targets(results, {a: r.context for a, r in by_app.items()})
    if rows:
        md.append("## Targets")
        md.append("")
        md.append("The project's targets (issue 5 on host, set for `openmp` on the 2-core development machine; "
                  "issue 6 on CUDA), checked against this run's medians.")
        md.append("")
        t = markdown_table(["target", "measured (medians)", "status"], rows)
        md.append(t)
        md.append("")
        terminal.append("Targets\n" + t)
    write_file(os.path.join(folder, "report.md"), "\n".join(md))
    return "\n\n".join(terminal)


def _repetitions(results):
    reps = sorted({r.repetitions for r in results.values() if r.ok})
    return "/".join(str(r) for r in reps) if reps else "?"


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    ap = kr.ArgumentParser(prog="report", description=__doc__,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", help="a results folder written by scripts/run-suite.sh")
    ap.add_argument("--print", action="store_true", help="print the tables and targets")
    ap.add_argument("--no-plots", action="store_true", help="skip the PNG plots")
    args = ap.parse_args()
    # Problems with the folder or its JSON: one line and exit status 2; report.md and the
    # plots are written whole or not at all.
    if not os.path.isdir(args.folder):
        kr.fail("report: %s: %s" % (args.folder, "not a folder (report takes a results folder of scripts/run-suite.sh)"
                                    if os.path.exists(args.folder) else "no such results folder"))
    try:
        text = build(args.folder, plots=not args.no_plots)
    except kr.ResultsError as e:
        kr.fail("report: %s" % e)
    except OSError as e:
        kr.fail("report: cannot write %s (%s)" % (e.filename or "the report in " + args.folder, e.strerror or e))
    if args.print:
        print(text)


if __name__ == "__main__":
    main()
