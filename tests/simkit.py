"""Helpers of the host tests that drive the simulator: start it, play games, follow events.

The games are checked against the rules engine on the host (firmware/gammon under CPython):
every play in the board's record is replayed and must be legal and lead to the board's state.
"""

from __future__ import annotations

import os
import random
import sys
from typing import Any

from gammon.notation import find_play
from gammon.position import Position
from ledgammon.client import Client
from ledgammon.sim import Simulator

MICROPYTHON = os.path.join(os.path.dirname(sys.executable), "micropython")


TIMEOUT = 10.0  # generous: a loaded test machine is slow, and a lost reply fails anyway


def connect(port: str, timeout: float = TIMEOUT) -> Client:
    return Client(port, timeout=timeout)


def start_sim(flash: str, seed: int | None = 1, **kw: Any) -> Simulator:
    sim = Simulator(flash=flash, seed=seed, stderr=None, **kw)
    sim.start()
    return sim


def play_turn_by_move(client: Client, st: dict[str, Any], rng: random.Random) -> None:
    """One request: ROLL-like phases roll (sometimes with dice given), MOVE plays a whole
    legal play from the state's list."""
    if st["phase"] == "move":
        for _ in st["steps"]:  # `plays` are whole plays from the turn's start
            client.undo()
        reply = client.move(rng.choice(st["plays"]))
        assert reply["steps"], reply
    elif rng.random() < 0.25:
        a = rng.randint(1, 6)
        b = rng.randint(1, 6)
        if st["phase"] in ("opening", "over") and a == b:
            b = a % 6 + 1
        assert client.roll([a, b])["ok"]
    else:
        assert client.roll()["ok"]


def play_game(client: Client, rng: random.Random, limit: int = 1000) -> dict[str, Any]:
    """Plays the current game to its end with roll and move requests; the final state."""
    for _ in range(limit):
        st = client.state()
        if st["phase"] == "over":
            return st
        play_turn_by_move(client, st, rng)
    raise AssertionError("the game did not end in %d requests" % limit)


def button(turn: int, point: int) -> str:
    """The board button of the mover's point (25 bar, 0 off)."""
    if point == 25:
        return "BAR"
    if point == 0:
        return "OFF"
    return "p%d" % (point if turn == 0 else 25 - point)


def press_turn(client: Client, st: dict[str, Any], rng: random.Random) -> None:
    """A whole turn with button presses only: ROLL, then each single step of a legal play
    (its checker's point, then the destination), as a player does on the board."""
    if st["phase"] != "move":
        assert client.press("ROLL")["ok"]
        return
    text = rng.choice(st["plays"])
    play = find_play(Position.from_id(st["position_id"]), tuple(st["dice"]), text)
    for frm, to, _ in play.steps:
        assert client.press(button(st["turn"], frm))["ok"], (text, frm)
        assert client.press(button(st["turn"], to))["ok"], (text, to)


def replay(history: dict[str, Any]) -> Position:
    """Replays the board's record with the host engine; the position after the last play
    (seen by its mover). Fails if any play is not legal there."""
    pos = Position.start()
    last = pos
    turns = history["turns"]
    if turns:
        assert turns[0]["dice"] == history["opening"], history
    for t in turns:
        if t["play"]:
            last = find_play(pos, tuple(t["dice"]), t["play"]).result
        else:
            last = pos
        pos = last.swap()
    return last


class Tracker:
    """The board rebuilt from events alone: checkers per player on absolute points."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        start = Position.start()
        self.pts = [[0] * 25, [0] * 25]
        for i in range(24):
            self.pts[0][i + 1] = start.me[i]
            self.pts[1][24 - i] = start.me[i]
        self.bar = [0, 0]
        self.off = [0, 0]
        self.over: dict[str, Any] | None = None
        self.kinds: list[str] = []

    @staticmethod
    def _abs(player: int, k: int) -> int:
        return k if player == 0 else 25 - k

    def _move(self, p: int, frm: int, to: int, hit: bool, sign: int) -> None:
        opp = 1 - p
        if sign < 0:  # an undo: the checker goes back, a hit checker comes back
            frm, to = to, frm
        if frm == 25:
            self.bar[p] -= 1
        elif frm == 0:
            self.off[p] -= 1
        else:
            self.pts[p][self._abs(p, frm)] -= 1
        if to == 0:
            self.off[p] += 1
        elif to == 25:
            self.bar[p] += 1
        else:
            self.pts[p][self._abs(p, to)] += 1
        if hit:
            spot = self._abs(p, frm if sign < 0 else to)
            self.pts[opp][spot] -= sign
            self.bar[opp] += sign

    def event(self, ev: dict[str, Any]) -> None:
        kind = ev["event"]
        self.kinds.append(kind)
        if kind == "step":
            self._move(ev["player"], ev["from"], ev["to"], ev["hit"], 1)
        elif kind == "undo":
            self._move(ev["player"], ev["from"], ev["to"], ev["hit"], -1)
        elif kind == "new":
            self.reset()
        elif kind == "over":
            self.over = ev

    def board(self) -> dict[str, list[int]]:
        return {
            "p0": self.pts[0][1:],
            "p1": self.pts[1][1:],
            "bar": list(self.bar),
            "off": list(self.off),
        }
