"""Cubeless money games between two players, refereed by the project's rules engine.

Every play is checked against the engine's legal plays; a game scores 1, 2 or 3 points
(single, gammon, backgammon) as Position.outcome says. Side A moves first in even games,
side B in odd ones; both games of a pair throw the same dice, which evens out the luck.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from gammon import Play, Position, legal_plays

from bench.strength.players import IllegalPlay, Player

MAX_TURNS = 2000  # far beyond any real game: a longer one means a player is stuck


@dataclass(frozen=True)
class GameResult:
    game: int
    points: int  # for side A: +1/2/3 won, -1/2/3 lost
    final: str  # Position ID at the end, the winner being the side that has just moved
    turns: int
    seconds: float


def referee(position: Position, dice: tuple[int, int], play: Play | None) -> Position:
    """The position after `play` (the mover's view), or IllegalPlay when it is not legal."""
    plays = legal_plays(position, dice)
    if play is None:
        if plays:
            raise IllegalPlay("%r %r: no play, with %d legal" % (position, dice, len(plays)))
        return position
    if play.position != position or play.result not in {p.result for p in plays}:
        raise IllegalPlay("%r %r: %s is not legal" % (position, dice, play))
    return play.result


def opening(rng: random.Random) -> tuple[int, int]:
    """The first roll: two different numbers, both played by the side that moves first."""
    while True:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        if a != b:
            return a, b


def play_game(a: Player, b: Player, game: int, seed: int, label: str = "") -> GameResult:
    """Game number `game` of A against B; dice and chance come from the seed alone."""
    start = time.perf_counter()
    dice_rng = random.Random("%d/%s/dice/%d" % (seed, label, game // 2))
    chance = random.Random("%d/%s/chance/%d" % (seed, label, game))
    sides = (a, b) if game % 2 == 0 else (b, a)
    position = Position.start()
    dice = opening(dice_rng)
    for turn in range(MAX_TURNS):
        mover = sides[turn % 2]
        position = referee(position, dice, mover.choose(position, dice, chance.getrandbits(31)))
        won = position.outcome()
        if won:
            points = won if (turn + game) % 2 == 0 else -won  # A moved: A won
            took = time.perf_counter() - start
            return GameResult(game, points, position.position_id(), turn + 1, took)
        position = position.swap()
        dice = (dice_rng.randint(1, 6), dice_rng.randint(1, 6))
    raise IllegalPlay("game %d lasted %d turns" % (game, MAX_TURNS))


@dataclass(frozen=True)
class Summary:
    games: int
    mean: float  # points per game for side A
    se: float  # the standard error of `mean`: of the pairs' means when paired, else of games
    won: tuple[int, int, int]  # singles, gammons, backgammons won by A
    lost: tuple[int, int, int]  # ... and lost
    iid_se: float = 0.0  # sample standard deviation / sqrt(games), as if games were unpaired

    def wins(self) -> int:
        return sum(self.won)


def standard_error(values: Sequence[float]) -> float:
    """Sample standard deviation / sqrt(n): the standard error of the mean of iid values."""
    n = len(values)
    if n < 2:
        return 0.0
    mean = sum(values) / n
    return math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)


def summarise(points: Sequence[int], paired: bool = False) -> Summary:
    """Points per game of `points`; with `paired`, points come in pairs of games that threw
    the same dice (games 2k and 2k + 1, as play_game deals them) and the standard error is
    that of the pairs' means: the two games of a pair are not independent (the luck of the
    dice largely cancels between them), so counting them as independent games misstates it."""
    n = len(points)
    if paired and n % 2:
        raise ValueError("paired games come in pairs: %d games" % n)
    mean = sum(points) / n if n else 0.0

    def count(k: int) -> int:
        return sum(1 for p in points if p == k)

    won = (count(1), count(2), count(3))
    lost = (count(-1), count(-2), count(-3))
    iid = standard_error(points)
    se = (
        standard_error([(points[i] + points[i + 1]) / 2 for i in range(0, n, 2)])
        if paired
        else iid
    )
    return Summary(n, mean, se, won, lost, iid)
