"""The board's cube decisions judged by GNU Backgammon 2-ply cubeful (bench/strength/run.py).

A decision counts when a cube decision arises: every double offered to the board (take or
drop), every double the board makes, and each chance to double that gnubg 0-ply finds close
by gnubg's own test (eval.c isCloseCubedecision: the best action's equity less that of
double/take, normalized to the cube with double/pass at 1, is under 0.16). The loss is what
the board's action gives up against the best action, the other side answering rightly:
equity per cube in money play, match winning chance in a match.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bench.strength.cube import Decision
from bench.strength.cubeful import Gnubg
from bench.strength.match import standard_error

CLOSE = 0.16  # gnubg's isCloseCubedecision threshold
JUDGE_PLIES = 2


@dataclass(frozen=True)
class Judged:
    decision: Decision
    loss: float  # money: equity per cube; match: winning chance (0-1)
    right: bool  # gnubg 2-ply's action
    proper: str = ""  # gnubg 2-ply's proper cube action


def arises(oracle: Gnubg, d: Decision) -> bool:
    """Whether the decision is one worth judging (see the module's docstring)."""
    if d.kind == "take" or d.action:
        return True
    a = oracle.analyse_id(d.position_id, d.match_id, 0, mwc=False)
    return max(a.no_double, min(a.take, a.drop)) - min(a.take, a.drop) < CLOSE


def judge(oracle: Gnubg, decisions: Iterable[Decision], limit: int) -> list[Judged]:
    """Up to `limit` decisions that arise, in order, each judged at JUDGE_PLIES."""
    out: list[Judged] = []
    for d in decisions:
        if len(out) >= limit:
            break
        if not arises(oracle, d):
            continue
        a = oracle.analyse_id(d.position_id, d.match_id, JUDGE_PLIES, mwc=not d.money)
        if d.kind == "double":
            loss, right = a.double_loss(d.action), d.action == a.doubles()
        else:
            loss, right = a.take_loss(d.action), d.action == a.takes()
        out.append(Judged(d, max(0.0, loss), right, a.proper))
    return out


@dataclass(frozen=True)
class Errors:
    decisions: int
    mean: float
    se: float
    wrong: int
    kinds: dict[str, int]  # how many of each: double, no double, take, drop


def errors(judged: list[Judged]) -> Errors:
    losses = [j.loss for j in judged]
    kinds = {"double": 0, "no double": 0, "take": 0, "drop": 0}
    for j in judged:
        d = j.decision
        name = (
            ("double" if d.action else "no double")
            if d.kind == "double"
            else ("take" if d.action else "drop")
        )
        kinds[name] += 1
    mean = sum(losses) / len(losses) if losses else 0.0
    wrong = sum(1 for j in judged if not j.right)
    return Errors(len(judged), mean, standard_error(losses), wrong, kinds)
