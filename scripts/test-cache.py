#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Which test cases of a build passed before on exactly these inputs, so that `./kapi test`
runs only the others (as a build system with test caching does).

  test-cache.py select [--all] <build-dir> <cache-dir>
      prints the ctest arguments that run the cases not known to pass (`-I 0,0,0,n,…`),
      nothing when every case is known to pass; a line on stderr says how many are skipped
      (--all: every case runs; only their keys are computed, for `record`)
  test-cache.py record <build-dir> <cache-dir> <junit-xml>
      remembers the cases the ctest run of that JUnit file passed

A case's key is a hash of everything it runs on: its name, command and ctest properties;
the content of every file its command or environment names and, for programs, of the
shared libraries they load; the machine (processor, core count, kernel, stack and mapping
limits, GPUs) and the environment variables that steer Kokkos, OpenMP, kapi, MPI and the
sanitizers. Paths inside the build folder, the source tree and the dependency cache are
written relative to them, so a clean clone elsewhere finds the same keys.

Only programs built in the build folder are cached, also when an MPI launcher, or a script
that reads nothing but its arguments (a CMake `-P` script, the cross configurations'
emulator; such a script says so in its first lines: "kapi-test-cache: reads only its
arguments"), starts them: they read nothing but their arguments. The installed packages'
versions are part of the machine, so that an update of an MPI, an emulator or a library a
cross-compiled program loads (which `ldd` cannot list) runs the cases again. Cases run by
another interpreter (the source checks, which read the whole tree) and cases given a
directory always run. A case skipped by its own decision (ctest's
SKIP_REGULAR_EXPRESSION or SKIP_RETURN_CODE) counts as passed: on the same inputs it
skips again.
"""
import hashlib
import json
import os
import platform
import resource
import subprocess
import sys
import time
import xml.etree.ElementTree as ElementTree

KEY_FORMAT = "2"
LAUNCHERS = {"mpiexec", "mpirun", "orterun"}
PURE_SCRIPT_MARK = "kapi-test-cache: reads only its arguments"
STEERING_PREFIXES = ("KOKKOS_", "OMP_", "GOMP_", "KAPI_", "OMPI_", "PRTE_", "ASAN_", "UBSAN_", "LSAN_", "CUDA_",
                     "HIP_", "ROCR_", "HSA_")
NOT_STEERING = {"KAPI_CACHE", "KAPI_JOBS", "KAPI_OFFLINE"}  # where things are, how many build jobs
KEEP_DAYS = 30
SKIPPED_BY_ITSELF = ("SKIP_REGULAR_EXPRESSION_MATCHED", "SKIP_RETURN_CODE=")  # not "Disabled", not a failed fixture


def fail(message):
    print(f"test-cache: {message}", file=sys.stderr)
    sys.exit(2)


class Paths:
    """Replaces the build folder, source tree and dependency cache in a string by names."""

    def __init__(self, build_dir, cache_dir):
        self.roots = []
        source = None
        try:
            with open(os.path.join(build_dir, "CMakeCache.txt"), encoding="utf-8", errors="replace") as f:
                for line in f:
                    if line.startswith("CMAKE_HOME_DIRECTORY:"):
                        source = line.split("=", 1)[1].strip()
        except OSError:
            fail(f"'{build_dir}' is not a configured build folder (no CMakeCache.txt)")
        for name, path in (("<build>", build_dir), ("<source>", source), ("<cache>", cache_dir),
                           ("<dependencies>", os.environ.get("KAPI_CACHE"))):
            if path:
                for spelling in {os.path.abspath(path), os.path.realpath(path)}:
                    self.roots.append((spelling.rstrip("/") + "/", name + "/"))
                    self.roots.append((spelling.rstrip("/"), name))
        self.roots.sort(key=lambda r: -len(r[0]))  # the build folder may lie inside the tree
        self.build = os.path.realpath(build_dir)

    def relative(self, text):
        for path, name in self.roots:
            text = text.replace(path, name)
        return text

    def in_build(self, path):
        return os.path.realpath(path).startswith(self.build + os.sep)


class Hasher:
    def __init__(self):
        self.files = {}
        self.libraries = {}

    def file(self, path):
        path = os.path.realpath(path)
        if path not in self.files:
            digest = hashlib.sha256()
            with open(path, "rb") as f:
                for block in iter(lambda: f.read(1 << 20), b""):
                    digest.update(block)
            self.files[path] = digest.hexdigest()
        return self.files[path]

    def program(self, path):
        """The program's hash and those of the shared libraries it loads (by their names)."""
        path = os.path.realpath(path)
        if path not in self.libraries:
            libraries = {}
            try:
                out = subprocess.run(["ldd", path], capture_output=True, text=True, timeout=60).stdout
            except (OSError, subprocess.TimeoutExpired):
                out = ""
            for line in out.splitlines():
                parts = line.split("=>")
                if len(parts) == 2 and parts[1].strip().startswith("/"):
                    library = parts[1].split("(")[0].strip()
                    if os.path.isfile(library):
                        libraries[parts[0].strip()] = self.file(library)
            self.libraries[path] = libraries
        return {"file": self.file(path), "libraries": self.libraries[path]}


def is_program(path):
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False


def tokens(value):
    """The paths a command argument or environment entry may name: itself and its parts."""
    out = [value]
    for separator in ("=", ":", ","):
        out += [part for piece in list(out) for part in piece.split(separator)]
    return [t for t in dict.fromkeys(out) if t.startswith("/")]


def machine():
    def read(path):
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    cpu = sorted({line.split(":", 1)[1].strip() for line in read("/proc/cpuinfo").splitlines()
                  if line.startswith(("model name", "flags", "Features", "CPU part"))})
    gpus = ""
    for tool in (["nvidia-smi", "-L"], ["rocm-smi", "--showuniqueid"]):
        try:
            gpus += subprocess.run(tool, capture_output=True, text=True, timeout=60).stdout
        except (OSError, subprocess.TimeoutExpired):
            pass
    try:
        packages = subprocess.run(["dpkg-query", "-W", "-f", "${Package}=${Version}\\n"], capture_output=True,
                                  text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        packages = ""
    uname = platform.uname()
    return {
        "packages": hashlib.sha256(packages.encode()).hexdigest(),
        "system": [uname.system, uname.release, uname.machine],
        "cpu": cpu,
        "cores": len(os.sched_getaffinity(0)),
        "max_map_count": read("/proc/sys/vm/max_map_count").strip(),
        "stack": resource.getrlimit(resource.RLIMIT_STACK),
        "address_space": resource.getrlimit(resource.RLIMIT_AS),
        "gpus": gpus,
    }


def steering_environment(paths):
    return {k: paths.relative(v) for k, v in sorted(os.environ.items())
            if k.startswith(STEERING_PREFIXES) and k not in NOT_STEERING}


def list_tests(build_dir):
    try:
        out = subprocess.run(["ctest", "--test-dir", build_dir, "--show-only=json-v1"], capture_output=True,
                             text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        fail(f"ctest could not list the tests of '{build_dir}': {error}")
    return json.loads(out).get("tests", [])


def is_pure_script(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return PURE_SCRIPT_MARK in f.read(4096)
    except OSError:
        return False


def runs_built_program(command, paths):
    """Whether the case runs a program of this build: itself, or through an MPI launcher or
    a script that reads nothing but its arguments (one that says so in its head)."""
    if paths.in_build(command[0]):
        return True
    name = os.path.basename(command[0])
    script = None
    if name == "cmake" and "-P" in command[:-1]:
        script = command[command.index("-P") + 1]
    elif name not in LAUNCHERS:
        script = command[0]  # a launcher script, such as a cross configuration's emulator
    if script is not None and not is_pure_script(script):
        return False
    named = [t for argument in command[1:] for t in tokens(argument) if os.path.isfile(t)]
    # What a script or launcher runs must be programs or such scripts (another may read anything).
    if any(not is_program(t) and not is_pure_script(t) for t in named):
        return False
    return any(paths.in_build(t) for t in named)


def key_of(test, paths, hasher, common):
    """The case's key, or None where it always runs."""
    command = test.get("command") or []
    if not command:
        return None
    if not runs_built_program(command, paths):
        return None
    properties = {p["name"]: p["value"] for p in test.get("properties", [])}
    named = list(command)
    for entry in properties.get("ENVIRONMENT", []):
        named.append(entry)
    files = {}
    for value in named:
        for token in tokens(value):
            if os.path.isdir(token):
                if os.path.realpath(token) != os.path.realpath(properties.get("WORKING_DIRECTORY", "")):
                    return None  # a program given a folder may read anything in it
            elif os.path.isfile(token):
                name = paths.relative(os.path.abspath(token))
                files[name] = hasher.program(token) if is_program(token) else hasher.file(token)
    description = {
        "format": KEY_FORMAT,
        "name": test["name"],
        "command": [paths.relative(c) for c in command],
        "properties": json.loads(paths.relative(json.dumps(properties, sort_keys=True))),
        "files": files,
        "common": common,
    }
    return hashlib.sha256(json.dumps(description, sort_keys=True).encode()).hexdigest()


def keys_file(build_dir):
    return os.path.join(build_dir, "kapi-test-keys.json")


def select(build_dir, cache_dir, every_case=False):
    paths = Paths(build_dir, cache_dir)
    hasher = Hasher()
    common = {"machine": machine(), "environment": steering_environment(paths)}
    tests = list_tests(build_dir)
    keys, run, known = {}, [], 0
    for number, test in enumerate(tests, start=1):
        key = key_of(test, paths, hasher, common)
        if key:
            keys[test["name"]] = key
        if key and os.path.exists(os.path.join(cache_dir, key)):
            os.utime(os.path.join(cache_dir, key))  # still in use: kept past the pruning horizon
            known += 1
        else:
            run.append(number)
    with open(keys_file(build_dir), "w", encoding="utf-8") as f:
        json.dump(keys, f)
    if every_case:
        return
    cacheable = len(keys)
    print(f"[kapi] {known} of {len(tests)} cases passed before on exactly these programs, inputs and machine: not "
          f"run again ({cacheable - known} of the {cacheable} cacheable changed; {len(tests) - cacheable} always run; "
          f"--rerun runs them all)", file=sys.stderr)
    if run:
        print("-I 0,0,0," + ",".join(str(n) for n in run))


def record(build_dir, cache_dir, junit):
    try:
        with open(keys_file(build_dir), encoding="utf-8") as f:
            keys = json.load(f)
    except (OSError, ValueError):
        return  # no selection was made: nothing to remember
    try:
        cases = ElementTree.parse(junit).getroot().iter("testcase")
    except (OSError, ElementTree.ParseError):
        return  # ctest stopped before it wrote the file: nothing passed that we know of
    os.makedirs(cache_dir, exist_ok=True)
    for case in cases:
        skipped = case.find("skipped")
        passed = ((case.get("status") == "run" and case.find("failure") is None and case.find("error") is None) or
                  (skipped is not None and skipped.get("message", "").startswith(SKIPPED_BY_ITSELF)))
        key = keys.get(case.get("name"))
        if passed and key:
            open(os.path.join(cache_dir, key), "w").close()
    horizon = time.time() - KEEP_DAYS * 86400
    for entry in os.scandir(cache_dir):
        if entry.is_file() and entry.stat().st_mtime < horizon:
            os.unlink(entry.path)


def main(argv):
    if len(argv) == 3 and argv[0] == "select":
        select(os.path.abspath(argv[1]), os.path.abspath(argv[2]))
    elif len(argv) == 4 and argv[:2] == ["select", "--all"]:
        select(os.path.abspath(argv[2]), os.path.abspath(argv[3]), every_case=True)
    elif len(argv) == 4 and argv[0] == "record":
        record(os.path.abspath(argv[1]), os.path.abspath(argv[2]), argv[3])
    else:
        fail("usage: test-cache.py select [--all] <build-dir> <cache-dir> | record <build-dir> <cache-dir> <junit-xml>")


if __name__ == "__main__":
    main(sys.argv[1:])
