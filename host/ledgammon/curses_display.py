"""The terminal view's screen and keyboard: curses painting a Screen, reading keys and clicks.

It paints in 24-bit colour where the terminal has it, else the 256-colour palette, else 8;
key codes become the key names LiveView.key acts on (terminal.py).
"""

from __future__ import annotations

import curses
from typing import Any

from .board_text import Screen, Style

Key = str | tuple[str, int, int]  # a key name ("r", "LEFT", "ENTER"...) or ("click", row, col)

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
