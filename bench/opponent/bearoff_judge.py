"""The board's bear-off play judged by GNU Backgammon 0-ply (which plays it from its own
bear-off databases): random bear-off positions where both sides have borne a checker off,
a random roll each (and as many where one side has all 15 checkers left, the other 1-8: gammons
in play), the board's choice at each level with the network alone and with the
bear-off table (gammon/endgame.py); what each choice loses against gnubg's best play, by
gnubg's own equities, and the time the choices took (CPython: relative figures only).

Usage: python -m bench.opponent.bearoff_judge [POSITIONS] [SEED] [WEIGHTS] [TABLE]
(defaults 400, 1, firmware/weights.bin, build/bearoff.bin; a missing table is made).
"""

from __future__ import annotations

import json
import math
import os
import random
import sys
import time

import gnubg
from gammon import Position, legal_plays
from gammon.bearoff import Table
from gammon.endgame import Endgame
from gammon.opponent import Opponent, chance
from kernels.net import Net

from bench import ROOT

EVAL0 = gnubg.evalcontext(0, 0, 1, 0, 0.0)


def side(rng: random.Random, most: int = 14, least: int = 1) -> list[int]:
    """A home board of least-most checkers, each on a random point 1-6, more often low ones
    (as a bear-off goes)."""
    counts = [0] * 25
    for _ in range(rng.randint(least, most)):
        counts[min(rng.randint(0, 5), rng.randint(0, 5))] += 1
    return counts


def cases(n: int, seed: int, gammons: bool = False) -> list[tuple[Position, tuple[int, int]]]:
    """`n` positions with a roll that has more than one distinct play; with `gammons`, one
    side (either) has all 15 left and the other 1-8."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        if gammons:
            a, b = side(rng, 8), side(rng, 15, 15)
            pos = Position(a, b) if rng.random() < 0.5 else Position(b, a)
        else:
            pos = Position(side(rng), side(rng))
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        if len(legal_plays(pos, dice)) > 1:
            out.append((pos, dice))
    return out


def gnubg_equity(after: Position) -> float:
    """The mover's cubeless money equity after its play, by gnubg 0-ply."""
    if after.outcome():
        return 1.0
    board = gnubg.positionfromid(after.swap().position_id())
    return -gnubg.evaluate(board, gnubg.cubeinfo(), EVAL0)[5]


def judge(opponent: Opponent, items, level: str) -> dict:
    lost = []
    spent = 0.0
    for k, (pos, dice) in enumerate(items):
        values = {p.result.key(): gnubg_equity(p.result) for p in legal_plays(pos, dice)}
        t = time.perf_counter()
        play = opponent.choose(pos, dice, level, chance(k) if level == "easy" else None)
        spent += time.perf_counter() - t
        lost.append(max(values.values()) - values[play.result.key()])
    mean = sum(lost) / len(lost)
    sd = math.sqrt(sum((x - mean) ** 2 for x in lost) / (len(lost) - 1))
    return {"lost": round(mean, 5), "se": round(sd / math.sqrt(len(lost)), 5),
            "not_best": sum(1 for x in lost if x > 1e-6), "worst": round(max(lost), 4),
            "ms_per_move": round(1000 * spent / len(items), 3)}


def main(argv: list[str]) -> int:
    n = int(argv[0]) if argv else 400
    seed = int(argv[1]) if len(argv) > 1 else 1
    weights = argv[2] if len(argv) > 2 else os.path.join(ROOT, "firmware", "weights.bin")
    table = argv[3] if len(argv) > 3 else os.path.join(ROOT, "build", "bearoff.bin")
    if not os.path.exists(table):
        from ledgammon.train.bearoff_table import write

        write(table)
    net = Net(weights)
    with open(table, "rb") as f:
        main = Table(f)
        plain, tabled = Opponent(net), Opponent(net, Endgame(net, main, main.following()))
        out: dict = {"positions": n, "seed": seed, "weights": os.path.basename(weights)}
        for kind in ("no_gammon", "gammons"):
            items = cases(n, seed, kind == "gammons")
            out[kind] = {level: {"network": judge(plain, items, level),
                                 "table": judge(tabled, items, level)}
                         for level in ("strong", "easy")}
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
