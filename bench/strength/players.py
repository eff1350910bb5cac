"""The board's sparring partners: GNU Backgammon at 0-ply and a pip-count-and-blots heuristic.

Both pick among the rules engine's own legal plays, so they play by the same rules as the
board; each scores the position after a play for the side that made it.
"""

from __future__ import annotations

from typing import Any, Protocol

from gammon import Play, Position, legal_plays
from ledgammon.train.teacher import Gnubg


class IllegalPlay(Exception):
    """A player answered with something that is not one of the legal plays."""


class Player(Protocol):
    name: str

    def choose(self, position: Position, dice: tuple[int, int], seed: int) -> Play | None:
        """A legal play of `dice` for the side on roll, None when nothing moves; `seed` is
        this turn's chance for players that use it."""
        ...


def best_play(plays: Any, score: Any) -> Play | None:
    """The play whose result scores highest (the first of equals), None when there is none."""
    best = None
    best_score = 0.0
    for play in plays:
        s = score(play.result)
        if best is None or s > best_score:
            best, best_score = play, s
    return best


def money_equity(p: tuple[float, ...]) -> float:
    """Cubeless money equity from gnubg's (win, win g, win bg, lose g, lose bg, ...)."""
    return 2.0 * p[0] - 1.0 + p[1] - p[3] + p[2] - p[4]


class GnubgPlayer:
    """GNU Backgammon's 0-ply cubeless money judgement of each legal play's result."""

    name = "gnubg"

    def __init__(self) -> None:
        self.oracle = Gnubg()
        self.cube, self.context = self.oracle.cube, self.oracle.context  # what it judges at

    def equity(self, after: Position) -> float:
        """Money equity of a play's result for the side that played it (`after.me`)."""
        won = after.outcome()
        if won:
            return float(won)
        return -money_equity(self.oracle.after_play(tuple(after.me) + tuple(after.opp)))

    def choose(self, position: Position, dice: tuple[int, int], seed: int) -> Play | None:
        return best_play(legal_plays(position, dice), self.equity)


# The heuristic's weights, in pips.
_HIT = 6.0  # each opposing checker on the bar, beyond the pips it loses
_HOME_POINT = 4.0  # each point made in the home board
_BAR_POINT = 2.0  # the 7-point
_ANCHOR = 2.0  # each point held in the opponent's home board
_SHOT = 0.3  # chance of being hit per opposing checker 1-6 pips behind a blot ...
_MAX_SHOT = 0.6  # ... at most
_TEMPO = 8.0  # what a hit costs beyond the pips, in pips
_OFF = 4.0  # each checker borne off in a race


def heuristic_score(after: Position) -> float:
    """How good a play's result is for its mover (`after.me`), in pips.

    The pip lead, then, while the sides can still hit each other: a penalty for each blot
    by the number of opposing checkers in direct range and the pips a hit would cost, and
    bonuses for checkers hit and points made at home, on the bar point and as anchors.
    In a race: the pip lead and checkers borne off.
    """
    won = after.outcome()
    if won:
        return 1000.0 * won
    me, opp = after.me, after.opp
    mine, theirs = after.pips()
    score = float(theirs - mine)
    # My point p (1-24, 25 = bar) faces the opponent's checkers on its point 25 - p.
    # Contact lasts while my farthest checker is behind the opponent's farthest.
    back = max(p for p in range(1, 26) if me[p - 1])
    their_back = max(q for q in range(1, 26) if opp[q - 1])
    if back + their_back <= 25:
        return score + _OFF * (15 - sum(me))
    score += _HIT * opp[24]
    score += _HOME_POINT * sum(1 for p in range(1, 7) if me[p - 1] >= 2)
    score += _BAR_POINT * (me[6] >= 2)
    score += _ANCHOR * sum(1 for p in range(19, 25) if me[p - 1] >= 2)
    for p in range(1, 25):
        if me[p - 1] == 1:
            # Opposing checkers 1-6 pips behind: their points 26 - p .. 31 - p (25 = bar).
            shooters = sum(opp[q - 1] for q in range(26 - p, min(31 - p, 25) + 1))
            score -= min(_SHOT * shooters, _MAX_SHOT) * (25 - p + _TEMPO)
    return score


class HeuristicPlayer:
    """A greedy player: the legal play whose result `heuristic_score` rates best."""

    name = "heuristic"

    def choose(self, position: Position, dice: tuple[int, int], seed: int) -> Play | None:
        return best_play(legal_plays(position, dice), heuristic_score)
