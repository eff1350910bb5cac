"""A client for the board's JSON-lines protocol (docs/protocol.md), the same for board and sim.

Requests carry increasing ids; a reply is matched by its id, events that arrive meanwhile are
queued for `events()`, and lines that are not JSON objects (a traceback, a REPL banner) are
skipped, so one connection can both drive a game and follow it. Every reply is checked
against the protocol where it arrives (replies.py): a malformed one raises BadReply, so no
caller ever reads a field that is missing or of the wrong type; a malformed event is dropped.
"""

from __future__ import annotations

import base64
import collections
import json
import time
from collections.abc import Iterator
from typing import Any

from . import replies
from .errors import BoardError, LedgammonError, NoAnswer, ProtocolMismatch
from .replies import PROTOCOL
from .transport import Transport

MAX_EVENTS = 10000  # queued events beyond this are dropped, oldest first
# How MicroPython's REPL begins its lines: its prompt, its banner, and the value of our request
# as a Python dict (the REPL takes our line for a dict literal: {'cmd': 'hello', 'id': 1})
REPL_LINES = (b">>> ", b"MicroPython v", b"raw REPL; CTRL-B to exit", b"{'")


class Client:
    """One connection to a board (or the simulator) on `port_url`.

    Construction opens the port and (with `check`) asks `hello`, so a wrong port fails at
    once: NoSuchPort, PortBusy, NoAnswer or ProtocolMismatch.
    """

    def __init__(
        self, port_url: str, timeout: float = 2.0, check: bool = True, exclusive: bool = True
    ) -> None:
        self.url = port_url
        self.timeout = timeout
        self.transport = Transport(port_url, exclusive)
        self._next_id = 1
        # The first line sent starts with a newline: whatever the board holds of a line not
        # ended (another tool's leftovers: mpremote's Ctrl-B after its raw REPL, bytes a
        # program sent before it stopped) ends there as a line of its own, answered as the
        # bad line it is, with no id of ours; otherwise it heads our first request, whose
        # reply is then bad_json under our id.
        self._fresh = True
        self._events: collections.deque[dict[str, Any]] = collections.deque(maxlen=MAX_EVENTS)
        self.info: dict[str, Any] = {}
        self.dropped = 0  # malformed events thrown away
        if check:
            try:
                self.hello()
            except BaseException:
                self.close()
                raise

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.transport.close()

    # the wire
    def request(self, cmd: str, **args: Any) -> dict[str, Any]:
        """Sends one request and returns its reply (`ok` true or false), checked.

        NoAnswer when no reply with this request's id comes within the timeout; BadReply
        when the reply is not what the protocol says for `cmd`.
        """
        rid = self._next_id
        self._next_id = rid + 1 if rid < 1 << 30 else 1
        msg: dict[str, Any] = {"cmd": cmd, "id": rid}
        msg.update(args)
        try:  # a value JSON has no text for (nan, inf) is no request: the board says bad_json
            text = json.dumps(msg, separators=(",", ":"), allow_nan=False)
        except ValueError:
            raise LedgammonError("%s: a number that is not finite cannot be sent" % cmd) from None
        sent = text.encode()
        if self._fresh:
            sent = b"\n" + sent
            self._fresh = False
        self.transport.write_line(sent)
        deadline = time.monotonic() + self.timeout
        repl = False  # lines as MicroPython's REPL writes them: no firmware answers there
        while True:
            left = deadline - time.monotonic()
            line = self.transport.read_line(left) if left > 0 else None
            if line is None:
                raise NoAnswer(self._why_no_answer(repl))
            repl = repl or line.startswith(REPL_LINES)
            obj = self._parse(line)
            # the line with our id (an integer: not true, not 1.0) is the reply, unless it is
            # our own request echoed (loop://)
            if obj is not None and type(obj.get("id")) is int and obj["id"] == rid:
                if "cmd" in obj:
                    continue
                return replies.check(cmd, obj, "the board on %s" % self.url)

    def _why_no_answer(self, repl: bool) -> str:
        """What NoAnswer says: the board's own `no_start` event when it sent one, that it is
        at MicroPython's REPL when its lines say so, else that nothing answered."""
        for ev in self._events:
            if ev["event"] == "error" and ev.get("code") == "no_start":
                return "the board on %s cannot start its firmware: %s (hardware/README.md)" % (
                    self.url, ev.get("message"))
        if repl:
            return (
                "the board on %s is at MicroPython's REPL, not running the ledgammon firmware "
                "(stopped for the REPL, or it could not start: every 4th LED red); reset it, "
                "or install the firmware with `ledgammon deploy`" % self.url
            )
        return (
            "no answer from a board on %s within %.1f s (is the ledgammon firmware running "
            "there? every 4th LED red: it could not start, see hardware/README.md)"
            % (self.url, self.timeout)
        )

    def call(self, cmd: str, **args: Any) -> dict[str, Any]:
        """Like `request`, but an error reply raises BoardError (which keeps the reply)."""
        reply = self.request(cmd, **args)
        if not reply["ok"]:
            err = reply["error"]
            raise BoardError(err["code"], err["message"], reply)
        return reply

    def _parse(self, line: bytes) -> dict[str, Any] | None:
        """A reply object, or None after queueing an event or skipping a non-JSON line."""
        try:
            obj = json.loads(line)
        except (ValueError, RecursionError):  # not JSON, or nested past any reply's depth
            return None
        if not isinstance(obj, dict):
            return None
        if "event" in obj:
            if replies.event_ok(obj):
                self._events.append(obj)
            else:
                self.dropped += 1
            return None
        return obj

    def events(self, timeout: float = 0.0) -> Iterator[dict[str, Any]]:
        """The queued events, then those arriving within `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            while self._events:
                yield self._events.popleft()
            left = deadline - time.monotonic()
            if left <= 0:
                return
            line = self.transport.read_line(left)
            if line is None:
                return
            self._parse(line)  # a stray reply (to a request that timed out) is dropped

    def poll_events(self, timeout: float = 0.0) -> list[dict[str, Any]]:
        return list(self.events(timeout))

    # the requests, typed
    def hello(self) -> dict[str, Any]:
        """Asks the board who it is; ProtocolMismatch unless it speaks our version."""
        reply = self.call("hello")
        version = reply["protocol"]  # an integer: replies.check saw to it
        if version != PROTOCOL:
            raise ProtocolMismatch(
                "the board on %s speaks protocol %d; these tools speak %d: update %s"
                % (
                    self.url,
                    version,
                    PROTOCOL,
                    "the firmware" if version < PROTOCOL else "ledgammon",
                )
            )
        self.info = reply
        return reply

    def state(self) -> dict[str, Any]:
        return self.call("state")

    def frame(self) -> bytes:
        """The LED frame as the board holds it: 3 bytes per LED (see `leds` order) in chain
        order."""
        return base64.b64decode(self.call("leds")["frame"])

    def leds(self) -> dict[str, Any]:
        return self.call("leds")

    def press(self, button: str) -> dict[str, Any]:
        return self.call("press", button=button)

    def roll(self, dice: tuple[int, int] | list[int] | None = None) -> dict[str, Any]:
        if dice is None:
            return self.call("roll")
        return self.call("roll", dice=list(dice))

    def move(self, play: str) -> dict[str, Any]:
        return self.call("move", play=play)

    def undo(self) -> dict[str, Any]:
        return self.call("undo")

    def new_game(self) -> dict[str, Any]:
        return self.call("new")

    def history(self) -> dict[str, Any]:
        return self.call("history")

    def config(self, **settings: Any) -> dict[str, Any]:
        if settings:
            return self.call("config", set=settings)
        return self.call("config")

    # the cube and resignations: each acts for the player whose decision it is
    def double(self) -> dict[str, Any]:
        return self.call("double")

    def take(self) -> dict[str, Any]:
        return self.call("take")

    def drop(self) -> dict[str, Any]:
        return self.call("drop")

    def resign(self, value: int) -> dict[str, Any]:
        """Offers to resign a single game (1), a gammon (2) or a backgammon (3)."""
        return self.call("resign", value=value)

    def accept(self) -> dict[str, Any]:
        return self.call("accept")

    def reject(self) -> dict[str, Any]:
        return self.call("reject")
