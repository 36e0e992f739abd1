#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Markdown report and plots of one benchmark suite run.

    scripts/report.py RESULTS_DIR [--print] [--no-plots]

Reads RESULTS_DIR/<app>.json (Google Benchmark JSON from bench_<app>) and meta.txt
(scripts/run-suite.sh), writes RESULTS_DIR/report.md and RESULTS_DIR/plots/<app>.png, and
with --print shows the tables and targets on the terminal. The targets checked under the
tables are listed in scripts/targets.json. Plots need matplotlib
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
import kapi_scaling  # noqa: E402

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
# The targets themselves (which app, variant, sizes, thresholds, the words of each row)
# are data: scripts/targets.json. This code knows the kinds of target only.


def _pow2(n):
    return "2^%d" % (n.bit_length() - 1) if n and n & (n - 1) == 0 else str(n)


def _halving_passes(n):
    """Elements read and written by passes that each add the upper half of m elements into
    the lower (m = n, ceil(n/2), ...): about 3n."""
    total, m = 0, n
    while m > 1:
        half = (m + 1) // 2
        total += m + half
        m = half
    return total


def _fused_halving_passes(n, levels=4, tail=4096):
    """The same passes as the pairwise reduction runs them on a device: up to `levels` per
    launch down to `tail` elements, each launch reading the live length once and storing
    what is left after it; then one pass at a time in one work-group."""
    total, m = 0, n
    while m > tail:
        after = m
        for _ in range(levels):
            if after <= tail:
                break
            after = (after + 1) // 2
        total += m + after
        m = after
    return total + _halving_passes(m)


# Memory-traffic models a "variant" target may scale its figure by: elements moved per run.
TRAFFIC = {"halving_passes": _halving_passes, "fused_halving_passes": _fused_halving_passes}


class _Targets:
    """The rows of the Targets table for one run."""

    def __init__(self, results, device, data):
        self.results, self.device, self.data = results, device, data
        self.rows = []
        self.apps = {r.app for r in results.values()}

    # ---- helpers
    def by_variant(self, app, typ=None):
        out = {}
        for r in self.results.values():
            if r.app == app and (typ is None or r.type == typ):
                out.setdefault(r.variant, {})[r.size] = r
        return out

    def size_name(self, app):
        return next((r.size_name for r in self.results.values() if r.app == app), "n")

    def fmt_size(self, app, n):
        return _pow2(n) if self.data.get("apps", {}).get(app, {}).get("pow2_sizes") else str(n)

    def where(self, app, n):
        return "%s=%s" % (self.size_name(app), self.fmt_size(app, n))

    def sizes(self, app, t):
        """The target's sizes: its list, or every size of the run from min_size on."""
        if "sizes" in t:
            return t["sizes"]
        return sorted(n for n in {r.size for r in self.results.values() if r.app == app} if n >= t["min_size"])

    def best_kapi(self, app, size):
        best = None
        for r in self.results.values():
            if r.app == app and r.size == size and r.role == "kapi" and r.ok and r.pct_anchor is not None:
                if best is None or r.pct_anchor > best.pct_anchor:
                    best = r
        return best

    def check(self, name, pairs, threshold, higher=True):
        """pairs: list of (where, % or None). Status over all measured values."""
        measured = [(w, v) for w, v in pairs if v is not None]
        if not measured:
            self.rows.append((name, "not measured", "n/a"))
            return
        ok = all((v >= threshold) if higher else (v <= threshold) for _, v in measured)
        fig = ", ".join("%s: %.1f%%" % (w, v) for w, v in measured)
        self.rows.append((name, fig, "reached" if ok else "MISSED"))

    # ---- the kinds of target (targets.json says what each one means)
    def best_kapi_target(self, app, t):
        pairs = []
        for n in self.sizes(app, t):
            b = self.best_kapi(app, n)
            pairs.append(("%s %s" % (self.where(app, n), b.variant if b else "?"), b.pct_anchor if b else None))
        self.check(t["text"], pairs, t["threshold"])

    def variant_target(self, app, t):
        rs = self.by_variant(app).get(t["variant"], {})
        pairs = []
        for n in self.sizes(app, t):
            r = rs.get(n)
            value = r.pct_anchor if r and r.ok else None
            label = self.where(app, n)
            if "scale" in t:
                scale = TRAFFIC[t["scale"]](n) / n
                value = value * scale if value else None
                label = t.get("label", "{where}").format(where=label, scale=scale)
            pairs.append((label, value))
        self.check(t["text"], pairs, t["threshold"])

    def rate_ratio_target(self, app, t):
        by = self.by_variant(app)
        num, den = by.get(t["variant"], {}), by.get(t["over"], {})
        self.check(t["text"], [(self.where(app, n), 100.0 * num[n].rate / den[n].rate
                                if num[n].ok and n in den and den[n].ok else None)
                               for n in sorted(num) if n >= t["min_size"]], t["threshold"])

    def slowdown_target(self, app, t):
        by = self.by_variant(app, t.get("type"))
        prefix, twin_prefix = t["variant_prefix"], t["twin_prefix"]
        pairs = []
        for v, rs in sorted(by.items()):
            if not v.startswith(prefix):
                continue
            twin = by.get(twin_prefix + v[len(prefix):], {})
            for n in sorted(rs):
                if rs[n].ok and n in twin and twin[n].ok:
                    pairs.append(("%s %s" % (v, self.where(app, n)), twin[n].rate / rs[n].rate))
        if pairs:
            worst = max(pairs, key=lambda p: p[1])
            self.rows.append((t["text"], "worst %s: %.2fx (%d pairs)" % (worst[0], worst[1], len(pairs)),
                              "reached" if worst[1] <= t["max"] else "MISSED"))
        else:
            self.rows.append((t["text"], "not measured", "n/a"))

    def tracked_target(self, app, t):
        rs = self.by_variant(app).get(t["variant"], {})
        figs = [t["figure"].format(size=n, rate=rs[n].rate) for n in sorted(rs) if rs[n].ok]
        self.rows.append((t["text"], ", ".join(figs) if figs else "not measured", "tracked" if figs else "n/a"))

    def latency_over_raw_target(self, app, t):
        raw = self.by_variant(app).get(t["raw"], {}).get(t["size"])
        pairs = []
        for r in sorted((r for r in self.results.values() if r.app == app and r.role == "kapi" and r.ok),
                        key=lambda r: r.variant):
            if raw is not None and raw.ok:
                pairs.append((r.variant, r.rate - raw.rate))
        if pairs:
            worst = max(pairs, key=lambda p: p[1])
            self.rows.append((t["text"], "raw %.2f us; " % raw.rate + ", ".join("%s %+.2f us" % p for p in pairs),
                              "reached" if worst[1] <= t["max_extra"] else "MISSED"))

    def raw_twin_target(self, app, t):
        present = {r.variant for r in self.results.values() if r.app == app}
        if t["variants"] == "kapi":
            variants = sorted({r.variant for r in self.results.values() if r.app == app and r.role == "kapi"})
        else:
            variants = [v for v in t["variants"] if v in present]
        pairs = []
        for v in variants:
            for r in sorted((r for r in self.results.values() if r.app == app and r.variant == v and r.ok),
                            key=lambda r: r.size):
                if r.pct_raw is not None and t["min_size"] <= r.size <= t.get("max_size", r.size):
                    pairs.append(("%s %s" % (v, self.where(app, r.size)), r.pct_raw))
        if not pairs:
            return
        if t["variants"] == "kapi":  # the best framework variant per size
            best = {}
            for where, value in pairs:
                size = where.split()[-1]
                if size not in best or value > best[size][1]:
                    best[size] = (where, value)
            pairs = list(best.values())
        what = t["text"].format(variants="/".join(variants), twin=t["twin"], size_name=self.size_name(app),
                                min_size=self.fmt_size(app, t["min_size"]),
                                max_size=self.fmt_size(app, t.get("max_size", 0)))
        worst = min(pairs, key=lambda p: p[1])
        self.rows.append((what, "worst %s: %.1f%%; median %.1f%% (%d points)" % (
            worst[0], worst[1], sorted(p[1] for p in pairs)[len(pairs) // 2], len(pairs)),
            "reached" if worst[1] >= t["threshold"] else "MISSED"))


def targets(results, ctx_by_app, data=None):
    """Rows of (target, figure, status) for the apps present, from scripts/targets.json."""
    data = kr.targets_data() if data is None else data
    device = any(is_device(c) for c in ctx_by_app.values())
    rows = _Targets(results, device, data)
    for t in data["targets"]:
        on = t.get("on", "any")
        if t["app"] not in rows.apps or (on == "host" and device) or (on == "device" and not device):
            continue
        check = getattr(rows, t["kind"] + "_target", None)
        if check is None:
            raise kr.ResultsError("%s: target '%s' has an unknown kind '%s'" % (kr.TARGETS_FILE, t["text"], t["kind"]))
        check(t["app"], t)
    return rows.rows


# ----------------------------------------------------------------------------- tables


def app_types(run, app):
    """The element types of an app's benchmarks, in the order they ran."""
    types = []
    for name in run.order:
        r = run.results[name]
        if r.app == app and r.type not in types:
            types.append(r.type)
    return types


def app_table(run, app, typ=None):
    rs = [r for r in run.results.values() if r.app == app and (typ is None or r.type == typ)]
    sizes = sorted({r.size for r in rs})
    size_name = rs[0].size_name if rs else "n"
    pow2 = all(s & (s - 1) == 0 for s in sizes) and sizes and sizes[-1] > 65536
    variants = []
    for name in run.order:
        r = run.results[name]
        if r.app == app and (typ is None or r.type == typ) and (r.variant, r.role) not in variants:
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


def plot_app(run, app, path, typ=None):
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    rs = [r for r in run.results.values() if r.app == app and r.ok and (typ is None or r.type == typ)]
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
    try:
        scaling = kapi_scaling.section(folder, markdown_table, plots)
    except ValueError as e:
        raise kr.ResultsError(str(e))
    if scaling is not None and not any(f.endswith(".json") for f in os.listdir(folder)):
        # Only the distributed apps ran (./kapi run <config> --ranks ...).
        meta = read_meta(folder)
        md = ["# Scaling report: %s on %s" % (meta.get("config", "?"), meta.get("host", "?")), ""]
        md.append(markdown_table(["", ""], [(k, meta[k]) for k in ("date", "git", "cpu", "gpu", "mpi", "scaling_ranks",
                                                                    "scaling_sizes", "scaling_launcher") if k in meta]))
        md.append("")
        md += scaling[0]
        write_file(os.path.join(folder, "report.md"), "\n".join(md))
        return scaling[1]
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
    if mm is not None and "tuned_host_shape" in mm.context:
        info.append(("tuned matmul on the host", mm.context["tuned_host_shape"]))
    shapes = ["%s: %s" % (k[len("shapes_"):], v) for k, v in meta.items() if k.startswith("shapes_") and ";" in v]
    if shapes:
        info.append(("3-d range launch shapes (KAPI_CUDA_RANGE_SHAPE)", " | ".join(shapes)))
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
    for app, typ in [(a, t) for a in order for t in (app_types(by_app[a], a) or ["?"])]:
        run = by_app[app]
        types = app_types(run, app)
        unit, header, rows, notes = app_table(run, app, typ if len(types) > 1 else None)
        md.append("## %s (%s, %s)" % (app, typ, unit))
        md.append("")
        for key, what in (("anchor", "anchor"), ("raw_kokkos", "raw Kokkos"), ("choices", "chosen for this machine")):
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
        # One plot per app, or per type where an app has several (file names kept for one).
        stem = app if len(types) < 2 or typ == types[0] else "%s-%s" % (app, typ)
        png = os.path.join(folder, "plots", stem + ".png")
        if plots and plot_app(run, app, png, typ if len(types) > 1 else None):
            md.append("![%s](plots/%s.png)" % (stem, stem))
            md.append("")
    rows = targets(results, {a: r.context for a, r in by_app.items()})
    if rows:
        md.append("## Targets")
        md.append("")
        md.append(kr.targets_data()["intro"])
        md.append("")
        t = markdown_table(["target", "measured (medians)", "status"], rows)
        md.append(t)
        md.append("")
        terminal.append("Targets\n" + t)
    if scaling is not None:
        md += scaling[0]
        terminal.append(scaling[1])
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
