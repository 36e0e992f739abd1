#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""ctest case test_cache_check: scripts/test-cache.py skips exactly the cases that passed
on the same inputs. A project of a few cases (copies of /bin/true and /bin/false as the
build's programs, a CMake wrapper that reads only its arguments, a shell case, a
launcher script marked as reading only its arguments and one not marked) is configured
in a scratch folder, run through select / ctest / record, changed, and run again; each
step's selection is compared with the cases that must run.

  test_cache_check.py <source-dir>
"""
import os
import shutil
import subprocess
import sys
import tempfile

source = os.path.abspath(sys.argv[1])
script = os.path.join(source, "scripts", "test-cache.py")
wrapper = os.path.join(source, "cmake", "kapi_expect_exit.cmake")
failures = []

PROJECT = f"""cmake_minimum_required(VERSION 3.16)
project(cache_check NONE)
enable_testing()
file(COPY_FILE /bin/true ${{CMAKE_BINARY_DIR}}/program)
file(COPY_FILE /bin/false ${{CMAKE_BINARY_DIR}}/failing)
add_test(NAME built COMMAND ${{CMAKE_BINARY_DIR}}/program)
add_test(NAME wrapped COMMAND ${{CMAKE_COMMAND}} -DNARGS=1 -DARG0=${{CMAKE_BINARY_DIR}}/program -DSTATUS=0
         "-DEXPECT=.*" -P {wrapper})
add_test(NAME shell COMMAND sh -c true)
add_test(NAME fails COMMAND ${{CMAKE_BINARY_DIR}}/failing)
add_test(NAME given_a_folder COMMAND ${{CMAKE_BINARY_DIR}}/program ${{CMAKE_SOURCE_DIR}})
add_test(NAME skips COMMAND ${{CMAKE_BINARY_DIR}}/program)
set_tests_properties(skips PROPERTIES SKIP_RETURN_CODE 0)
add_test(NAME steered COMMAND ${{CMAKE_BINARY_DIR}}/program)
set_tests_properties(steered PROPERTIES ENVIRONMENT OMP_NUM_THREADS=3)
add_test(NAME launched COMMAND ${{CMAKE_SOURCE_DIR}}/launcher.sh ${{CMAKE_BINARY_DIR}}/program)
add_test(NAME launched_unmarked COMMAND ${{CMAKE_SOURCE_DIR}}/unmarked.sh ${{CMAKE_BINARY_DIR}}/program)
"""
LAUNCHER = """#!/bin/sh
# kapi-test-cache: reads only its arguments
exec "$@"
"""
ORDER = ["built", "wrapped", "shell", "fails", "given_a_folder", "skips", "steered", "launched", "launched_unmarked"]


def run(command, env=None, check=True):
    result = subprocess.run(command, capture_output=True, text=True, env=env)
    if check and result.returncode != 0:
        sys.exit(f"test_cache_check: {' '.join(command)} failed ({result.returncode}):\n{result.stdout}{result.stderr}")
    return result


def cycle(build, cache, expected, step, env=None):
    """select, then ctest over the selection, then record; the selection must be `expected`."""
    selection = run([sys.executable, script, "select", build, cache], env=env).stdout.split()
    numbers = selection[1].split(",")[3:] if selection else []
    names = sorted(ORDER[int(n) - 1] for n in numbers)
    if names != sorted(expected):
        failures.append(f"{step}: ran {names}, expected {sorted(expected)}")
    junit = os.path.join(build, "results.xml")
    if os.path.exists(junit):
        os.unlink(junit)
    if selection:
        run(["ctest", "--test-dir", build, "--output-junit", junit] + selection, env=env, check=False)
        run([sys.executable, script, "record", build, cache, junit], env=env)


def configure(tree, build):
    run(["cmake", "-S", tree, "-B", build])


with tempfile.TemporaryDirectory() as scratch:
    tree = os.path.join(scratch, "project")
    os.makedirs(tree)
    with open(os.path.join(tree, "CMakeLists.txt"), "w") as f:
        f.write(PROJECT)
    for name, text in (("launcher.sh", LAUNCHER), ("unmarked.sh", LAUNCHER.replace("kapi-test-cache", "a"))):
        with open(os.path.join(tree, name), "w") as f:
            f.write(text)
        os.chmod(os.path.join(tree, name), 0o755)
    build, cache = os.path.join(tree, "build"), os.path.join(scratch, "cache")
    configure(tree, build)
    always = ["shell", "fails", "given_a_folder", "launched_unmarked"]  # an interpreter, a failure, a folder, a script unmarked

    cycle(build, cache, ORDER, "first run")
    cycle(build, cache, always, "second run, nothing changed")

    with open(os.path.join(build, "program"), "ab") as f:  # the program's bytes change
        f.write(b"\0")
    cycle(build, cache, ORDER, "after the program changed")
    cycle(build, cache, always, "then unchanged")

    env = dict(os.environ, OMP_PROC_BIND="close")  # the environment steering OpenMP
    cycle(build, cache, ORDER, "with OMP_PROC_BIND changed", env=env)

    # The same tree checked out elsewhere, built alike: the same keys.
    moved = os.path.join(scratch, "elsewhere")
    shutil.copytree(tree, moved, ignore=shutil.ignore_patterns("build"))
    configure(moved, os.path.join(moved, "build"))
    with open(os.path.join(moved, "build", "program"), "ab") as f:
        f.write(b"\0")
    cycle(os.path.join(moved, "build"), cache, always, "a clone elsewhere")

if failures:
    sys.exit("test_cache_check:\n  " + "\n  ".join(failures))
print("test_cache_check: every selection as expected")
