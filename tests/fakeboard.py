"""A fake board on a pseudo-terminal that answers every request from a script, for the host
commands' tests: a pyserial client opens its port exactly as it opens the simulator's.

`FakeBoard(replies)` answers each `cmd` with `replies[cmd]`: a dict (sent with the request's
id added, unless it has an "id" of its own), raw bytes (sent as they are, plus a newline),
or a function of the request returning either. Commands the script lacks get protocol 1's
well-formed answers from GOOD: a game at its first move, 3-1 for player 0.
"""

from __future__ import annotations

import base64
import copy
import json
import os
import pty
import select
import threading
import tty
from collections.abc import Callable
from typing import Any

from gammon.play import legal_plays
from gammon.position import Position

LEDS = 452  # the pico board's chain
START = [0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]
SETTINGS = {
    "brightness": 64,
    "autoplay": True,
    "physical_dice": False,
    "palette": 0,
    "players": ["human", "human"],
    "level": "strong",
}
STATE = {
    "ok": True,
    "phase": "move",
    "turn": 0,
    "dice": [3, 1],
    "steps": [],
    "position_id": "4HPwATDgc/ABMA",
    "current_id": "4HPwATDgc/ABMA",
    "plays": sorted(str(p) for p in legal_plays(Position.start(), (3, 1))),
    "pips": [167, 167],
    "board": {"p0": START, "p1": START[::-1], "bar": [0, 0], "off": [0, 0]},
    "winner": None,
    "result": None,
    "game": 1,
    "cube": 1,
    "cube_owner": None,
    "score": [0, 0],
    "match_length": 0,
    "settings": SETTINGS,
    "entering": None,
    "menu": None,
    "error": None,
    "selected": None,
    "bot": None,
}
GOOD: dict[str, dict[str, Any]] = {
    "hello": {"ok": True, "protocol": 1, "firmware": "fake", "board": "pico",
              "layout": "full", "leds": LEDS, "order": "GRB"},
    "state": STATE,
    "leds": {"ok": True, "count": LEDS, "order": "GRB",
             "frame": base64.b64encode(bytes(range(256)) * 5 + bytes(40)).decode()},
    "press": {"ok": True, "button": "p8"},
    "roll": {"ok": True, "dice": [3, 1], "player": 0},
    "move": {"ok": True, "steps": ["8/5", "6/5"]},
    "undo": {"ok": True, "step": "6/5"},
    "new": {"ok": True, "game": 2},
    "history": {"ok": True, "opening": [3, 1], "turns": [], "winner": None, "result": None,
                "game": 1, "start": None},
    "hint": {"ok": True, "play": "8/5 6/5", "steps": ["8/5", "6/5"]},
    "config": {"ok": True, "settings": SETTINGS},
}
Reply = dict[str, Any] | bytes | Callable[[dict[str, Any]], "dict[str, Any] | bytes"]


class FakeBoard:
    """The board side of a pty, answered by a thread; `port` is the path for clients."""

    def __init__(self, replies: dict[str, Reply] | None = None) -> None:
        self.replies: dict[str, Reply] = copy.deepcopy(GOOD)  # type: ignore[arg-type]
        self.replies.update(replies or {})
        self.requests: list[dict[str, Any]] = []
        self.errors: list[Exception] = []  # the script's own failures
        self._master, self._slave = pty.openpty()
        tty.setraw(self._slave)
        self.port = os.ttyname(self._slave)
        self._stop = False
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        buf = b""
        while not self._stop:
            ready, _, _ = select.select([self._master], [], [], 0.05)
            if not ready:
                continue
            try:
                buf += os.read(self._master, 4096)
            except OSError:
                return
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                try:
                    self._answer(line)
                except Exception as exc:  # a broken script: said by close(), not a hang
                    self.errors.append(exc)

    def _answer(self, line: bytes) -> None:
        try:
            req = json.loads(line)
        except ValueError:
            return
        if not isinstance(req, dict):
            return
        self.requests.append(req)
        reply = self.replies.get(str(req.get("cmd")))
        if reply is None:
            reply = {"ok": False, "error": {"code": "unknown_cmd", "message": "no such"}}
        if callable(reply):
            reply = reply(req)
        if isinstance(reply, dict):
            out = dict(reply)
            out.setdefault("id", req.get("id"))
            data = json.dumps(out).encode()
        else:
            data = reply
        os.write(self._master, data + b"\n")

    def close(self) -> None:
        self._stop = True
        self._thread.join(2)
        os.close(self._master)
        os.close(self._slave)
        if self.errors:
            raise AssertionError("the fake board's script failed: %r" % self.errors[0])

    def __enter__(self) -> FakeBoard:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
