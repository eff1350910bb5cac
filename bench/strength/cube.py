"""Games with the doubling cube between the board and GNU Backgammon, refereed on the host.

The rules engine checks every play and gammon.match.Match (the board's own cube rules) keeps
the cube, the score, Crawford and the Jacoby rule. Before each roll but a game's first, the
player on roll may double when Match.may_double allows; the other then takes or drops.
Every cube decision the board makes is recorded, with the Position and Match IDs it was
made in, for bench/strength/judge.py. Money games and matches come in pairs that throw the
same dice, the board playing each seat once.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Protocol

from gammon import Play, Position
from gammon.match import Match

from bench.strength.board_agent import Agent, BoardPlayer
from bench.strength.cubeful import match_id
from bench.strength.match import MAX_TURNS, opening, referee
from bench.strength.players import IllegalPlay


class CubePlayer(Protocol):
    name: str

    def choose(
        self, position: Position, dice: tuple[int, int], seed: int, match: Match, me: int
    ) -> Play | None:
        """A legal play for `me` (seed: this turn's chance, for the easy level)."""
        ...

    def double(self, position: Position, match: Match, me: int) -> bool:
        """Whether `me`, on roll in `position` before rolling, doubles."""
        ...

    def take(self, position: Position, match: Match, me: int) -> bool:
        """Whether `me` takes the double of the other player, on roll in `position`; `match`
        is as it was before the double."""
        ...


class CubeAgent(Agent):
    """The MicroPython agent, asked any request line (bench/strength/agent_mp.py)."""

    def rule(self) -> str:
        """ "cube" (gammon/cube.py decides) or "interim" (the firmware has no such module)."""
        return self.request("rule")


class BoardCubePlayer:
    """A level of the board, played by the firmware in the MicroPython agent: its checker
    play, and its cube decisions through the agent's double/take requests (with `interim`,
    the rule of before the board's cube decisions: never double, take at 25%)."""

    def __init__(self, agent: CubeAgent, level: str, interim: bool = False) -> None:
        self.agent = agent
        self.level = level
        self.name = level
        self.suffix = " interim" if interim else ""
        self.checkers = BoardPlayer(agent, level)
        self.cube_us: list[int] = []

    def choose(
        self, position: Position, dice: tuple[int, int], seed: int, match: Match, me: int
    ) -> Play | None:
        """In a match to points the request carries the Match ID, so the board's checker
        play counts gammons at the score (bench/strength/agent_mp.py); money play's is as
        before."""
        if not match.length:
            return self.checkers.choose(position, dice, seed)
        return self.checkers.choose(position, dice, seed, match_id(match, me))

    def _ask(self, kind: str, position: Position, mid: str) -> bool:
        reply = self.agent.request(
            "%s %s %s %s%s" % (kind, position.position_id(), mid, self.level, self.suffix)
        )
        parts = reply.split()
        if len(parts) != 3 or parts[0] not in ("yes", "no"):
            raise IllegalPlay("agent, on a %s: %s" % (kind, reply))
        self.cube_us.append(int(parts[2]))
        return parts[0] == "yes"

    def double(self, position: Position, match: Match, me: int) -> bool:
        return self._ask("double", position, match_id(match, me))

    def take(self, position: Position, match: Match, me: int) -> bool:
        return self._ask("take", position, match_id(match, 1 - me))


@dataclass(frozen=True)
class Decision:
    """A cube decision of the board: `kind` "double" (position: the board on roll) or
    "take" (position: the doubler on roll); the Match ID before the double."""

    kind: str
    position_id: str
    match_id: str
    action: bool  # doubled, or took
    money: bool


@dataclass
class GameEnd:
    winner: int
    points: int
    dropped: bool
    cube: int
    turns: int
    final: str  # Position ID at the end: the mover's view (the winner's, when played out)
    doubles: int = 0
    decisions: list[Decision] = field(default_factory=list)


def play_cube_game(
    sides: tuple[CubePlayer, CubePlayer],
    match: Match,
    first: int,
    dice_rng: random.Random,
    board_side: int,
    chance: random.Random,
    start: Position | None = None,
) -> GameEnd:
    """One game of `match` (its cube in the middle) with `first` moving first; `board_side`
    (0, 1, or -1 for none) is the board's seat, whose cube decisions are recorded. From the
    start the first roll is an opening roll; from a `start` position (`first` on roll) the
    cube may be turned before it."""
    position = start or Position.start()
    on_roll = first
    dice = opening(dice_rng) if start is None else (0, 0)
    decisions: list[Decision] = []
    doubles = 0
    for turn in range(MAX_TURNS):
        if turn or start is not None:
            if match.may_double(on_roll):
                mid = match_id(match, on_roll)
                doubles_now = sides[on_roll].double(position, match, on_roll)
                if on_roll == board_side:
                    decisions.append(
                        Decision(
                            "double", position.position_id(), mid, doubles_now, not match.length
                        )
                    )
                if doubles_now:
                    doubles += 1
                    taker = 1 - on_roll
                    takes = sides[taker].take(position, match, taker)
                    if taker == board_side:
                        decisions.append(
                            Decision("take", position.position_id(), mid, takes, not match.length)
                        )
                    match.double(on_roll)
                    if not takes:
                        match.drop(taker)
                        return GameEnd(
                            on_roll,
                            match.points,
                            True,
                            match.cube,
                            turn,
                            position.position_id(),
                            doubles,
                            decisions,
                        )
                    match.take(taker)
            dice = (dice_rng.randint(1, 6), dice_rng.randint(1, 6))
        play = sides[on_roll].choose(position, dice, chance.getrandbits(31), match, on_roll)
        position = referee(position, dice, play)
        won = position.outcome()
        if won:
            match.finish(on_roll, won)
            pid = position.position_id()
            return GameEnd(
                on_roll, match.points, False, match.cube, turn + 1, pid, doubles, decisions
            )
        position = position.swap()
        on_roll = 1 - on_roll
    raise IllegalPlay("a game lasted %d turns" % MAX_TURNS)


@dataclass
class Outcome:
    """One money game or one match, for the board: points (money) or 1/0 (a match won)."""

    number: int
    value: int
    games: list[GameEnd]
    seconds: float


def seats(board: CubePlayer, other: CubePlayer, number: int) -> tuple[int, tuple]:
    """The board sits at 0 in even games or matches, at 1 in odd ones."""
    side = number % 2
    return side, ((board, other) if side == 0 else (other, board))


def money_game(board: CubePlayer, other: CubePlayer, number: int, seed: int) -> Outcome:
    """Money game `number` with the cube and the Jacoby rule; player 0 moves first, so the
    board moves first in even games, and games 2k and 2k + 1 throw the same dice."""
    start = time.perf_counter()
    side, sides = seats(board, other, number)
    dice = random.Random("%d/cube-money/dice/%d" % (seed, number // 2))
    chance = random.Random("%d/cube-money/chance/%d" % (seed, number))
    end = play_cube_game(sides, Match(0, True, True), 0, dice, side, chance)
    value = end.points if end.winner == side else -end.points
    return Outcome(number, value, [end], time.perf_counter() - start)


def match_game(
    board: CubePlayer, other: CubePlayer, number: int, seed: int, length: int = 7
) -> Outcome:
    """Match `number` to `length` points: game j's first mover is player (j - 1) % 2, and
    matches 2k and 2k + 1 throw the same dice game by game."""
    start = time.perf_counter()
    side, sides = seats(board, other, number)
    match = Match(length, True, False)
    games = []
    while True:
        j = match.game_number
        dice = random.Random("%d/cube-match/dice/%d/%d" % (seed, number // 2, j))
        chance = random.Random("%d/cube-match/chance/%d/%d" % (seed, number, j))
        games.append(play_cube_game(sides, match, (j - 1) % 2, dice, side, chance))
        if match.over():
            break
        match.next_game()
    won = int(match.match_winner() == side)
    return Outcome(number, won, games, time.perf_counter() - start)
