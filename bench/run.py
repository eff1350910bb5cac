"""`make bench`: prints the project's speed and memory figures (never asserts them), and
writes them to build/bench.json: one flat JSON object of numbers (issue 11's keys first).

Runs each benchmark under the interpreter it is about: the rules engine under CPython,
the MicroPython unix port and GNU Backgammon's C generator; the heap budget with the
firmware precompiled by mpy-cross, as the board loads it.

    python -m bench.run [--only targets] [--quick] [--out FILE]

--only targets runs issue 11's figures alone (bench/board/targets.py); --quick plays fewer
games for fewer seconds (the tests); --out writes the JSON elsewhere.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

from bench import BUILD, ROOT, mp
from bench.board import targets as issue11
from bench.engine.figures import engine
from bench.figures import flat
from bench.link.serial_bench import report as serial_report
from bench.opponent.figures import bearoff, cube, opponent


def others(figs: dict[str, float]) -> None:
    """Benchmarks of the other parts, each a script of its own; a JSON last line is kept."""
    for module, micropython, prefix in (
        ("board.render_bench", True, ""),
        ("board.firmware_bench", True, "firmware"),
        ("link.serial_bench", False, "serial"),
    ):
        name = module.rpartition(".")[2]
        print("== %s ==" % name.replace("_", " "), flush=True)
        if micropython:
            proc = mp.run(module, (), "8M", also=("tests/firmware",))
        else:
            cmd = [sys.executable, "-m", "bench." + module, "--json"]
            proc = subprocess.run(cmd, cwd=ROOT, check=False, capture_output=True, text=True)
        lines = proc.stdout.rstrip().splitlines()
        fig = None
        if prefix and lines and lines[-1].startswith("{"):
            fig = json.loads(lines[-1])
            flat(prefix, fig, figs)
        if module == "link.serial_bench" and fig is not None:
            print(serial_report(fig))
        else:
            print(proc.stdout, end="")
        print(proc.stderr, end="", file=sys.stderr, flush=True)


def targets(figs: dict[str, float], quick: bool) -> None:
    """Issue 11's figures (bench/board/targets.py): the firmware as deployed, against the
    board."""
    print(
        "== issue 11: the firmware as deployed (heap, allocation, loop hold, strip, serial) ==",
        flush=True,
    )
    fig = issue11.measure(quick)
    print(issue11.report(fig), flush=True)
    figs.update(fig)


def write_json(figs: dict[str, float], path: str) -> None:
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        json.dump(figs, f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote %s (%d figures)" % (os.path.relpath(path, ROOT), len(figs)))


def main() -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.run", description=__doc__.split("\n")[0])
    ap.add_argument("--only", choices=("targets",), default=None)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--out", default=os.path.join(BUILD, "bench.json"))
    args = ap.parse_args()
    figs: dict[str, float] = {}
    try:
        targets(figs, args.quick)
        if args.only is None:
            engine(figs)
            opponent(figs)
            cube(figs)
            bearoff(figs)
            others(figs)
    finally:
        if figs:
            write_json(figs, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
