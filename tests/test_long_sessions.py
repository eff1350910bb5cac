"""Long sessions: `history` and `export` after every game, on both interpreters (issue 28).

After 17-26 games of money play with the cube, `history` carried `"turns":<iterator>` (on
MicroPython; CPython cut the line short) for the games whose moves the board had dropped for
room, and the export of the session failed on them. Here the firmware plays, through its
protocol and its Outbox (tests/firmware/long_session.py), on CPython in this process and on
the MicroPython unix port in a process of its own:
- a money session with the cube, the board playing both sides at the easy level: 60 games
  on MicroPython (past the 50 finished games a session keeps), 30 on CPython (past the point
  where the first records are dropped; 60 with LEDGAMMON_LONG_SESSIONS=1);
- a 25-point match of two people through requests (plays chosen at random, now and then a
  double taken, most games ended by a resignation of the leader so that the match runs
  long: ~37 games, half of them with their moves dropped for room); on CPython its first 24
  games (the whole match with LEDGAMMON_LONG_SESSIONS=1).
After every game each line is strict JSON, `history` holds every game kept, each with its
turns (none once its moves were dropped), and the whole session exports as a .mat file
(`ledgammon export`'s own code); both interpreters write the same session.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from typing import Any

import long_session  # tests/firmware: the session both interpreters play
import pytest
from ledgammon import export
from ledgammon.match_commands import _games
from mpytools import FIRMWARE, MICROPYTHON, NATIVE, ROOT, require

LONG = os.environ.get("LEDGAMMON_LONG_SESSIONS") == "1"
MONEY = ("money", 7, 0, 60)  # (name, seed, match length, games)
MATCH = ("match", 5, 25, 0)
CPYTHON_MONEY_GAMES = 60 if LONG else 30
CPYTHON_MATCH_GAMES = 99 if LONG else 24  # past the first dropped records (game ~20)
_EXPORTS: dict[str, str] = {}  # the .mat of each (history, state) seen: the same on both


def _strict(text: str) -> Any:
    def refuse(name: str) -> Any:
        raise ValueError("not JSON: " + name)

    return json.loads(text, parse_constant=refuse)


def _canon(obj: dict[str, Any]) -> str:
    return json.dumps({k: v for k, v in obj.items() if k != "id"}, sort_keys=True)


def check_game(n: int, history: dict[str, Any], state: dict[str, Any], length: int) -> str:
    """The checks after game n: the history's games and the session's export; its .mat."""
    games = history["games"]
    assert games and games[-1]["winner"] in (0, 1) and state["phase"] == "over"
    numbers = [g["game"] for g in games]
    assert numbers == sorted(numbers) and len(set(numbers)) == len(numbers), numbers
    if length:
        assert numbers == list(range(1, n + 1))  # a match keeps every game
    else:
        assert len(games) == min(n, 51)  # the 50 finished games a session keeps, and this one
    for g in games:
        assert isinstance(g["turns"], list), g
        assert bool(g["turns"]) == g["moves"], g  # no turns only once they were dropped
        assert all(isinstance(t["play"], str) for t in g["turns"])
    key = _canon(history) + _canon(state)
    if key not in _EXPORTS:
        text = export.to_mat(dict(history, games=_games(history, state)),
                             match_length=int(state["match_length"] or 0))
        assert text.count(" Game ") == len(games), n
        assert text.count("Wins ") == len(games), n
        _EXPORTS[key] = text
    return _EXPORTS[key]


class Recorder:
    """The lines of a session, checked as they come."""

    def __init__(self, length: int) -> None:
        self.length = length
        self.history: dict[str, Any] | None = None
        self.lines: list[tuple[str, int, str]] = []
        self.dropped = 0  # games whose moves were dropped, at the end

    def __call__(self, kind: str, n: int, line: bytes | str) -> None:
        text = line.decode("utf-8", "strict") if isinstance(line, bytes) else line
        obj = _strict(text)
        self.lines.append((kind, n, _canon(obj)))
        if kind == "history":
            self.history = obj
            return
        assert self.history is not None
        check_game(n, self.history, obj, self.length)
        self.dropped = sum(1 for g in self.history["games"] if not g["moves"])


def _flash() -> str:
    base = "/dev/shm" if os.path.isdir("/dev/shm") else None  # the saves: no disk's wait
    return tempfile.mkdtemp(prefix="lgsession-", dir=base)


def _on_cpython(name: str, seed: int, length: int, games: int) -> Recorder:
    rec = Recorder(length)
    root = _flash()
    try:
        if name == "match":
            long_session.run_people(root, seed, length, rec, games)
        else:
            long_session.run(root, seed, length, games, rec)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return rec


def _on_micropython(name: str, seed: int, length: int, games: int) -> Recorder:
    rec = Recorder(length)
    root = _flash()
    code = ("import sys\nsys.path[:0] = %r\nimport long_session\n"
            "long_session._main(['', %r, '%d', '%d', '%d', %r])\n"
            % ([FIRMWARE, NATIVE, os.path.join(ROOT, "tests", "firmware")], root, seed,
               length, games, "people" if name == "match" else "easy"))
    try:
        proc = subprocess.Popen([require(MICROPYTHON), "-X", "heapsize=2M", "-c", code],
                                cwd=ROOT, stdout=subprocess.PIPE, text=True)
        assert proc.stdout is not None
        last = ""
        for line in proc.stdout:
            last = line
            if line.startswith(("history ", "state ")):
                kind, n, text = line.rstrip("\n").split(" ", 2)
                rec(kind, int(n), text)
        assert proc.wait(600) == 0 and last.startswith("done "), last
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return rec


@pytest.fixture(scope="module")
def micropython_sessions() -> dict[str, Recorder]:
    return {case[0]: _on_micropython(*case) for case in (MONEY, MATCH)}


def test_a_money_session_of_60_games_on_micropython(micropython_sessions):
    rec = micropython_sessions["money"]
    assert sum(1 for k, _, _ in rec.lines if k == "state") == 60
    assert rec.dropped > 0  # past the point where the board drops old games' moves


def test_a_long_25_point_match_on_micropython(micropython_sessions):
    rec = micropython_sessions["match"]
    states = [json.loads(text) for k, _, text in rec.lines if k == "state"]
    assert states[-1]["match_over"] and max(states[-1]["score"]) >= 25
    assert len(states) >= 30 and rec.dropped > 0


@pytest.mark.parametrize("case", [MONEY, MATCH], ids=["money", "match"])
def test_the_same_sessions_on_cpython(micropython_sessions, case):
    name, seed, length, games = case
    games = CPYTHON_MONEY_GAMES if name == "money" else CPYTHON_MATCH_GAMES
    rec = _on_cpython(name, seed, length, games)
    theirs = micropython_sessions[name].lines
    assert rec.lines == theirs[: len(rec.lines)]  # line for line what MicroPython wrote
    assert len(rec.lines) == min(2 * games, len(theirs)) and rec.dropped > 0
