"""`ledgammon play` and `ledgammon watch`: the live terminal view of a board (curses).

The loop polls the board's LED frame about ten times a second and its state after every
event (and each second), draws them with board_text, and turns keys and mouse clicks into
the board's button presses. Only curses from the standard library (curses_display.py), so
it runs over SSH. A board that stops answering, or answers nonsense, is said on the
screen's message line; the view goes on.
"""

from __future__ import annotations

import base64
import binascii
import curses
import locale
import os
import time
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from . import boardinfo
from .board_text import Screen, absolute, draw
from .curses_display import CursesDisplay, Key, basic8, normalize, xterm256
from .errors import LedgammonError
from .match_words import RESIGN_AS, advice_words, event_words

__all__ = ["CursesDisplay", "LiveView", "basic8", "describe", "loop", "normalize", "run_view",
           "xterm256"]
LEDS_S, STATE_S, MESSAGE_S = 0.1, 1.0, 4.0  # poll periods and how long a message shows
POINT_BUTTONS = {"BAR", "OFF", "SELECT"} | {"p%d" % k for k in range(1, 25)}
KEY_BUTTONS = {"r": "ROLL", "u": "UNDO", "m": "MENU", "b": "BAR", "o": "OFF",
               "LEFT": "LEFT", "RIGHT": "RIGHT", " ": "SELECT"}
# the cube's and the resignations' keys: requests, so they work on either button layout
KEY_REQUESTS = {"d": "double", "t": "take", "x": "drop", "a": "accept", "j": "reject"}
RESIGN_KEY = "s"  # then 1, 2 or 3: resign a single game, a gammon or a backgammon


class Display(Protocol):
    def show(self, screen: Screen) -> None: ...

    def key(self, timeout_ms: int) -> Key | None: ...


class Client(Protocol):
    def request(self, cmd: str, **args: Any) -> dict[str, Any]: ...

    def poll_events(self, timeout: float = 0.0) -> list[dict[str, Any]]: ...


def describe(ev: Mapping[str, Any]) -> str:
    """A line for the events worth telling a watcher; "" for the rest."""
    kind = ev.get("event")
    if kind == "roll":
        return "Player %s rolled %s" % (ev.get("player"), "-".join(map(str, ev.get("dice", ()))))
    if kind == "nomove":
        return "Player %s cannot move" % ev.get("player")
    if kind == "error":
        return "board: %s" % (ev.get("message") or ev.get("code"))
    if kind == "new":
        return "a new game"
    return event_words(ev)


class LiveView:
    """What the loop knows of the board: frame, state, messages, keys typed so far."""

    def __init__(self, client: Client, interactive: bool, layout: str | None = None,
                 board: boardinfo.Board | None = None, clock: Callable[[], float] = time.monotonic
                 ) -> None:
        self.client = client
        self.interactive = interactive
        self.clock = clock
        info = getattr(client, "info", None) or client.request("hello")
        self.layout = layout or info.get("layout") or "full"
        self.board = board or boardinfo.load(str(info.get("board") or "pico"))
        self.frame = b""
        self.state: dict[str, Any] | None = None
        self.typed = ""
        self.sel: str | None = None  # the button that selected a checker (from the events)
        self.message, self.message_until = "", 0.0
        self.confirm_new = 0.0
        self.resigning = False  # `s` typed: 1, 2 or 3 next says how much
        self.unicode = True
        self.next_leds = self.next_state = 0.0

    def say(self, text: str) -> None:
        self.message, self.message_until = text, self.clock() + MESSAGE_S

    def selected(self) -> bool:
        st = self.state or {}
        if "selected" in st:  # a board that reports its selection
            return st["selected"] not in (None, -1)
        return self.sel is not None

    # the board
    def ask(self, cmd: str, **args: Any) -> dict[str, Any] | None:
        """One request; a port failure or a malformed reply is said, not fatal (None)."""
        try:
            return self.client.request(cmd, **args)
        except (OSError, LedgammonError) as exc:
            self.say("board: %s" % exc)
            return None

    def poll(self) -> None:
        """Events, then the frame and state when due; a silent board is said, not fatal."""
        now = self.clock()
        try:
            events = self.client.poll_events(0.0)
            if self.take(events):
                self.next_state = now
            if now >= self.next_leds:
                self.next_leds = now + LEDS_S
                self.frame = base64.b64decode(self.client.request("leds").get("frame", ""))
            if now >= self.next_state:
                self.next_state = now + STATE_S
                reply = self.client.request("state")
                if reply.get("ok", True):
                    self.state = reply
        except (OSError, ValueError, binascii.Error, LedgammonError) as exc:
            self.say("board: %s" % exc)
            self.next_leds = now + 1.0

    def take(self, events: list[dict[str, Any]]) -> bool:
        """Follows the selection through the events; True if the state may have changed."""
        pending: str | None = None  # a point pressed that no step or error followed yet
        for ev in events + [{"event": "end"}]:
            kind = ev.get("event")
            if pending is not None and kind not in ("step", "error"):
                self.sel = None if self.sel == pending else pending  # (de)selected
            if kind in ("step", "undo", "turn", "roll", "new", "over", "nomove", "menu"):
                self.sel = None
            button = ev.get("button") if kind == "press" else None
            pending = button if button in POINT_BUTTONS else None
            if button == "UNDO":
                self.sel = None
            text = describe(ev)
            if text:
                self.say(text)
        return bool(events)

    def press(self, button: str) -> None:
        reply = self.ask("press", button=button)
        if reply is not None and not reply.get("ok", True):
            self.say("%s: %s" % (button, (reply.get("error") or {}).get("message", "refused")))
        self.next_state = self.next_leds = 0.0

    # the keyboard and the mouse
    def key(self, key: Key, screen: Screen | None = None) -> bool:
        """Acts on one key or click; False to quit."""
        if key in ("q", "Q"):
            return False
        if not self.interactive:
            return True
        turn = int((self.state or {}).get("turn") or 0)
        if isinstance(key, tuple):
            button = screen.button_at(key[1], key[2]) if screen else None
            if button:
                self.press(button)
            return True
        if self.resigning:
            self.resigning = False
            if key in ("1", "2", "3"):
                self.act("resign", value=int(key))
            else:
                self.say("no resignation")
            return True
        if key.isdigit() and len(key) == 1:
            self.typed = (self.typed + key)[-2:]
        elif key == "BACKSPACE":
            self.typed = self.typed[:-1]
        elif key == "ESC":
            self.typed = ""
        elif key == "ENTER" and self.typed:
            n, self.typed = int(self.typed), ""
            if 1 <= n <= 24:
                self.press("p%d" % absolute(n, turn))
            elif n in (0, 25):
                self.press("OFF" if n == 0 else "BAR")
            else:
                self.say("no point %d: type 1-24 (25 bar, 0 off)" % n)
        elif key == "ENTER":
            self.press("SELECT")
        elif key == "n":
            self.new_game()
        elif key == "h":
            self.hint()
        elif key in KEY_REQUESTS:
            self.act(KEY_REQUESTS[key])
        elif key == RESIGN_KEY:
            self.resigning = True
            self.say("resign: 1 %s, 2 %s, 3 %s (any other key: no)" % (
                RESIGN_AS[1], RESIGN_AS[2], RESIGN_AS[3]))
        elif key in KEY_BUTTONS:
            self.press(KEY_BUTTONS[key])
        return True

    def act(self, cmd: str, **args: Any) -> None:
        """A cube action or resignation (double, take, drop, resign, accept, reject) for the
        player whose decision it is; the board's refusal is said (a side the board plays, the
        wrong moment, no cube play)."""
        reply = self.ask(cmd, **args)
        if reply is not None and not reply.get("ok", True):
            self.say("%s: %s" % (cmd, (reply.get("error") or {}).get("message", "refused")))
        self.next_state = self.next_leds = 0.0

    def hint(self) -> None:
        """The board's play for this turn, or its advice on a cube decision, lit on the
        board (and said here)."""
        reply = self.ask("hint")
        if reply is None:
            pass
        elif isinstance(reply.get("cube"), dict):  # a cube decision: the board's advice
            self.say("hint: %s" % advice_words(reply["cube"], short=True))
        elif reply.get("ok"):
            self.say("hint: %s" % reply.get("play"))
        else:
            self.say("no hint now: %s" % (reply.get("error") or {}).get("message", ""))
        self.next_state = self.next_leds = 0.0

    def new_game(self) -> None:
        now = self.clock()
        if (self.state or {}).get("phase") == "over" or now < self.confirm_new:
            self.ask("new")
            self.confirm_new = 0.0
            self.next_state = self.next_leds = 0.0
        else:
            self.confirm_new = now + MESSAGE_S
            self.say("abandon this game? press n again for a new game")

    def screen(self) -> Screen:
        message = self.message if self.clock() < self.message_until else ""
        return draw(self.frame, self.state, self.board, self.interactive, self.layout,
                    message, self.typed, self.selected(), self.unicode)


def loop(view: LiveView, display: Display, max_steps: int = -1) -> int:
    """Runs until `q` (or `max_steps` keys and timeouts, for tests); the exit code."""
    while max_steps:
        max_steps -= 1
        view.poll()
        scr = view.screen()
        display.show(scr)
        wait = min(view.next_leds, view.next_state) - view.clock()
        key = display.key(max(1, min(100, int(wait * 1000))))
        if key is not None and not view.key(key, scr):
            return 0
    return 0


def run_view(client: Client, interactive: bool = True, layout: str | None = None,
             board: boardinfo.Board | None = None) -> int:
    """The CLI's entry: `play` (interactive) or `watch` on a connected client; exit code.
    LedgammonError when there is no terminal to draw on."""
    try:
        locale.setlocale(locale.LC_ALL, "")
    except locale.Error:  # a LANG naming a locale this machine lacks: plain ASCII then
        pass
    os.environ.setdefault("ESCDELAY", "25")
    view = LiveView(client, interactive, layout, board)
    view.unicode = "utf" in locale.getpreferredencoding(False).lower()
    try:
        return int(curses.wrapper(lambda stdscr: loop(view, CursesDisplay(stdscr))))
    except curses.error as exc:
        raise LedgammonError("the board view needs a terminal (%s)" % exc) from None
