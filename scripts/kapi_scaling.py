# SPDX-License-Identifier: Apache-2.0
"""Scaling tables and plots of the distributed apps (kapi-mpi under mpirun), from the
scaling.jsonl that scripts/run-scaling.sh writes into a results folder: per app, kind
(strong: a fixed global size; weak: a fixed size per rank), element type and variant, the
median time of each rank count, the rate, the speed-up and the parallel efficiency
against the 1-rank run of the same build (strong: t1 / (P tP); weak: t1 / tP)."""

import json
import os
import re

RATE = (("gb_per_s", "GB/s"), ("gflops", "GFLOP/s"), ("gpoints_per_s", "Gpoints/s"))


def load(folder):
    path = os.path.join(folder, "scaling.jsonl")
    if not os.path.exists(path):
        return []
    rows = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                obj = json.loads(line)
                summary = obj["summary"]
                for r in summary["results"]:
                    rows.append(dict(kind=obj["kind"], app=summary["app"].replace("mpi-", ""),
                                     ranks=int(summary["ranks"]), space=summary.get("space", "?"),
                                     device_aware=summary.get("device_aware_mpi"), grid=summary.get("grid"),
                                     transport=summary.get("transport"), **r))
            except (ValueError, KeyError, TypeError) as e:
                raise ValueError("%s line %d: not a kapi-mpi summary (%s)" % (path, number, e))
    return rows


def size_label(r):
    """The global size (strong) or the size per rank (weak)."""
    if r["app"] == "reduce":
        n = r["n"] // (r["ranks"] if r["kind"] == "weak" else 1)
        return "2^%d" % (n.bit_length() - 1) if n >= 1024 and n & (n - 1) == 0 else str(n)
    if r["app"] == "matmul":
        return "%dx%dx%d" % (r["m"], r["n"], r["k"])
    points = r["nx"] * r["ny"] * r["nz"]
    if r["kind"] == "weak":
        side = round((points / r["ranks"]) ** (1 / 3))
        return "%d^3 per rank" % side
    return "%dx%dx%d" % (r["nx"], r["ny"], r["nz"])


def groups(rows):
    out = {}
    for r in rows:
        key = (r["app"], r["kind"], r["type"], r["variant"], size_label(r))
        out.setdefault(key, {})[r["ranks"]] = r  # a later run of the same point wins
    return out


def rate_of(r):
    for key, unit in RATE:
        if key in r:
            return r[key], unit
    return None, ""


def table(points, kind):
    one = points.get(1)
    rows = []
    for p in sorted(points):
        r = points[p]
        rate, unit = rate_of(r)
        speedup = eff = None
        if one is not None:
            speedup = one["median_s"] / r["median_s"]
            eff = speedup / p if kind == "strong" else one["median_s"] / r["median_s"]
        rows.append([str(p), r.get("grid") or "", "%.3f" % (r["median_s"] * 1e3),
                     "%.2f %s" % (rate, unit) if rate is not None else "—",
                     "%.2fx" % speedup if speedup is not None and kind == "strong" else "—",
                     "%.0f%%" % (100 * eff) if eff is not None else "—",
                     "yes" if r.get("pass") and r.get("verified", "none") != "none" else "not checked"
                     if r.get("verified", "none") == "none" else "FAIL"])
    return ["ranks", "grid", "median ms", "rate", "speed-up", "efficiency", "verified"], rows


def plot(key, points, path):
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    if len(points) < 2 or 1 not in points:
        return False
    app, kind, typ, variant, size = key
    ps = sorted(points)
    t = [points[p]["median_s"] * 1e3 for p in ps]
    t1 = points[1]["median_s"] * 1e3
    fig, (ax_t, ax_e) = plt.subplots(1, 2, figsize=(11, 4))
    ax_t.plot(ps, t, "o-", label="measured")
    ax_t.plot(ps, [t1 / p if kind == "strong" else t1 for p in ps], "k--", label="ideal")
    ax_t.set_xscale("log", base=2)
    ax_t.set_yscale("log")
    ax_t.set_xticks(ps, [str(p) for p in ps])
    ax_t.set_xlabel("ranks")
    ax_t.set_ylabel("median time (ms)")
    ax_t.legend()
    eff = [100 * (t1 / (p * x) if kind == "strong" else t1 / x) for p, x in zip(ps, t)]
    ax_e.plot(ps, eff, "o-")
    ax_e.axhline(100, color="k", linestyle="--")
    ax_e.set_xscale("log", base=2)
    ax_e.set_xticks(ps, [str(p) for p in ps])
    ax_e.set_ylim(0, max(110, max(eff) * 1.1))
    ax_e.set_xlabel("ranks")
    ax_e.set_ylabel("efficiency vs 1 rank (%)")
    fig.suptitle("%s, %s scaling, %s, %s, %s" % (app, kind, typ, variant, size))
    fig.tight_layout()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return True


def section(folder, markdown_table, plots=True):
    """(markdown lines, terminal text) of the scaling results, or None without any."""
    rows = load(folder)
    if not rows:
        return None
    md = ["## Scaling over MPI ranks (kapi-mpi)", ""]
    first = rows[0]
    # Summaries name their transport; older ones say only whether MPI was CUDA-aware.
    transports = sorted({r["transport"] for r in rows if r["ranks"] > 1 and r.get("transport")})
    if transports:
        how = "data between ranks: " + "; ".join(transports)
    elif first.get("device_aware"):
        how = "MPI reads device memory directly (CUDA-aware)"
    else:
        how = "MPI is not CUDA-aware: device buffers are staged through pinned host memory"
    md.append("Each rank one %s execution space (one GPU per rank on device builds); %s. Times are medians over "
              "the repeats, each repeat as slow as the slowest rank. Efficiency against the 1-rank run of the same "
              "build: strong scaling t1 / (P tP), weak scaling t1 / tP." % (first["space"], how))
    md.append("")
    terminal = []
    for key, points in sorted(groups(rows).items()):
        app, kind, typ, variant, size = key
        header, body = table(points, kind)
        title = "%s, %s scaling (%s, %s, %s)" % (app, kind, typ, variant, size)
        t = markdown_table(header, body)
        md += ["### " + title, "", t, ""]
        # The size is in the name: a sweep may hold several sizes of one app and kind.
        name = "scaling-%s-%s-%s-%s-%s" % (app, kind, typ, variant, re.sub(r"[^0-9A-Za-z]+", "_", size))
        if plots and plot(key, points, os.path.join(folder, "plots", name + ".png")):
            md += ["![%s](plots/%s.png)" % (title, name), ""]
        terminal.append(title + "\n" + t)
    return md, "\n\n".join(terminal)
