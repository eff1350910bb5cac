"""`make strength`: the board's levels in cubeless money games against GNU Backgammon 0-ply
and a pip-count-and-blots heuristic, with points per game and their standard error.

The board's side is the firmware's own Opponent running under the MicroPython unix port
(bench/agent_mp.py); the host referees with the rules engine. Games are spread over --jobs
processes, each with its own MicroPython agent; results depend on --seed only.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
from collections.abc import Iterable, Iterator

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
sys.path.insert(0, BENCH)

from board_agent import Agent, BoardPlayer, build  # noqa: E402
from match import GameResult, Summary, play_game, summarise  # noqa: E402
from players import GnubgPlayer, HeuristicPlayer, Player  # noqa: E402

BUILD = os.path.join(ROOT, "build", "strength", "mpy")
BOARD_LEVELS = ("strong", "easy")
# name: (side A, side B, games by default); A is the side whose points are printed.
PAIRINGS = {
    "strong-gnubg": ("strong", "gnubg", 2000),
    "easy-gnubg": ("easy", "gnubg", 1000),
    "strong-heuristic": ("strong", "heuristic", 1000),
    "easy-heuristic": ("easy", "heuristic", 1000),
    "heuristic-gnubg": ("heuristic", "gnubg", 500),
}
SCALE_BASE = PAIRINGS["strong-gnubg"][2]


class Players:
    """The players of one process, made when first needed (one agent serves both levels)."""

    def __init__(self, weights: str, path: str) -> None:
        self.weights = weights
        self.path = path
        self.agent: Agent | None = None
        self.made: dict[str, Player] = {}

    def get(self, name: str) -> Player:
        if name not in self.made:
            if name in BOARD_LEVELS:
                if self.agent is None:
                    self.agent = Agent(self.weights, self.path)
                self.made[name] = BoardPlayer(self.agent, name)
            elif name == "gnubg":
                self.made[name] = GnubgPlayer()
            elif name == "heuristic":
                self.made[name] = HeuristicPlayer()
            else:
                raise ValueError("unknown player %r" % name)
        return self.made[name]

    def close(self) -> None:
        if self.agent is not None:
            self.agent.close()
            self.agent = None


_WORKER: Players | None = None


def _init_worker(weights: str, path: str) -> None:
    global _WORKER
    _WORKER = Players(weights, path)


def _run_game(task: tuple[str, int, int]) -> tuple[GameResult, int, int]:
    """One game in a worker: (result, the board's thinking time in us, its moves)."""
    name, game, seed = task
    assert _WORKER is not None
    return run_game(_WORKER, name, game, seed)


def run_game(players: Players, name: str, game: int, seed: int) -> tuple[GameResult, int, int]:
    a_name, b_name, _ = PAIRINGS[name]
    a, b = players.get(a_name), players.get(b_name)
    board = [p for p in (a, b) if isinstance(p, BoardPlayer)]
    before = sum(p.think_us for p in board), sum(p.moves for p in board)
    result = play_game(a, b, game, seed, name)
    after = sum(p.think_us for p in board), sum(p.moves for p in board)
    return result, after[0] - before[0], after[1] - before[1]


def play_pairing(
    name: str, games: int, seed: int, jobs: int, weights: str, path: str = BUILD
) -> Iterator[tuple[GameResult, int, int]]:
    """The games of one pairing, in the order they finish, over `jobs` processes."""
    tasks = [(name, g, seed) for g in range(games)]
    if jobs <= 1:
        players = Players(weights, path)
        try:
            for task in tasks:
                yield run_game(players, *task)
        finally:
            players.close()
        return
    with multiprocessing.Pool(jobs, _init_worker, (weights, path)) as pool:
        yield from pool.imap_unordered(_run_game, tasks, chunksize=2)


def counts(games: int | None, names: Iterable[str]) -> dict[str, int]:
    """Games per pairing: the defaults, or scaled so that strong-gnubg plays `games` (even,
    so that both sides move first equally often)."""
    out = {}
    for name in names:
        default = PAIRINGS[name][2]
        n = default if games is None else max(2, round(default * games / SCALE_BASE))
        out[name] = n + n % 2
    return out


def line(name: str, s: Summary, seconds: float, think_us: int, moves: int) -> str:
    a, b, _ = PAIRINGS[name]
    think = "%7.2f ms" % (think_us / moves / 1000) if moves else "%10s" % "-"
    fmt = "%-9s vs %-9s %5d  %+6.3f ± %5.3f  %4d (%3d/%2d)  %4d (%3d/%2d)  %7.1f s  %5.2f s  %s"
    return fmt % (
        a,
        b,
        s.games,
        s.mean,
        s.se,
        s.wins(),
        s.won[1],
        s.won[2],
        sum(s.lost),
        s.lost[1],
        s.lost[2],
        seconds,
        seconds / max(1, s.games),
        think,
    )


HEADER = "%-22s %5s  %-14s  %-14s  %-14s  " % (
    "side A vs side B",
    "games",
    "A points/game",
    "A won (g/bg)",
    "A lost (g/bg)",
) + ("%8s  %7s  %s" % ("time", "/game", "board move"))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="bench/strength.py", description=__doc__)
    p.add_argument(
        "--games",
        type=int,
        help="games of strong-gnubg (default %d); the other pairings scale with it" % SCALE_BASE,
    )
    p.add_argument("--pairings", default=",".join(PAIRINGS), help="comma-separated: %(default)s")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=2, help="worker processes (default %(default)s)")
    p.add_argument("--weights", default=os.path.join(ROOT, "firmware", "weights.bin"))
    a = p.parse_args(argv)
    names = [n.strip() for n in a.pairings.split(",") if n.strip()]
    unknown = [n for n in names if n not in PAIRINGS]
    if unknown:
        p.error("unknown pairing %s; choose from %s" % (", ".join(unknown), ", ".join(PAIRINGS)))
    if not os.path.isfile(a.weights):
        p.error("no weight file %s" % a.weights)
    weights = os.path.abspath(a.weights)
    for left in build(BUILD):
        print("warning: left as source (mpy-cross refused it): %s" % left, file=sys.stderr)
    print(
        "Cubeless money games (single 1, gammon 2, backgammon 3); weights %s (%d bytes); "
        "seed %d; %d jobs" % (os.path.relpath(weights), os.path.getsize(weights), a.seed, a.jobs)
    )
    print("Each pair of games throws the same dice, each side moving first in one of them.")
    print(HEADER, flush=True)
    for name, games in counts(a.games, names).items():
        start = time.perf_counter()
        points: list[int] = []
        think = moves = 0
        for result, us, n in play_pairing(name, games, a.seed, a.jobs, weights):
            points.append(result.points)
            think += us
            moves += n
            if sys.stderr.isatty():
                sys.stderr.write("\r%s: %d/%d games " % (name, len(points), games))
                sys.stderr.flush()
        if sys.stderr.isatty():
            sys.stderr.write("\r\033[K")
        print(line(name, summarise(points), time.perf_counter() - start, think, moves), flush=True)
    print(
        "points/game ± its standard error (sample std / sqrt(games)); board move: the "
        "mean time of the board's choice on the MicroPython unix port"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
