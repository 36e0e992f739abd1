# SPDX-License-Identifier: Apache-2.0
"""Reading the benchmark harness' Google Benchmark JSON (bench/common/harness.hpp).

Shared by scripts/report.py and scripts/compare.py; standard library only.

A benchmark is named <app>/<type>/<variant>/<n|N>:<size>; Google Benchmark appends
/min_time:…, /repeats:…, /real_time or /manual_time, which are dropped here so that runs
with other settings (quick and full suites) still match. A variant renamed since a run
was taken is read under its name today (the aliases of scripts/targets.json), so old
result folders compare with new ones. The label is the role: anchor, raw-kokkos or kapi.
"""

import argparse
import json
import math
import numbers
import os
import re
import sys

RATE_UNITS = ("GFLOP/s", "GB/s", "us", "ns/item")  # "us": microseconds per run (launch), lower is better
LOWER_IS_BETTER = ("us", "ns/item")  # "ns/item": nanoseconds per unit of work (barrier), lower is better
_SUFFIX = re.compile(r"^(min_time|min_warmup_time|repeats|iterations|threads):|^(real_time|manual_time|process_time)$")
_TIME_SCALE = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


class ResultsError(Exception):
    """A results folder or JSON file that cannot be read: the message names it and why."""


class ArgumentParser(argparse.ArgumentParser):
    """argparse with one-line usage errors ("kapi: <prog>: ..."), exit status 2."""

    def error(self, message):
        fail("%s: %s (see --help)" % (self.prog, message))


def fail(message, status=2):
    """Ends the script with one line, kapi: <message>, on stderr."""
    sys.stderr.write("kapi: %s\n" % message)
    sys.exit(status)


TARGETS_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "targets.json")
_targets_data = None


def targets_data():
    """scripts/targets.json: the report's targets and the aliases of renamed variants."""
    global _targets_data
    if _targets_data is None:
        try:
            with open(TARGETS_FILE) as f:
                _targets_data = json.load(f)
        except (OSError, ValueError) as e:
            raise ResultsError("%s: cannot read it (%s)" % (TARGETS_FILE, getattr(e, "strerror", None) or e))
    return _targets_data


def canonical_name(name):
    """The name without Google Benchmark's suffixes, a renamed variant under its name today."""
    parts = [p for p in name.split("/") if not _SUFFIX.match(p)]
    if len(parts) >= 3:
        parts[2] = targets_data().get("aliases", {}).get(parts[0], {}).get(parts[2], parts[2])
    return "/".join(parts)


class Result:
    """One benchmark of one run, summarised over its repetitions."""

    def __init__(self, name):
        self.name = name
        parts = name.split("/")
        self.app, self.type, self.variant = (parts + ["", "", ""])[:3]
        size = parts[3] if len(parts) > 3 else ""
        self.size_name, _, value = size.partition(":")
        try:
            self.size = int(value)
        except ValueError:
            self.size = 0
        self.role = "kapi"
        self.unit = None
        self.error = None
        self.times = []  # seconds per run, one per repetition
        self.rates = []
        self.counters = {}  # aggregate name -> {counter: value}; "" for single runs
        self.time_stats = {}  # aggregate name -> seconds (cv: a fraction)
        self.repetitions = 0

    # Medians over the repetitions (Google Benchmark's "median" aggregate when present).
    def stat(self, key, aggregate="median"):
        if aggregate in self.counters and key in self.counters[aggregate]:
            return self.counters[aggregate][key]
        if "" in self.counters and key in self.counters[""]:
            return self.counters[""][key]
        values = self._per_repetition.get(key) if hasattr(self, "_per_repetition") else None
        if values:
            return _median(values)
        return None

    @property
    def rate(self):
        return self.stat(self.unit) if self.unit else None

    @property
    def pct_anchor(self):
        return self.stat("pct_of_anchor")

    @property
    def pct_raw(self):
        return self.stat("pct_of_raw_kokkos")

    @property
    def time(self):
        """Median seconds per run."""
        if "median" in self.time_stats:
            return self.time_stats["median"]
        return _median(self.times) if self.times else None

    @property
    def cv(self):
        """Coefficient of variation over the repetitions (a fraction) of the rate counter
        (the median run of each repetition), else of the mean run time; None for one run."""
        if self.unit and self.unit in self.counters.get("cv", {}):
            return self.counters["cv"][self.unit]
        if "cv" in self.time_stats:
            return self.time_stats["cv"]
        if len(self.times) > 1:
            mean = sum(self.times) / len(self.times)
            var = sum((t - mean) ** 2 for t in self.times) / (len(self.times) - 1)
            return math.sqrt(var) / mean if mean > 0 else None
        return None

    @property
    def ok(self):
        return self.error is None and self.time is not None


def _median(values):
    v = sorted(values)
    if not v:
        return None
    h = len(v) // 2
    return v[h] if len(v) % 2 else 0.5 * (v[h - 1] + v[h])


_BENCH_KEYS = {
    "name", "family_index", "per_family_instance_index", "run_name", "run_type", "repetitions",
    "repetition_index", "threads", "iterations", "real_time", "cpu_time", "time_unit", "label",
    "error_occurred", "error_message", "aggregate_name", "aggregate_unit", "skipped", "skip_message",
    "manual_time",
}


class Run:
    """One Google Benchmark JSON file: its context and its results by canonical name."""

    def __init__(self, path):
        self.path = path
        try:
            with open(path) as f:
                doc = json.load(f)
        except OSError as e:
            raise ResultsError("%s: cannot read it (%s)" % (path, e.strerror or e))
        except UnicodeDecodeError:
            raise ResultsError("%s: not a text file, so not Google Benchmark JSON" % path)
        except ValueError as e:
            what = "empty" if os.path.getsize(path) == 0 else "not valid JSON (%s)" % e
            raise ResultsError("%s: %s; an unfinished or interrupted run? (Google Benchmark JSON expected)"
                               % (path, what))
        try:
            self._read(doc)
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise ResultsError("%s: not Google Benchmark JSON of the kapi benchmarks (%s: %s)"
                               % (path, type(e).__name__, e))

    def _read(self, doc):
        if not isinstance(doc, dict) or not isinstance(doc.get("benchmarks", []), list) \
                or not isinstance(doc.get("context", {}), dict):
            raise ValueError("expected an object with 'context' and a list 'benchmarks'")
        self.context = doc.get("context", {})
        self.results = {}
        self.order = []
        for b in doc.get("benchmarks", []):
            if not isinstance(b, dict) or not isinstance(b.get("run_name") or b["name"], str):
                raise ValueError("a benchmark without a name")
            failed = b.get("error_occurred") or (b.get("skipped") not in (None, False, "NotSkipped", 0))
            t = b.get("real_time")
            if not failed and (not isinstance(t, numbers.Real) or isinstance(t, bool)):
                raise ValueError("benchmark %s has no numeric real_time" % (b.get("run_name") or b["name"]))
            name = canonical_name(b.get("run_name") or b["name"])
            r = self.results.get(name)
            if r is None:
                r = self.results[name] = Result(name)
                r._per_repetition = {}
                self.order.append(name)
            if b.get("label"):
                r.role = b["label"]
            error = b.get("error_message") or b.get("skip_message")
            if failed:
                r.error = error or "failed"
                continue
            counters = {k: v for k, v in b.items() if k not in _BENCH_KEYS and isinstance(v, (int, float))}
            for k in counters:
                if k in RATE_UNITS:
                    r.unit = k
            scale = _TIME_SCALE.get(b.get("time_unit", "ns"), 1e-9)
            if b.get("run_type") == "aggregate":
                agg = b.get("aggregate_name", "")
                r.counters[agg] = counters
                if agg == "cv" or b.get("aggregate_unit") == "percentage":
                    r.time_stats[agg] = b.get("real_time")
                else:
                    r.time_stats[agg] = b.get("real_time") * scale
            else:
                r.repetitions += 1
                r.times.append(b.get("real_time") * scale)
                for k, v in counters.items():
                    r._per_repetition.setdefault(k, []).append(v)
                if b.get("repetitions", 1) in (0, 1):
                    r.counters[""] = counters
        # An error in one repetition is the benchmark's error; a result is either.
        for r in self.results.values():
            if r.error:
                r.times = []

    def apps(self):
        seen = []
        for n in self.order:
            app = self.results[n].app
            if app not in seen:
                seen.append(app)
        return seen


def load(paths):
    """Runs from JSON files and result folders (every *.json inside, sorted). Raises
    ResultsError for a path that does not exist, a folder without JSON, or a file that is
    not Google Benchmark JSON."""
    runs = []
    for p in paths:
        if os.path.isdir(p):
            try:
                names = sorted(f for f in os.listdir(p) if f.endswith(".json"))
            except OSError as e:
                raise ResultsError("%s: cannot list it (%s)" % (p, e.strerror or e))
            if not names:
                raise ResultsError("%s: no *.json in it: not a results folder of scripts/run-suite.sh" % p)
            for f in names:
                runs.append(Run(os.path.join(p, f)))
        elif os.path.exists(p):
            runs.append(Run(p))
        else:
            raise ResultsError("%s: no such results folder or JSON file" % p)
    return runs


def merged(runs):
    """All results of several runs by canonical name (later runs win on clashes)."""
    out = {}
    for r in runs:
        out.update(r.results)
    return out


def size_label(size_name, size):
    """2^24 for powers of two >= 1024 on 1-d sizes (reduce), the number otherwise."""
    if size_name == "n" and size >= 1024 and size & (size - 1) == 0 and size > 8192:
        return "2^%d" % (size.bit_length() - 1)
    return str(size)
