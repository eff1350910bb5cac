"""The firmware type-checks as MicroPython code (mypy-firmware.ini: the rp2 port's stubs as
its whole library), and that check is live: CPython-only imports and calls the board's
modules do not have are errors.

The whole firmware is checked once a run: `make typecheck` (`make lint`, CI after
`make test`) uses the same cache folder (.mypy_cache/firmware, its own: the host's check reads
CPython's typeshed), so whichever runs second finds it warm. The liveness check reads one
file in a tree of its own, with the same configuration."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TYPINGS = Path(sys.executable).parent.parent / "typings"  # $(VENV)/typings (Makefile)
CACHE = ROOT / ".mypy_cache" / "firmware"  # the Makefile's typecheck target's


def _mypy(cwd: Path, cache: Path) -> subprocess.CompletedProcess[str]:
    assert (TYPINGS / "machine.pyi").is_file(), "%s is missing: run make setup" % TYPINGS
    env = dict(os.environ, MYPYPATH=str(TYPINGS))
    cmd = [sys.executable, "-m", "mypy", "--config-file", "mypy-firmware.ini",
           "--custom-typeshed-dir", str(TYPINGS), "--cache-dir", str(cache)]
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def test_the_firmware_type_checks_against_the_rp2_stubs() -> None:
    proc = _mypy(ROOT, CACHE)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Success" in proc.stdout


def test_the_check_finds_what_the_board_does_not_have(tmp_path: Path) -> None:
    """A firmware module the board could not load, with native/ (the configuration's other
    `files`) and the configuration in a tree of their own."""
    top = tmp_path / "tree"
    shutil.copytree(ROOT / "native", top / "native", ignore=shutil.ignore_patterns("__pycache__"))
    (top / "firmware" / "model").mkdir(parents=True)
    shutil.copy(ROOT / "mypy-firmware.ini", top)
    (top / "firmware" / "model" / "cpython_only.py").write_text(
        "import dataclasses\nimport machine\n\nmachine.Pin(2).no_such_method()\n"
    )
    proc = _mypy(top, tmp_path / "cache")
    assert proc.returncode == 1
    assert 'module named "dataclasses"' in proc.stdout  # not on the board
    assert '"Pin" has no attribute "no_such_method"' in proc.stdout  # the rp2 port's API
