"""Bench modules run by the MicroPython unix port: their path (MICROPYPATH, never sys.path
edits in the modules themselves), the firmware precompiled as the board loads it, and the
smallest heap a run fits in.

A module is named by its dotted place in bench/ ("engine.engine_bench") and runs as a
top-level module (`micropython -m engine_bench`) with, on its path, the folder of `--path`
first (the firmware precompiled with mpy-cross), then native/ and firmware/ (as source), its
own folder, and any others it names (`also`, relative to the repository). By hand:

    python -m bench.mp [--heap 64K] [--path DIR] [--also FOLDER]... MODULE [ARGS...]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence

import mpytools

from bench import BUILD, FIRMWARE, NATIVE, ROOT

BIN = os.path.dirname(sys.executable)
MICROPYTHON = os.path.join(BIN, "micropython")
MPY_CROSS = mpytools.MPY_CROSS  # the binary itself, not the venv's script that starts it
BENCH_BUILD = os.path.join(BUILD, "bench")
MPY = os.path.join(BENCH_BUILD, "mpy")  # compile_firmware's tree of make bench's runs


def micropypath(module: str, path: str | None = None, also: Sequence[str] = ()) -> str:
    """MICROPYPATH for `module` (see the module's docstring): relative to the repository, the
    runs' working folder, when the folder is in it."""
    own = os.path.join(ROOT, "bench", *module.split(".")[:-1])
    folders = ([path] if path else []) + [NATIVE, FIRMWARE, own, ".frozen"]
    folders += [os.path.join(ROOT, a) for a in also]
    return ":".join(_short(f) for f in folders)


def _short(folder: str) -> str:
    rel = os.path.relpath(folder, ROOT) if os.path.isabs(folder) else folder
    return folder if rel.startswith("..") else rel


def command(
    module: str, args: Sequence[str] = (), heap: str | None = None, path: str | None = None,
    also: Sequence[str] = (),
) -> tuple[list[str], dict[str, str]]:
    """The command line and environment that run `module` with `args` (cwd: ROOT)."""
    cmd = [MICROPYTHON] + (["-X", "heapsize=" + heap] if heap else [])
    cmd += ["-m", module.rsplit(".", 1)[-1], *args]
    return cmd, dict(os.environ, MICROPYPATH=micropypath(module, path, also))


def run(
    module: str, args: Sequence[str] = (), heap: str | None = None, path: str | None = None,
    also: Sequence[str] = (), capture: bool = True,
) -> subprocess.CompletedProcess[str]:
    """`module` run to its end in ROOT, its output captured (or not); never raises on failure."""
    cmd, env = command(module, args, heap, path, also)
    return subprocess.run(cmd, capture_output=capture, text=True, cwd=ROOT, env=env, check=False)


def compile_firmware(dest: str) -> None:
    """The firmware as the board loads it: every module precompiled to .mpy."""
    shutil.rmtree(dest, ignore_errors=True)
    for src in (FIRMWARE, NATIVE):  # one root
        _compile_tree(src, dest)


def _compile_tree(src: str, dest: str) -> None:
    for folder, _, files in os.walk(src):
        for name in files:
            if name.endswith(".py") and name not in ("main.py", "boot.py"):
                rel = os.path.relpath(os.path.join(folder, name), src)
                out = os.path.join(dest, rel[:-3] + ".mpy")
                os.makedirs(os.path.dirname(out), exist_ok=True)
                subprocess.run(
                    [MPY_CROSS, "-march=host", "-o", out, os.path.join(folder, name)], check=True
                )


def smallest_heap(
    module: str, args: Sequence[str], path: str | None = None, lo_kb: int = 4, hi_kb: int = 256
) -> tuple[int, str]:
    """Binary search for the smallest -X heapsize (KB) in which `module` completes."""

    def ok(kb: int) -> tuple[bool, str]:
        r = run(module, args, "%dK" % kb, path)
        return r.returncode == 0, r.stdout.strip()

    good, line = ok(hi_kb)
    if not good:
        return -1, "fails even at %d KB" % hi_kb
    while lo_kb < hi_kb:
        mid = (lo_kb + hi_kb) // 2
        passed, out = ok(mid)
        if passed:
            hi_kb, line = mid, out
        else:
            lo_kb = mid + 1
    return hi_kb, line


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.mp", description=__doc__.split("\n")[0])
    ap.add_argument("--heap", help="-X heapsize, e.g. 64K")
    ap.add_argument("--path", help="a folder of the firmware precompiled with mpy-cross")
    ap.add_argument("--also", action="append", default=[], help="a folder more (repository's)")
    ap.add_argument("module", help='its dotted place in bench/, e.g. "opponent.cube_bench"')
    ap.add_argument("args", nargs=argparse.REMAINDER)
    a = ap.parse_args(argv)
    path = os.path.abspath(a.path) if a.path else None
    return run(a.module, a.args, a.heap, path, a.also, capture=False).returncode


if __name__ == "__main__":
    sys.exit(main())
