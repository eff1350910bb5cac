"""bench/opponent/cube_bench.py (issue 14's `make bench` figures of the board's cube decisions)
runs on MicroPython on the firmware as the board loads it, and its figures say what it did."""

import json
import os
import subprocess

from gammon import met
from mpytools import MICROPYTHON, ROOT, require

from bench import mp
from bench.strength.board_agent import build

WEIGHTS = os.path.join("firmware", "weights.bin")
START = "4HPwATDgc/ABMA"  # the opening position: nobody doubles, and a double is taken
OTHER = "AAAA/3+UUkpJKQ"  # the move bench's worst case (15 checkers on the bar): dropped


def _run(mpy, cases, *args):
    require(MICROPYTHON)
    cmd, env = mp.command("opponent.cube_bench", [*args, str(cases), WEIGHTS], "96K", mpy)
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=ROOT, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.strip().splitlines()
    return lines, json.loads(lines[-1])


def test_cube_bench_times_every_decision_and_counts_what_the_cube_loads(tmp_path):
    mpy = str(tmp_path / "mpy")
    assert build(mpy) == []
    cases = tmp_path / "cases.txt"
    # four times the opening: money play (cube centred, then the roller's at 2), then a
    # 7-point match twice (bench/opponent/cube_bench.state); then another position, and a
    # blank line
    cases.write_text("%s 3 1\n" % START * 4 + "\n%s 2 1\n" % OTHER)
    lines, fig = _run(mpy, cases)
    assert set(fig) == {"cube_decisions", "cube_decision_us_mean", "cube_decision_us_max",
                        "cube_decision_alloc_max_bytes", "cube_heap_bytes",
                        "cube_table_bytes"}, fig
    # each position: a decision before the throw and the answer to a double, at 2 levels
    assert fig["cube_decisions"] == 5 * 2 * 2, lines
    assert "in 5 positions" in lines[0]
    assert "'decide None': 10" in lines[0], lines[0]
    assert "'answer take': 8" in lines[0] and "'answer drop': 2" in lines[0], lines[0]
    assert 0 < fig["cube_decision_us_mean"] <= fig["cube_decision_us_max"]
    assert fig["cube_table_bytes"] == len(met.TABLE)
    assert fig["cube_heap_bytes"] > fig["cube_table_bytes"]  # its code is on the heap too
    assert fig["cube_decision_alloc_max_bytes"] > 0
    lines, fig = _run(mpy, cases, "--limit", "2")
    assert fig["cube_decisions"] == 2 * 2 * 2 and "in 2 positions" in lines[0], lines
