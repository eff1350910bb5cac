"""bench/opponent/opponent_bench.py still runs on MicroPython: every figure `make bench` prints."""

import os
import re
import subprocess
import sys

from mpytools import MICROPYTHON, ROOT, require

from bench import mp
from bench.strength.board_agent import build

WEIGHTS = os.path.join("firmware", "weights.bin")
CASES = ["4HPwATDgc/ABMA 3 1", "4HPwATDgc/ABMA 6 6", "AAAA/3+UUkpJKQ 2 1"]


def _run(heap, path, *args):
    require(MICROPYTHON)
    cmd, env = mp.command("opponent.opponent_bench", args, heap, path)
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=ROOT, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


def test_opponent_bench_prints_its_figures(tmp_path):
    mpy = str(tmp_path / "mpy")
    assert build(mpy) == []
    cases = tmp_path / "cases.txt"
    cases.write_text("\n".join(CASES) + "\n")
    out = _run("256K", mpy, str(cases), WEIGHTS)
    size = os.path.getsize(os.path.join(ROOT, WEIGHTS))
    assert "weights: %s, %d bytes" % (WEIGHTS, size) in out
    assert re.search(r"the opponent adds \d+ \(modules \d+, weights and buffers \d+\)", out), out
    for level in ("strong", "easy"):
        assert re.search(r"%s +over 3 game positions: mean [\d.]+ ms" % level, out), out
        for pid in ("AAAA/3+UUkpJKQ", "d7cNAABUqqqqAA"):
            assert re.search(
                r"%s +%s 1-1: slowest of 3 [\d.]+ ms, \d+ evaluations" % (level, re.escape(pid)),
                out,
            ), out
    out = _run("4M", mpy, "--alloc", str(cases), WEIGHTS)
    assert re.search(r"strong a single choice allocates at most \d+ bytes", out), out
    out = _run("256K", mpy, "--worst", WEIGHTS)
    assert "chose in the worst-case positions at both levels" in out


def test_bench_json_has_issue_11_figures(tmp_path):
    """`make bench`'s issue-11 part writes build/bench.json's keys, every one a number."""
    import json
    import math

    require(MICROPYTHON)
    out = tmp_path / "bench.json"
    cmd = [sys.executable, "-m", "bench.run", "--only", "targets"]
    proc = subprocess.run(
        cmd + ["--quick", "--out", str(out)], capture_output=True, text=True, timeout=900, cwd=ROOT
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    figs = json.loads(out.read_text())
    keys = (
        "heap_smallest_kb_vs_board alloc_max_press_bytes alloc_max_board_frame_bytes "
        "loop_hold_max_us save_write_max_us strip_writes_per_s_idle "
        "strip_writes_per_s_person_move strip_writes_per_s_board_move serial_unread_slowdown"
    ).split()
    assert not [k for k in keys if k not in figs], sorted(figs)
    for key, value in figs.items():
        assert type(value) in (int, float) and math.isfinite(value), (key, value)
    assert figs["heap_smallest_kb_vs_board"] > 0 and figs["heap_smallest_kb_vs_board"] % 8 == 0
    # a match's game needs the match's code and the board's cube decisions too
    assert figs["heap_smallest_kb_match_game"] > figs["heap_smallest_kb_vs_board"]
    assert figs["alloc_max_press_bytes"] > 0 and figs["loop_hold_max_us"] > 0
    assert "heap_smallest_kb_vs_board" in proc.stdout  # printed too
