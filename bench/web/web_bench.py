"""The web page's figures (issue 31's targets), in headless Debian Chromium:

- load: navigation to a lit, playable board (the first frame and state drawn), fresh storage;
- press: a key press to its first new frame drawn on the canvas (UNDO refused: a red flash;
  ROLL: the throw), the mean and the slowest;
- strong: the board's strong choice in the page's worker (its budget: `ledgammon web
  --budget`), on positions of a seeded game, the mean and the slowest, with the evaluations.

    .venv/bin/python bench/web/web_bench.py [--budget N|board] [--moves N]

Timings on a shared machine vary from run to run: the load average is printed with them.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

from webkit import browser, open_page, web_server

STRONG = """
import js
from control import loader
from gammon.dice import Dice, SeededBytes
from gammon.play import apply_step, die_order
from gammon.position import Position
opp = loader.opponent()
dice = Dice(SeededBytes(7))
pos = Position.start()
times, evals = [], []
while len(times) < %d:
    roll = dice.roll()
    t = js.performance.now()
    play = opp.choose(pos, roll, 'strong')
    times.append(js.performance.now() - t)
    evals.append(opp.evaluations)
    b = bytearray(pos.key())
    if play is not None:
        order = die_order(roll, play.code)
        for k in range(play.code >> 20 & 7):
            apply_step(b, (play.code >> (5 * k) & 31) - 1, order[k])
    pos = Position(bytes(b)).swap()
    if pos.outcome() is not None:
        pos = Position.start()
result = [times, evals]
"""


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m bench.web.web_bench", description=__doc__.split("\n")[0]
    )
    p.add_argument("--budget", default=None, help="the strong level's budget (default: the "
                   "server's); 'board': the board's own")
    p.add_argument("--moves", type=int, default=30, help="strong choices timed (30)")
    p.add_argument("--presses", type=int, default=20, help="presses timed (20)")
    args = p.parse_args(argv)
    query = "?fresh=1&seed=5" + ("&budget=%s" % args.budget if args.budget else "")
    with web_server() as url, browser() as b:
        loads = []
        for _ in range(5):
            page = open_page(b, url + query)
            loads.append(page.evaluate("ledgammon.readyMs"))
        print("load to a lit, playable board: %.0f ms mean, %.0f ms slowest (%d loads; "
              "worker up %.0f ms)" % (statistics.mean(loads), max(loads), len(loads),
                                      page.evaluate("ledgammon.bootMs")))
        for key, label in (("u", "UNDO (refused: red flash)"), ("r", "ROLL")):
            lat = []
            for _ in range(args.presses if key == "u" else 1):
                page.keyboard.press(key)
                page.wait_for_function("ledgammon.session.pressAt === null", timeout=10000)
                lat.append(page.evaluate("ledgammon.session.latencies.at(-1)"))
                page.wait_for_timeout(400)
            print("press to its frame drawn, %s: %.1f ms mean, %.1f ms slowest (%d)" % (
                label, statistics.mean(lat), max(lat), len(lat)))
        got = page.evaluate("c => ledgammon.transport.eval(c)", STRONG % args.moves)
        if got["error"]:
            print(got["error"])
            return 1
        times, evals = got["value"]
        print("strong move in the page (budget %s): %.0f ms mean, %.0f ms slowest, %.0f "
              "evaluations mean (%d moves)" % (page.evaluate("ledgammon.budget"),
                                               statistics.mean(times), max(times),
                                               statistics.mean(evals), len(times)))
    print("load average %s" % " ".join("%.1f" % x for x in os.getloadavg()))
    return 0


if __name__ == "__main__":
    t0 = time.monotonic()
    code = main()
    print("(%.0f s)" % (time.monotonic() - t0))
    sys.exit(code)
