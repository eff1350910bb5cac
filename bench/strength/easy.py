"""The data behind gammon/cube_easy.py's margins: the easy level's cube decisions in its own
games against gnubg 0-ply, and an offline judge to try a rule on them in seconds
(docs/opponent.md, "The easy level's cube").

  python -m bench.strength.easy rows money|match N SEED FILE [COMMIT]
      every cube decision the board's easy level meets in N money games or 7-point matches
      against gnubg 0-ply (the firmware of COMMIT, default 323d00f: issue 13's plain rule),
      with the network's probabilities and gnubg's 0-ply and 2-ply cube analyses
  python -m bench.strength.easy judge FILE [MONEY_MARGIN,MATCH_MARGIN ...]
      never doubling, the plain rule, the strong level's rules and gammon/cube_easy.py (at
      its margins and at each pair given, in P and M) judged on those rows

The judge counts every decision of a row file: the equity lost against gnubg 2-ply's best
action (money: times the cube, per game; match: match winning chance, per match), the
difference from never doubling game by game with its standard error, and the mean over the
decisions that arise as bench/strength/judge.py counts them. Decisions judged one by one
assume equal players afterwards: for the match margin, matches won decide (docs). Tune on
TUNE_SEEDS only.
"""

from __future__ import annotations

import json
import math
import os
import sys
from collections.abc import Callable
from typing import Any

from gammon import Position, cube, cube_easy, cube_money
from gammon.matchid import decode

from bench import ROOT
from bench.strength.judge import CLOSE

WEIGHTS = os.path.join(ROOT, "firmware", "weights.bin")
TUNE_SEEDS = (7301, 7302)  # money rows, match rows (and games) cube_easy.py was fitted on
Rule = Callable[[str, Any, cube.Terms, int, bytes], bool]


def rows(kind: str, n: int, seed: int, out: str, commit: str = "323d00f") -> None:
    """Rows of the easy level's decisions in `n` money games or matches (see the docstring)."""
    from kernels.net import Net

    from bench.strength.build import build_at
    from bench.strength.cube import BoardCubePlayer, CubeAgent, match_game, money_game
    from bench.strength.cubeful import GnubgCubePlayer

    path = os.path.join(ROOT, "build", "strength", "easy_rows")
    build_at(commit, path)
    agent = CubeAgent(WEIGHTS, path)
    board, other, net = BoardCubePlayer(agent, "easy"), GnubgCubePlayer(0), Net(WEIGHTS)
    oracle = other.oracle
    g = oracle.gnubg
    play = money_game if kind == "money" else match_game
    try:
        with open(out, "a") as f:
            for k in range(n):
                o = play(board, other, k, seed)
                for end in o.games:
                    for d in end.decisions:
                        net.equity(Position.from_id(d.position_id).key(), 0)
                        row = dict(kind=d.kind, action=d.action, game=k, pid=d.position_id,
                                   mid=d.match_id, pn=list(net.probabilities()),
                                   cls=g.classify(g.positionfromid(d.position_id)))
                        for plies in (0, 2):
                            a = oracle.analyse_id(d.position_id, d.match_id, plies,
                                                  mwc=kind != "money")
                            row["a%d" % plies] = [a.no_double, a.take, a.drop, a.proper]
                        f.write(json.dumps(row) + "\n")
                f.write(json.dumps(dict(end=k, value=o.value)) + "\n")
                f.flush()
    finally:
        agent.close()


def _terms(mid: str) -> cube.Terms:
    f = decode(mid)
    on_roll, owner, n = f["move"], f["owner"], f["length"]
    owner = -1 if owner < 0 else (0 if owner == on_roll else 1)
    score = (f["score0"], f["score1"])
    away_me = n - score[on_roll] if n else 0
    away_opp = n - score[1 - on_roll] if n else 0
    return cube.Terms(f["cube"], owner, n, away_me, away_opp, f["crawford"],
                      not f["jacoby_off"])


def _loss(a: list[Any], kind: str, act: bool) -> float:
    nd, dt, dp = a[0], a[1], a[2]
    if kind == "double":
        return max(0.0, max(nd, min(dt, dp)) - (min(dt, dp) if act else nd))
    return max(0.0, (dt if act else dp) - min(dt, dp))


def never(kind: str, p: Any, t: cube.Terms, x: int, board: bytes) -> bool:
    """The agent's interim rule: never double, take at 25% or more."""
    return False if kind == "double" else cube.P - p[0] >= 1024


def plain(kind: str, p: Any, t: cube.Terms, x: int, board: bytes) -> bool:
    """Issue 13's plain rule: double at 68-82% to win, take at 25% or more."""
    if kind == "double":
        return cube.may_double(t) and 2785 <= p[0] <= 3359
    return never(kind, p, t, x, board)


def strong(kind: str, p: Any, t: cube.Terms, x: int, board: bytes) -> bool:
    """The strong level: gammon/cube_money.py in money play, gammon/cube.py in a match."""
    if t.length:
        return cube.doubles(p, t, x) if kind == "double" else cube.takes(p, t, x)
    if kind == "double":
        return cube_money.doubles(p, t, x, board)
    return cube_money.takes(p, t, x, board)


def easy(money: int, match: int) -> Rule:
    """gammon/cube_easy.py's doubles at these margins (on CPython its constants are module
    globals), the strong level's takes."""

    def rule(kind: str, p: Any, t: cube.Terms, x: int, board: bytes) -> bool:
        if kind != "double":
            return strong(kind, p, t, x, board)
        keep = cube_easy.MONEY_DOUBLE, cube_easy.MATCH_DOUBLE
        cube_easy.MONEY_DOUBLE, cube_easy.MATCH_DOUBLE = money, match  # type: ignore[misc]
        try:
            return cube_easy.doubles(p, t, x, board)
        finally:
            cube_easy.MONEY_DOUBLE, cube_easy.MATCH_DOUBLE = keep  # type: ignore[misc]

    return rule


def judge(path: str, rules: list[tuple[str, Rule]]) -> None:
    """Prints each rule's losses on the rows of `path` (see the module's docstring)."""
    cases, games = [], []
    for line in open(path):
        r = json.loads(line)
        if "end" in r:
            games.append(r["end"])
            continue
        board = Position.from_id(r["pid"]).key()
        p = tuple(r["pn"])
        if not cube.contact(board):
            p = cube.sure(p, board)
        cases.append((r, p, _terms(r["mid"]), board))
    unit = 1.0
    base: dict[int, float] = {}
    for name, rule in rules:
        per: dict[int, float] = {}
        arisen = []
        for r, p, t, board in cases:
            unit = 1.0 if t.length == 0 else 100.0
            act = rule(r["kind"], p, t, cube.efficiency(board), board)
            lost = _loss(r["a2"], r["kind"], act)
            per[r["game"]] = per.get(r["game"], 0.0) + lost * (t.cube if t.length == 0 else 1)
            a0 = r["a0"]
            close = max(a0[0], min(a0[1], a0[2])) - min(a0[1], a0[2]) < CLOSE
            if r["kind"] == "take" or act or close:
                arisen.append(lost)
        if not base:
            base = per
        diffs = [per.get(k, 0.0) - base.get(k, 0.0) for k in games]
        total = sum(per.get(k, 0.0) for k in games) / len(games)
        print("%-26s lost a game %.4f, against never %+.4f ± %.4f; a decision %.4f ± %.4f "
              "(%d)" % (name, total * unit, _mean(diffs) * unit, _se(diffs) * unit,
                        _mean(arisen) * unit, _se(arisen) * unit, len(arisen)))


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else math.nan


def _se(values: list[float]) -> float:
    if len(values) < 2:
        return 0.0
    m = _mean(values)
    return math.sqrt(sum((v - m) ** 2 for v in values) / (len(values) - 1) / len(values))


def main(argv: list[str]) -> int:
    if len(argv) in (5, 6) and argv[0] == "rows" and argv[1] in ("money", "match"):
        rows(argv[1], int(argv[2]), int(argv[3]), argv[4], *argv[5:])
        return 0
    if len(argv) >= 2 and argv[0] == "judge":
        rules: list[tuple[str, Rule]] = [
            ("never doubling", never), ("the plain rule", plain), ("strong", strong),
            ("cube_easy.py", easy(cube_easy.MONEY_DOUBLE, cube_easy.MATCH_DOUBLE))]
        for spec in argv[2:]:
            money, match = (int(v) for v in spec.split(","))
            rules.append(("easy at %d, %d" % (money, match), easy(money, match)))
        judge(argv[1], rules)
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
