"""`make strength`'s cube part: the board against GNU Backgammon 0-ply with the cube (money
games with the Jacoby rule, 7-point matches), then the board's cube decisions judged by gnubg
2-ply. Games are spread over worker processes, each with its own agent and gnubg."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import Any

from bench.strength.cube import (
    BoardCubePlayer,
    CubeAgent,
    Decision,
    Outcome,
    match_game,
    money_game,
)
from bench.strength.cubeful import Gnubg, GnubgCubePlayer
from bench.strength.judge import JUDGE_PLIES, errors, judge
from bench.strength.match import standard_error
from bench.strength.spread import progress, spread

MATCH_LENGTH = 7
WORST = 25  # the costliest decisions kept in the JSON


class Seats:
    """The players of one process, made when first needed (one agent serves both levels)."""

    def __init__(self, weights: str, path: str) -> None:
        self.weights, self.path = weights, path
        self.agent: CubeAgent | None = None
        self.board: dict[str, BoardCubePlayer] = {}
        self.gnubg: GnubgCubePlayer | None = None

    def get(self, level: str) -> tuple[BoardCubePlayer, GnubgCubePlayer]:
        """The board at `level` ("strong", "easy", either with ":interim") and gnubg."""
        if self.agent is None:
            self.agent = CubeAgent(self.weights, self.path)
        if level not in self.board:
            name, _, rule = level.partition(":")
            self.board[level] = BoardCubePlayer(self.agent, name, rule == "interim")
        if self.gnubg is None:
            self.gnubg = GnubgCubePlayer(0)
        return self.board[level], self.gnubg

    def close(self) -> None:
        if self.agent is not None:
            self.agent.close()
            self.agent = None


def one(seats: Seats, kind: str, level: str, number: int, seed: int) -> tuple[Outcome, list[int]]:
    """A money game or a match; with the board's cube decision times (us) it took."""
    board, gnubg = seats.get(level)
    before = len(board.cube_us)
    if kind == "money":
        out = money_game(board, gnubg, number, seed)
    else:
        out = match_game(board, gnubg, number, seed, MATCH_LENGTH)
    return out, board.cube_us[before:]


def play(
    kind: str, level: str, n: int, seed: int, jobs: int, weights: str, path: str
) -> Iterator[tuple[Outcome, list[int]]]:
    tasks = [(kind, level, k, seed) for k in range(n)]
    yield from spread(one, tasks, jobs, Seats, (weights, path))


def paired(values: list[float]) -> float:
    """The standard error of the mean of values that come in pairs with the same dice."""
    return standard_error([(values[i] + values[i + 1]) / 2 for i in range(0, len(values) - 1, 2)])


def run_level(
    level: str,
    money: int,
    matches: int,
    seed: int,
    jobs: int,
    weights: str,
    path: str,
    match_weights: str | None = None,
) -> tuple[dict[str, Any], list[Decision]]:
    """Plays one level's money games and matches (with `match_weights`, else `weights`),
    prints their lines; returns the figures and the board's decisions."""
    figures: dict[str, Any] = {}
    decisions: list[Decision] = []
    for kind, n in (("money", money + money % 2), ("match", matches + matches % 2)):
        if n <= 0:
            continue
        start = time.perf_counter()
        outs: list[Outcome] = []
        cube_us: list[int] = []
        net = match_weights or weights if kind == "match" else weights
        runs = play(kind, level, n, seed, jobs, net, path)
        for out, us in progress(runs, "%s %s" % (level, kind), n):
            outs.append(out)
            cube_us += us
        took = time.perf_counter() - start
        outs.sort(key=lambda o: o.number)
        values = [float(o.value) for o in outs]
        games = [g for o in outs for g in o.games]
        for g in games:
            decisions += g.decisions
        mean = sum(values) / n
        se = paired(values)
        made = [d for g in games for d in g.decisions]
        doubled = sum(1 for d in made if d.kind == "double" and d.action)
        took_n = sum(1 for d in made if d.kind == "take" and d.action)
        offered = sum(1 for d in made if d.kind == "take")
        drops = sum(1 for g in games if g.dropped)
        mean_us = sum(cube_us) / len(cube_us) if cube_us else 0.0
        if kind == "money":
            what = "money games" if n != 1 else "money game"
            result = "%+6.3f ± %5.3f points/game" % (mean, se)
        else:
            what = "%d-point matches" % MATCH_LENGTH
            result = "%5.1f%% ± %4.1f%% matches won" % (100 * mean, 100 * se)
        print(
            "%-6s vs gnubg 0-ply %5d %-16s %s  board doubled %d, took %d/%d; games %d, "
            "dropped %d; cube decision %.2f ms mean, %.2f max; %.1f s"
            % (
                level,
                n,
                what,
                result,
                doubled,
                took_n,
                offered,
                len(games),
                drops,
                mean_us / 1000,
                max(cube_us, default=0) / 1000,
                took,
            ),
            flush=True,
        )
        figures[kind] = {
            "n": n,
            "mean": round(mean, 4),
            "se_paired": round(se, 4),
            "games": len(games),
            "board_doubles": doubled,
            "board_takes": took_n,
            "doubles_to_board": offered,
            "drops": drops,
            "cube_decision_us_mean": round(mean_us, 1),
            "cube_decision_us_max": max(cube_us, default=0),
        }
    return figures, decisions


def judge_lines(level: str, decisions: list[Decision], limit: int) -> dict[str, Any]:
    """Judges up to `limit` decisions of each kind (money, match) and prints them."""
    if limit <= 0 or not decisions:
        return {}
    oracle = Gnubg()
    out: dict[str, Any] = {}
    for money in (True, False):
        judged = judge(oracle, [d for d in decisions if d.money == money], limit)
        if not judged:
            continue
        e = errors(judged)
        unit, scale = ("equity", 1.0) if money else ("match winning chance, %", 100.0)
        kinds = ", ".join("%s %d" % kv for kv in e.kinds.items())
        print(
            "%-6s cube decisions, %s: %d judged by gnubg %d-ply: %.4f ± %.4f %s lost a "
            "decision; %d not gnubg's (%s)"
            % (
                level,
                "money" if money else "%d-point matches" % MATCH_LENGTH,
                e.decisions,
                JUDGE_PLIES,
                e.mean * scale,
                e.se * scale,
                unit,
                e.wrong,
                kinds,
            ),
            flush=True,
        )
        out["money" if money else "match"] = {
            "decisions": e.decisions,
            "mean_loss": round(e.mean * scale, 5),
            "se": round(e.se * scale, 5),
            "unit": unit,
            "not_gnubgs": e.wrong,
            "kinds": e.kinds,
            # the costliest, for whoever tunes the board's cube: set gnubgid PID:MID, hint
            "worst": [
                {
                    "gnubgid": "%s:%s" % (j.decision.position_id, j.decision.match_id),
                    "kind": j.decision.kind,
                    "board": j.decision.action,
                    "gnubg_2ply": j.proper,
                    "loss": round(j.loss * scale, 4),
                }
                for j in sorted(judged, key=lambda j: -j.loss)[:WORST]
            ],
        }
    return out


def cube(
    levels: list[str],
    money: int,
    matches: int,
    decisions: int,
    seed: int,
    jobs: int,
    weights: str,
    path: str,
    match_weights: str | None = None,
) -> dict[str, Any]:
    """Both kinds for each level; the matches with `match_weights` (else `weights`)."""
    print(
        "With the cube: money games (Jacoby rule, beavers off) and %d-point matches against "
        "GNU Backgammon 0-ply (cubeful checker play, its own cube decisions); seed %d; "
        "pairs of games (matches) throw the same dice, the board in each seat once"
        % (MATCH_LENGTH, seed),
        flush=True,
    )
    agent = CubeAgent(weights, path)
    rule = agent.rule()
    checkers = agent.request("score")
    agent.close()
    print(
        "The board's checker play in matches: %s"
        % (
            "gammons at the score (gammon/score_values.py)"
            if checkers == "score"
            else "money play's (a firmware from before gammon/score_values.py)"
        ),
        flush=True,
    )
    print(
        "The board's cube decisions: %s"
        % ("gammon/cube.py" if rule == "cube" else "the interim rule (never double, take at 25%)"),
        flush=True,
    )
    print(
        "The board's network: %s in money games, %s in matches"
        % (os.path.basename(weights), os.path.basename(match_weights or weights)),
        flush=True,
    )
    out: dict[str, Any] = {"seed": seed, "rule": rule, "checkers": checkers,
                           "weights": os.path.basename(weights),
                           "match_weights": os.path.basename(match_weights or weights)}
    for level in levels:
        figures, made = run_level(level, money, matches, seed, jobs, weights, path,
                                  match_weights)
        figures["decisions"] = judge_lines(level, made, decisions)
        out[level] = figures
    print(
        "± the standard error over pairs; a decision's loss: against gnubg %d-ply's best "
        "action, the other side answering rightly (equity per cube in money play)" % JUDGE_PLIES
    )
    return out
