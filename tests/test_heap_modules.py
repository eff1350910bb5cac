"""bench/board/heap_modules.py, the account of a game's heap by module (issue 11), under the
MicroPython unix port on the firmware as bench/board/targets.py compiles it: the game ends
without an error, every firmware module it loads is counted once, and the totals agree."""

import json
import os
import subprocess

import pytest
from mpytools import ROOT, cached_tree

from bench.board import targets


@pytest.fixture(scope="module")
def tree():
    """The firmware as `make deploy` compiles it, with the bench beside it (made once a run,
    shared with tests/test_bench_gc.py: mpytools.cached_tree)."""
    if not (os.path.exists(targets.MICROPYTHON) and os.path.exists(targets.MPY_CROSS)):
        pytest.fail("the MicroPython unix port and mpy-cross are missing: run make setup")
    return cached_tree("deploy", targets.DEPLOY_SOURCES, targets.deploy_tree)


def test_heap_account_of_a_game_against_the_board(tree):
    account = targets.heap_modules(tree)
    assert account["errors"] == 0
    names = [name for name, _ in account["modules"]]
    assert len(names) == len(set(names))
    for name in ("app", "board_bench", "gammon.position", "control.autoplay", "kernels.net"):
        assert name in names, name
    assert "gammon.position_id" not in names  # a new game never reads a Position ID back
    assert 0 < account["in_use_after_imports"] < account["in_use_app_built"]
    assert account["in_use_app_built"] <= account["in_use_peak_between_steps"]
    assert account["in_use_after_game"] <= account["in_use_peak_between_steps"]
    assert account["bench_bytes"] > 0 and account["qstrs"] > 500
    assert account["qstr_bytes"] > 0 and 0 <= account["qstr_headroom"] < 2000
    fig = targets.heap_figures(account)
    assert fig["heap_in_use_kb_after_game"] == round(account["in_use_after_game"] / 1024, 1)
    assert "app" in targets.heap_table(account)


def _outcome(tree, heap, args):
    """The game in `heap` KB: "ok", "fail" (error events, lost lines, a side given back) or
    "none" (the firmware could not even start); an exception out of the game fails."""
    code, out = targets.board_bench(tree, heap, *args)
    if "Traceback" not in out:
        assert out.startswith(("ok", "fail:")), out[-600:]
        return "ok" if out.startswith("ok") else "fail"
    assert "play_game" not in out, "%d KB: the firmware raised in the game\n%s" % (
        heap, out[-1200:]
    )
    assert "in build" in out or "<module>" in out, out[-1200:]  # it could not start
    return "none"


def _edge(probe, heaps, ok):
    """The first heap of `heaps` (largest first, the first one's outcome in `ok`) after which
    no outcome is in `ok`, by bisection (issue 29): every heap probed is checked as the sweep
    checks it, the one just past the edge among them."""
    lo, hi = 0, len(heaps) - 1  # heaps[lo] is in ok; the edge lies in lo..hi
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if probe(heaps[mid]) in ok:
            lo = mid
        else:
            hi = mid - 1
    return lo


@pytest.mark.parametrize("mode, top", [("", 260), ("match", 324)])
def test_a_heap_too_small_for_a_game_gives_error_events_never_an_exception(tree, mode, top):
    """From a heap where the game passes (a game against the board; a match's game with the
    cube, the board on both sides) down to one where the firmware cannot even start, the
    game played on after its first error: in between, the board's player, a reply, a save,
    a setting, a throw or the LEDs of the cube find no room, and each is an error event, a
    lost line or a side given back to a person (the bench's "fail: ..."), never an
    exception out of a press, a frame or a request, which would stop a task on the board.

    The heaps between: by bisection, the edge where the game stops passing and the edge
    where the firmware stops starting, each heap probed on the way checked (the heap just
    below each edge among them); `pytest --deep` (LEDGAMMON_DEEP=1) plays every 8 KB step
    down from the top instead, as before issue 29."""
    args = ["heap", "1", "onward"] + ([mode] if mode else [])
    outcomes = {}

    def probe(heap):
        if heap not in outcomes:
            outcomes[heap] = _outcome(tree, heap, args)
        return outcomes[heap]

    assert probe(top) == "ok", "raise the top: %d KB" % top
    heaps = list(range(top, 56, -8))  # the sweep's steps, down to the first below 64 KB
    if os.environ.get("LEDGAMMON_DEEP") == "1":  # tests/conftest.py
        for heap in heaps:
            if probe(heap) == "none":
                break
    else:
        passes = _edge(probe, heaps, ("ok",))
        _edge(probe, heaps[passes:], ("ok", "fail"))
    assert "fail" in outcomes.values(), outcomes  # some heaps were too small for the game


def _start(tree, tmp_path, heap_kb, *args):
    """tests/firmware/start_in_heap.py: main.main() on the fake hardware, main.py as source
    beside the compiled tree (as on a board)."""
    firmware = os.path.join(ROOT, "tests", "firmware")
    path = ":".join((".frozen", os.path.join(firmware, "fake_hw"), firmware,
                     os.path.join(ROOT, "firmware"), "."))
    env = dict(os.environ, MICROPYPATH=path)
    cmd = [targets.MICROPYTHON, "-X", "heapsize=%dK" % heap_kb,
           os.path.join(firmware, "start_in_heap.py"), str(tmp_path), *args]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=tree, timeout=120)
    return proc.returncode, proc.stdout + proc.stderr


def test_a_board_that_cannot_start_says_so_with_an_event_and_red_leds(tree, tmp_path):
    """main.py on a board has nothing to fall back to: when the firmware cannot start (no
    room for its code in this heap, a module missing) it says so, a `no_start` error event
    and every 4th LED red, and returns to the REPL, where an uncaught exception would leave
    the LEDs dark and nothing a host reads as the protocol."""
    code, out = _start(tree, tmp_path, 256)
    assert code == 0 and out.startswith("started"), out[-1500:]
    assert '"repl":true' in out and "no_start" not in out
    code, out = _start(tree, tmp_path, 128)  # room for the hardware, not for the firmware
    assert code == 0 and "Traceback" not in out, out[-1500:]
    lines = out.splitlines()
    assert lines[0] == "not started", out
    leds = int(lines[1].split()[1])
    assert lines[1] == "leds %d writes 1 red %d first [0, 4, 8] other 0" % (
        leds, (leds + 3) // 4), out
    event = json.loads(lines[2])
    assert event["event"] == "error" and event["code"] == "no_start", event
    assert "MemoryError" in event["message"], event
    assert not os.listdir(tmp_path)  # nothing written: a saved game would still be there
    code, out = _start(tree, tmp_path, 256, "nohw")  # main() finds no board module
    assert code == 0 and out.startswith("not started") and "Traceback" not in out, out
    event = json.loads(out.splitlines()[1])
    assert event["code"] == "no_start" and "OSError" in event["message"], event
