"""`ledgammon play` and `ledgammon watch`: the live terminal view of a board (curses).

The loop polls the board's LED frame about ten times a second and its state after every
event (and each second), draws them with board_text, and turns keys and mouse clicks into
the board's button presses. Only curses from the standard library, so it runs over SSH;
it paints in 24-bit colour where the terminal has it, else the 256-colour palette, else 8.
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
from .board_text import Screen, Style, absolute, draw
from .errors import LedgammonError

Key = str | tuple[str, int, int]  # a key name ("r", "LEFT", "ENTER"...) or ("click", row, col)
LEDS_S, STATE_S, MESSAGE_S = 0.1, 1.0, 4.0  # poll periods and how long a message shows
POINT_BUTTONS = {"BAR", "OFF", "SELECT"} | {"p%d" % k for k in range(1, 25)}
KEY_BUTTONS = {"r": "ROLL", "u": "UNDO", "m": "MENU", "b": "BAR", "o": "OFF",
               "LEFT": "LEFT", "RIGHT": "RIGHT", " ": "SELECT"}


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
    return ""


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
        reply = self.client.request("press", button=button)
        if not reply.get("ok", True):
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
        elif key in KEY_BUTTONS:
            self.press(KEY_BUTTONS[key])
        return True

    def hint(self) -> None:
        """The board's play for this turn, lit on the board (and said here)."""
        reply = self.client.request("hint")
        if reply.get("ok"):
            self.say("hint: %s" % reply.get("play"))
        else:
            self.say("no hint now: %s" % (reply.get("error") or {}).get("message", ""))
        self.next_state = self.next_leds = 0.0

    def new_game(self) -> None:
        now = self.clock()
        if (self.state or {}).get("phase") == "over" or now < self.confirm_new:
            self.client.request("new")
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


# curses
_XTERM = (0, 95, 135, 175, 215, 255)


def xterm256(c: tuple[int, int, int]) -> int:
    """The nearest colour of the xterm 256-colour cube or grey ramp."""
    cube = [min(range(6), key=lambda i: abs(_XTERM[i] - v)) for v in c]
    best = 16 + 36 * cube[0] + 6 * cube[1] + cube[2]
    err = sum((_XTERM[i] - v) ** 2 for i, v in zip(cube, c, strict=True))
    grey = min(23, max(0, round((sum(c) / 3 - 8) / 10)))
    if sum((8 + 10 * grey - v) ** 2 for v in c) < err:
        return 232 + grey
    return best


def basic8(c: tuple[int, int, int]) -> int:
    """curses' 8 colours: each channel on when it is at least half the brightest."""
    top = max(c)
    if top < 48:
        return curses.COLOR_BLACK
    return sum(1 << i for i, v in enumerate(c) if v * 2 >= top)


def normalize(code: int | str) -> Key | None:
    """A curses key code (or character) as a key name for LiveView.key."""
    names = {curses.KEY_LEFT: "LEFT", curses.KEY_RIGHT: "RIGHT", curses.KEY_ENTER: "ENTER",
             10: "ENTER", 13: "ENTER", 27: "ESC", curses.KEY_BACKSPACE: "BACKSPACE",
             127: "BACKSPACE", 8: "BACKSPACE", curses.KEY_RESIZE: "RESIZE"}
    if isinstance(code, str):
        code = ord(code) if len(code) == 1 else -1
    if code in names:
        return names[code]
    if 32 <= code < 127:
        return chr(code)
    return None


class CursesDisplay:
    """Paints Screens with curses and reads keys and clicks."""

    def __init__(self, stdscr: Any) -> None:
        self.scr = stdscr
        self.pairs: dict[tuple[int, int], int] = {}
        colours = curses.COLORS if curses.has_colors() else 0
        direct = colours >= 1 << 24 and curses.has_extended_color_support()
        self.mode = "direct" if direct else "256" if colours >= 256 else "8" if colours else ""
        if colours:
            curses.start_color()
            curses.use_default_colors()
        for call in (lambda: curses.curs_set(0), lambda: curses.mouseinterval(0),
                     lambda: curses.mousemask(curses.BUTTON1_PRESSED | curses.BUTTON1_CLICKED)):
            try:
                call()
            except curses.error:
                pass
        stdscr.keypad(True)

    def colour(self, c: tuple[int, int, int] | None) -> int:
        if c is None:
            return -1
        if self.mode == "direct":
            return c[0] << 16 | c[1] << 8 | c[2]
        return xterm256(c) if self.mode == "256" else basic8(c)

    def attr(self, style: Style) -> int:
        a = (curses.A_BOLD if style.bold else 0) | (curses.A_REVERSE if style.reverse else 0)
        if not self.mode or (style.fg is None and style.bg is None):
            return a
        key = (self.colour(style.fg), self.colour(style.bg))
        pair = self.pairs.get(key)
        if pair is None:
            if len(self.pairs) >= curses.COLOR_PAIRS - 1:
                self.pairs.clear()
            pair = self.pairs[key] = len(self.pairs) + 1
            curses.init_pair(pair, key[0], key[1])
        return a | curses.color_pair(pair)

    def show(self, screen: Screen) -> None:
        self.scr.erase()
        h, w = self.scr.getmaxyx()
        for row, (line, spans) in enumerate(zip(screen.lines(), screen.spans(), strict=True)):
            if row >= h:
                break
            self._put(row, 0, line[:w], 0)
            for start, end, style in spans:
                if start < w:
                    self._put(row, start, line[start:min(end, w)], self.attr(style))
        if h < screen.height or w < screen.width:
            self._put(min(h, screen.height) - 1, 0, "enlarge the terminal to 80x24"[:w],
                      curses.A_REVERSE)
        self.scr.refresh()

    def _put(self, row: int, col: int, text: str, attr: int) -> None:
        try:
            self.scr.addstr(row, col, text, attr)
        except curses.error:
            pass  # the bottom-right cell: curses writes it, then cannot move the cursor on

    def key(self, timeout_ms: int) -> Key | None:
        self.scr.timeout(timeout_ms)
        code = self.scr.getch()
        if code == curses.KEY_MOUSE:
            try:
                _, x, y, _, state = curses.getmouse()
            except curses.error:
                return None
            if state & (curses.BUTTON1_PRESSED | curses.BUTTON1_CLICKED):
                return ("click", y, x)
            return None
        return None if code < 0 else normalize(code)


def run_view(client: Client, interactive: bool = True, layout: str | None = None) -> int:
    """The CLI's entry: `play` (interactive) or `watch` on a connected client; exit code."""
    locale.setlocale(locale.LC_ALL, "")
    os.environ.setdefault("ESCDELAY", "25")
    view = LiveView(client, interactive, layout)
    view.unicode = "utf" in locale.getpreferredencoding(False).lower()
    return curses.wrapper(lambda stdscr: loop(view, CursesDisplay(stdscr)))
