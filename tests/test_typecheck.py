"""The firmware type-checks as MicroPython code (mypy-firmware.ini: the rp2 port's stubs as
its whole library), and that check is live: CPython-only imports and calls the board's
modules do not have are errors."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TYPINGS = Path(sys.executable).parent.parent / "typings"  # $(VENV)/typings (Makefile)


def _mypy(cwd: Path, cache: Path) -> subprocess.CompletedProcess[str]:
    assert (TYPINGS / "machine.pyi").is_file(), "%s is missing: run make setup" % TYPINGS
    env = dict(os.environ, MYPYPATH=str(TYPINGS))
    cmd = [sys.executable, "-m", "mypy", "--config-file", "mypy-firmware.ini",
           "--custom-typeshed-dir", str(TYPINGS), "--cache-dir", str(cache)]
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def test_the_firmware_type_checks_against_the_rp2_stubs(tmp_path: Path) -> None:
    proc = _mypy(ROOT, tmp_path / "cache")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Success" in proc.stdout


def test_the_check_finds_what_the_board_does_not_have(tmp_path: Path) -> None:
    top = tmp_path / "tree"
    for name in ("firmware", "native"):
        shutil.copytree(ROOT / name, top / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "mypy-firmware.ini", top)
    (top / "firmware" / "model" / "cpython_only.py").write_text(
        "import dataclasses\nimport machine\n\nmachine.Pin(2).no_such_method()\n"
    )
    proc = _mypy(top, tmp_path / "cache")
    assert proc.returncode == 1
    assert 'module named "dataclasses"' in proc.stdout  # not on the board
    assert '"Pin" has no attribute "no_such_method"' in proc.stdout  # the rp2 port's API
