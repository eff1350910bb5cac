"""Issue 13's proof over the serial link: a 5-point match played against the simulator (the
real firmware under the MicroPython unix port, on a pseudo-terminal) with doubles, takes,
drops and resignations, exported with `ledgammon export`, imported by GNU Backgammon (its
bindings): every move, cube action and result gnubg reads back equals the board's record.

The .mat format has no room for a rejected resignation (gnubg writes none either): the
record's rejected offers are checked to be there, and left out of the comparison.
"""

from __future__ import annotations

import os
import random
from typing import Any

import gnubg
from gammon.notation import find_play
from gammon.position import Position
from gnubg_capture import quiet
from ledgammon.cli import main
from simkit import MICROPYTHON, connect, start_sim

assert os.path.exists(MICROPYTHON), "the MicroPython unix port is missing: run make setup"


class Driver:
    """Plays the match through requests: the first game has a double taken and a redouble
    dropped, the second a resignation rejected and a bigger one accepted; after them the
    cube is turned and answered at random until the match is over."""

    def __init__(self, client: Any, rng: random.Random) -> None:
        self.client, self.rng = client, rng
        self.game = 1  # of the match (the board numbers its games from its first ever)
        self.turns_in_game = 0
        self.resigned: list[int] = []

    def step(self, st: dict[str, Any]) -> bool:
        """One request; False once the match is over."""
        c, rng = self.client, self.rng
        offer, phase, game = st.get("offer"), st["phase"], self.game
        if phase == "over":
            if st["match_over"]:
                return False
            c.new_game()
            self.game, self.turns_in_game, self.resigned = game + 1, 0, []
            return True
        if offer and offer["kind"] == "double":
            take = st["cube"] == 1 if game == 1 else rng.random() < 0.7
            c.take() if take else c.drop()
            return True
        if offer:
            c.reject() if game == 2 and offer["value"] == 1 else c.accept()
            return True
        if phase in ("roll", "done"):  # a double before the throw (from done: the next player)
            self.turns_in_game += phase == "done"
            wanted = game == 1 and self.turns_in_game >= 3 or game > 2 and rng.random() < 0.15
            if st["may_double"] and wanted and c.request("double")["ok"]:
                return True
        if phase == "move":
            if game == 2 and self.turns_in_game >= 4 and len(self.resigned) < 2:
                self.resigned.append(2 if self.resigned else 1)  # after the throw
                c.resign(self.resigned[-1])
            else:
                c.move(rng.choice(st["plays"]))
        else:  # the opening, a throw, a finished play to pass on
            c.roll()
        return True


def expected(game: dict[str, Any]) -> tuple[list[tuple[Any, ...]], int]:
    """What gnubg should read of one game of the board's record: (kind, player, dice, the
    position before, the hops) per move, (kind, player) per cube action, (resign, player,
    value) for an accepted resignation; and the number of rejected resignations."""
    by_slot: dict[tuple[int, bool], list[dict[str, Any]]] = {}
    for a in game["actions"]:
        by_slot.setdefault((a["turn"], a["rolled"]), []).append(a)
    out: list[tuple[Any, ...]] = []
    rejected = 0

    def acts(i: int, rolled: bool) -> None:
        nonlocal rejected
        pending = None
        for a in by_slot.get((i, rolled), ()):
            kind = a["action"]
            if kind in ("double", "take", "drop"):
                out.append((kind, "XO"[a["player"]]))
            elif kind == "resign":
                pending = a
            elif kind == "accept" and pending:
                out.append(("resign", "XO"[pending["player"]], pending["value"]))
            elif kind == "reject":
                rejected += 1

    pos, mover = Position.start(), None
    for i, t in enumerate(game["turns"]):
        acts(i, False)
        if mover is not None and t["player"] != mover:
            pos = pos.swap()
        mover = t["player"]
        dice = tuple(sorted(t["dice"], reverse=True))
        steps: tuple[Any, ...] = ()
        before = pos.position_id()
        if t["play"]:
            play = find_play(pos, tuple(t["dice"]), t["play"])
            steps = tuple(sorted((f, to) for f, to, _ in play.steps))
            pos = play.result
        out.append(("move", "XO"[t["player"]], dice, before, steps))
        acts(i, True)
    acts(len(game["turns"]), False)
    acts(len(game["turns"]), True)
    return out, rejected


def read_back(game: dict[str, Any]) -> list[tuple[Any, ...]]:
    """The same of one game as gnubg imported it."""
    out: list[tuple[Any, ...]] = []
    for r in game["game"]:
        kind = r["action"]
        if kind == "move":
            out.append(("move", r["player"], tuple(sorted(r["dice"], reverse=True)), r["board"],
                        tuple(sorted(map(tuple, r.get("move") or ())))))
        elif kind in ("double", "take", "drop"):
            out.append((kind, r["player"]))
        elif kind == "resign":
            out.append(("resign", r["player"], r["points"]))
    return out


def test_a_five_point_match_over_the_link_reads_back_in_gnubg(tmp_path, capsys):
    with start_sim(str(tmp_path / "flash"), seed=5) as sim:
        with connect(sim.port) as client:
            client.config(match_length=5, cube=True)
            client.new_game()
            st = client.state()
            assert st["match_length"] == 5 and st["score"] == [0, 0] and st["cube"] == 1
            driver = Driver(client, random.Random(3))
            for _ in range(6000):
                st = client.state()
                if not driver.step(st):
                    break
            else:
                raise AssertionError("the match did not end")
            history = client.history()
            events = [e["event"] for e in client.events()]
        path = tmp_path / "match.mat"
        assert main(["export", str(path), "-p", sim.port, "--timeout", "10"]) == 0
        out = capsys.readouterr().out
    assert "Match ID: %s" % st["match_id"] in out and "Position ID: " in out
    games = history["games"]
    assert st["match_over"] and max(st["score"]) >= 5 and len(games) >= 2
    kinds = [a["action"] for g in games for a in g["actions"]]
    for kind in ("double", "take", "drop", "resign", "accept", "reject"):
        assert kind in kinds and kind in events, (kind, kinds)
    quiet("set threads 1")
    quiet("import mat %s" % path)
    match = gnubg.match()
    quiet("new session")  # gnubg's state is the process's: the next test finds a session
    assert match["match-info"]["match-length"] == 5
    assert len(match["games"]) == len(games)
    rejected = 0
    for n, (board, theirs) in enumerate(zip(games, match["games"], strict=True)):
        want, no = expected(board)
        rejected += no
        assert read_back(theirs) == want, n
        info = theirs["info"]
        assert (info["score-X"], info["score-O"]) == tuple(board["score"]), n
        assert info["winner"] == "XO"[board["winner"]] and info["points-won"] == board["points"]
        assert info["resigned"] == (board["ended"] == "resigned"), n
        assert info.get("crawford", False) == board["crawford"], n
    assert rejected == 1
    assert [g["crawford"] for g in games].count(True) == 1  # these dice reach it
