"""pytest setup: the engine tests in tests/engine import `gammon` from firmware/ (and its
native code from native/) and run under CPython here as well as under MicroPython through
tests/mprun.py.

The fuzz tests' depth: `make test` (and CI) runs hypothesis's "ci" profile, a fifth of each
fuzz test's examples, the same ones every run (derandomized); `pytest --deep` or
LEDGAMMON_DEEP=1 (`make test-deep`) loads "deep", every example each test names
(fuzzkit.examples), and the heap sweeps play every 8 KB step instead of bisecting."""

import gc
import os

import pytest
from hypothesis import settings

_HERE = os.path.dirname(os.path.abspath(__file__))
_ROOT = os.path.join(_HERE, "..")

# max_examples here is the share of a test's own count (fuzzkit.examples), in percent; it is
# also the count of a hypothesis test that names none.
settings.register_profile("ci", max_examples=20)
settings.register_profile("deep", max_examples=100)


def pytest_addoption(parser):
    parser.addoption(
        "--deep", action="store_true",
        help="every fuzz example the tests name (hypothesis profile 'deep'; LEDGAMMON_DEEP=1)",
    )


def pytest_configure(config):
    if config.getoption("--deep"):
        os.environ["LEDGAMMON_DEEP"] = "1"  # one switch the tests read (the heap sweeps too)
    settings.load_profile("deep" if os.environ.get("LEDGAMMON_DEEP") == "1" else "ci")


# The bear-off tables the engine tests read (tests/engine/test_bearoff.py, under MicroPython
# too): generated, not kept in git (host/ledgammon/train/bearoff_table.py), so made here
# once when missing, a few seconds; each writer replaces the file whole.
BEAROFF = os.path.normpath(os.path.join(_ROOT, "build", "bearoff.bin"))
BEAROFF_SMALL = os.path.normpath(os.path.join(_ROOT, "build", "bearoff-3.bin"))  # 3 checkers


def pytest_sessionstart(session):
    from ledgammon.train.bearoff_table import ensure

    ensure(BEAROFF)
    ensure(BEAROFF_SMALL, 3)


# The firmware collects as the board must (between the player's slices, after a save, in the
# app's idle step: gc.collect), and under CPython each of those collections walks every
# object this process holds: pytest's, hypothesis's, numpy's, every earlier test's module
# fixtures, some 10**5 - 10**6 of them. That made a whole game of the board on CPython ~30
# times slower in the suite than alone (issue 29). So before each test the objects that are
# left are collected once and frozen (gc.freeze: kept out of later collections); a test's
# own objects, its function-scoped fixtures' among them, are made after it and collected as
# before, so what a test can observe of the collector does not change, only the cost. At
# the first test of another module all is thawed and collected once: the fixtures of the
# module before, torn down by then, do not stay frozen for the rest of the run.
_FROZEN_FOR = {"module": ""}


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    module = item.nodeid.split("::")[0]
    if module != _FROZEN_FOR["module"]:
        _FROZEN_FOR["module"] = module
        gc.unfreeze()
    gc.collect()
    gc.freeze()
