"""pytest setup: the engine tests in tests/engine import `gammon` from firmware/ (and its
native code from native/) and run under CPython here as well as under MicroPython through
tests/mprun.py."""

import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
_ROOT = os.path.join(_HERE, "..")
for _path in (
    os.path.join(_ROOT, "native"),
    os.path.join(_ROOT, "firmware"),
    os.path.join(_HERE, "engine"),
    _HERE,
):
    _path = os.path.normpath(_path)
    if _path not in sys.path:
        sys.path.insert(0, _path)

# The bear-off tables the engine tests read (tests/engine/test_bearoff.py, under MicroPython
# too): generated, not kept in git (host/ledgammon/train/bearoff_table.py), so made here
# once when missing, a few seconds; each writer replaces the file whole.
BEAROFF = os.path.normpath(os.path.join(_ROOT, "build", "bearoff.bin"))
BEAROFF_SMALL = os.path.normpath(os.path.join(_ROOT, "build", "bearoff-3.bin"))  # 3 checkers


def pytest_sessionstart(session):
    from ledgammon.train.bearoff_table import ensure

    ensure(BEAROFF)
    ensure(BEAROFF_SMALL, 3)
