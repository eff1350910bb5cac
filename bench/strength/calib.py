"""The data behind gammon/cube_money.py's rules and margins, and an offline judge to try a rule
on it in seconds instead of hours of games (docs/opponent.md, "Tuning the money cube").

  python -m bench.strength.calib selfplay N SEED FILE   positions of noisy gnubg 0-ply self-play
  python -m bench.strength.calib games N SEED FILE      the board's cube decisions in N money
                                                        games against gnubg 0-ply (the agent)
  python -m bench.strength.calib judge FILE...          the rules judged on those rows

`--weights FILE` first: the rows of another network (firmware/weights.bin by default).

A row is one position before a roll, the player on roll first: the board's network's cubeless
probabilities (out of 4096, as the board computes them), gnubg's 0-ply ones, gnubg's position
class, and gnubg's no double / double-take / double-pass at 0-ply and 2-ply cubeful at one or
two cube states (money, Jacoby: self-play rows at a centred cube and at the roller's cube of
2; game rows at the state the decision was met in). The judge counts decisions as
bench/strength/judge.py does (every take; a double when the rule doubles or gnubg 0-ply finds
it close) and prints the equity lost against gnubg 2-ply's best, by kind and class. Tune on
TUNE_SEEDS only; the figures reported are `make strength`'s, on other seeds.
"""

from __future__ import annotations

import functools
import json
import math
import os
import random
import sys
from collections.abc import Callable, Iterator
from typing import Any

from gammon import Position, cube, cube_money, legal_plays
from gammon.match import Match
from gammon.matchid import decode

from bench import ROOT
from bench.strength.cubeful import Gnubg, match_id
from bench.strength.judge import CLOSE
from bench.strength.match import standard_error

WEIGHTS = os.path.join(ROOT, "firmware", "weights.bin")
TUNE_SEEDS = (5101, 7001)  # what the shipped rules were fitted on: selfplay, games
CLASSES = {4: "bear-off", 5: "bear-off", 6: "bear-off", 7: "bear-off", 8: "race",
           9: "crashed", 10: "contact"}
Row = dict[str, Any]


def _state(cube_value: int, owner: int) -> str:
    m = Match(0, True, True)
    m.cube, m.owner = cube_value, owner
    return match_id(m, 0)


def _row(net: Any, oracle: Gnubg, pid: str, mid: str, **extra: Any) -> Row:
    """The row of one position at the money cube state `mid`."""
    g = oracle.gnubg
    net.equity(Position.from_id(pid).key(), 0)
    board = g.positionfromid(pid)
    info = g.cubeinfo(1, -1, 0, 0, (0, 0), 0, 0)
    pg = g.evaluate(board, info, g.evalcontext(0, 0, 1, 0, 0.0))[:5]
    row: Row = dict(extra, pid=pid, mid=mid, cls=g.classify(board), pn=list(net.probabilities()),
                    pg=[round(v, 5) for v in pg])
    for plies in (0, 2):
        a = oracle.analyse_id(pid, mid, plies, mwc=False)
        row["a%d" % plies] = [a.no_double, a.take, a.drop, a.proper]
    return row


def selfplay(n: int, seed: int, out: str) -> None:
    """Rows from games of gnubg 0-ply against itself with noise (0.08 a play), where the
    player on roll has at least 55% by the network's or gnubg's count (where cubes turn)."""
    from kernels.net import Net

    net, oracle, rng = Net(WEIGHTS), Gnubg(), random.Random(seed)
    g = oracle.gnubg
    info, ctx = g.cubeinfo(1, -1, 0, 0, (0, 0), 0, 0), g.evalcontext(0, 0, 1, 0, 0.0)
    states = (("c", _state(1, -1)), ("o", _state(2, 0)))
    kept = 0
    with open(out, "a") as f:
        pos = Position.start()
        for _ in range(n):
            pid = pos.position_id()
            w = g.evaluate(g.positionfromid(pid), info, ctx)[0]
            net.equity(pos.key(), 0)
            if max(w, net.probabilities()[0] / 4096) >= 0.55:
                for key, mid in states:
                    f.write(json.dumps(_row(net, oracle, pid, mid, state=key)) + "\n")
                kept += 1
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            best: tuple[float, Position] | None = None
            for play in legal_plays(pos, dice):
                after = play.result
                if after.outcome():
                    value = 9.0
                else:
                    b = g.positionfromid(after.swap().position_id())
                    value = -g.evaluate(b, info, ctx)[5] + rng.gauss(0, 0.08)
                if best is None or value > best[0]:
                    best = (value, after)
            pos = pos if best is None else best[1]
            pos = Position.start() if pos.outcome() else pos.swap()
    print("%d positions kept of %d" % (kept, n))


def games(n: int, seed: int, out: str) -> None:
    """Rows of every cube decision of the board's strong level in `n` money games (Jacoby)
    against gnubg 0-ply, the firmware under MicroPython as bench/strength/run.py plays it."""
    from kernels.net import Net

    from bench.strength.board_agent import build
    from bench.strength.cube import BoardCubePlayer, CubeAgent, money_game
    from bench.strength.cubeful import GnubgCubePlayer

    path = os.path.join(ROOT, "build", "strength", "calib")
    build(path)
    agent = CubeAgent(WEIGHTS, path)
    board, other, net = BoardCubePlayer(agent, "strong"), GnubgCubePlayer(0), Net(WEIGHTS)
    try:
        with open(out, "a") as f:
            for k in range(n):
                for d in money_game(board, other, k, seed).games[0].decisions:
                    row = _row(net, other.oracle, d.position_id, d.match_id, kind=d.kind,
                               action=d.action, game=k)
                    f.write(json.dumps(row) + "\n")
    finally:
        agent.close()


# --- the offline judge


def _loss(a: list[Any], kind: str, act: bool) -> float:
    nd, dt, dp = a[0], a[1], a[2]
    if kind == "double":
        return max(nd, min(dt, dp)) - (min(dt, dp) if act else nd)
    return (dt if act else dp) - min(dt, dp)


def decisions(rows: list[Row]) -> Iterator[tuple[Row, str, Any, cube.Terms, bytes]]:
    """(row, kind, p, terms, board) of each decision a row holds: a game row its own; a
    self-play row a double for the roller and, where gnubg 0-ply doubles, a take."""
    for r in rows:
        board = Position.from_id(r["pid"]).key()
        p = tuple(r["pn"])
        if not cube.contact(board):
            p = cube.sure(p, board)
        f = decode(r["mid"])
        m = Match(0, True, not f["jacoby_off"])
        m.cube, m.owner = f["cube"], f["owner"]
        t = cube.terms(m, f["move"])
        if "kind" in r:
            yield r, r["kind"], p, t, board
            continue
        yield r, "double", p, t, board
        if r["a0"][3].startswith(("Double", "Redouble")):
            yield r, "take", p, t, board


Rule = Callable[[str, Any, cube.Terms, int, bytes], bool]


def network(kind: str, p: Any, t: cube.Terms, x: int, board: bytes) -> bool:
    """gammon/cube.py alone: Janowski's formula on the network's probabilities."""
    if kind == "double":
        return cube.may_double(t) and cube.action(p, t, x) == cube.DOUBLE
    return cube.takes(p, t, x)


@functools.cache
def _units(weights: str) -> int:
    from kernels.net import Net

    return int(Net(weights).hidden)


def shipped(kind: str, p: Any, t: cube.Terms, x: int, board: bytes) -> bool:
    """The board's strong level: gammon/cube_money.py, at the margin of the rows' network."""
    if kind == "double":
        margin = cube_money.network_margin(_units(WEIGHTS))
        return cube_money.doubles(p, t, x, board, margin)
    return cube_money.takes(p, t, x, board)


def judge(rows: list[Row], rule: Rule) -> dict[str, Any]:
    """The decisions that arise under `rule` and their losses (see the module's docstring)."""
    losses: dict[tuple[str, str], list[float]] = {}
    for r, kind, p, t, board in decisions(rows):
        act = rule(kind, p, t, cube.efficiency(board), board)
        a0 = r["a0"]
        close = max(a0[0], min(a0[1], a0[2])) - min(a0[1], a0[2]) < CLOSE
        if kind == "double" and not (act or close):
            continue
        key = (kind, CLASSES.get(r["cls"], "other"))
        losses.setdefault(key, []).append(max(0.0, _loss(r["a2"], kind, act)))
    every = [v for vs in losses.values() for v in vs]
    out: dict[str, Any] = {"decisions": len(every), "mean": _mean(every),
                           "se": standard_error(every) if len(every) > 1 else 0.0}
    for kind in ("double", "take"):
        vs = [v for k, v2 in losses.items() if k[0] == kind for v in v2]
        out[kind] = (len(vs), _mean(vs))
    out["by class"] = {"%s %s" % k: (len(v), _mean(v)) for k, v in sorted(losses.items())}
    return out


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else math.nan


def main(argv: list[str]) -> int:
    global WEIGHTS
    if argv[:1] == ["--weights"] and len(argv) > 1:  # another network's rows (and its judge)
        WEIGHTS = os.path.abspath(argv[1])
        argv = argv[2:]
    if len(argv) == 4 and argv[0] in ("selfplay", "games"):
        (selfplay if argv[0] == "selfplay" else games)(int(argv[1]), int(argv[2]), argv[3])
        return 0
    if len(argv) >= 2 and argv[0] == "judge":
        rows = [json.loads(line) for path in argv[1:] for line in open(path) if line.strip()]
        for name, rule in (("network alone (gammon/cube.py)", network),
                           ("the board (gammon/cube_money.py)", shipped)):
            j = judge(rows, rule)
            print("%s: %.4f ± %.4f equity lost a decision over %d; doubles %d at %.4f, "
                  "takes %d at %.4f" % (name, j["mean"], j["se"], j["decisions"], *j["double"],
                                        *j["take"]))
            for k, (n, mean) in j["by class"].items():
                print("    %-18s %5d  %.4f" % (k, n, mean))
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
