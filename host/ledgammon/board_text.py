"""The terminal picture of the lit board, as text and colours only (no terminal needed).

Drawn from the board's own LED frame, so the screen shows what the LEDs show, animations
and flashes included. Two LEDs share a character cell ("▀": the upper one in the
foreground, the lower one in the background), which fits a 15-LED point in 8 rows and
the whole board in 80x24. Player 0 sits at the bottom, as on the board: points 13-24 run
along the top, 12-1 along the bottom. Point labels follow the player on roll, so the
numbers typed and the moves in notation agree. The words on it (status line, help line)
come from wording.py.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from . import match_words
from .boardinfo import RGB, Board, gain, to_screen
from .wording import help_line, status_line

WIDTH, HEIGHT = 80, 24
LEFT, RIGHT, BAR, TRAY, PANEL = 1, 31, 26, 56, 63  # first columns of the board's parts
TOP, MIDDLE, BOTTOM = 1, 9, 12  # first rows of the top points, the middle, bottom points
STATUS = 21
CUBE = 8  # the cube's two LED rows across the middle, under points 11-9 as built
DARK_A, DARK_B, DARK = (44, 36, 28), (28, 36, 46), (40, 40, 40)  # unlit LEDs (dim grey)
SHORT_RESIGN = {1: "single", 2: "gammon", 3: "backgm."}  # a resignation in the panel's width
ASCII = {"█": "#", "◀": "<", "·": "-", "←": "<", "→": ">", "│": "|", "▀": "o", "▄": "o"}


@dataclass(frozen=True)
class Style:
    fg: RGB | None = None
    bg: RGB | None = None
    bold: bool = False
    reverse: bool = False


PLAIN = Style()


class Screen:
    """Characters with a style, and the board button under each cell (for mouse clicks)."""

    def __init__(self, width: int = WIDTH, height: int = HEIGHT) -> None:
        self.width, self.height = width, height
        self.chars = [[" "] * width for _ in range(height)]
        self.styles = [[PLAIN] * width for _ in range(height)]
        self.buttons: list[list[str | None]] = [[None] * width for _ in range(height)]

    def put(self, row: int, col: int, text: str, style: Style = PLAIN) -> None:
        if not 0 <= row < self.height:
            return
        for i, ch in enumerate(text):
            if 0 <= col + i < self.width:
                self.chars[row][col + i] = ch
                self.styles[row][col + i] = style

    def area(self, rows: range, cols: range, button: str) -> None:
        for r in rows:
            for c in cols:
                if 0 <= r < self.height and 0 <= c < self.width:
                    self.buttons[r][c] = button

    def lines(self) -> list[str]:
        return ["".join(row) for row in self.chars]

    def spans(self) -> list[list[tuple[int, int, Style]]]:
        """Per line, the runs [start, end) of one style other than plain."""
        out = []
        for row in self.styles:
            runs, start = [], 0
            for c in range(1, self.width + 1):
                if c == self.width or row[c] != row[start]:
                    if row[start] != PLAIN:
                        runs.append((start, c, row[start]))
                    start = c
            out.append(runs)
        return out

    def button_at(self, row: int, col: int) -> str | None:
        if 0 <= row < self.height and 0 <= col < self.width:
            return self.buttons[row][col]
        return None


def point_slot(k: int) -> tuple[int, bool]:
    """(first column, is top) of absolute point `k`'s 4-column slot."""
    if k >= 13:
        return (LEFT + 4 * (k - 13), True) if k <= 18 else (RIGHT + 4 * (k - 19), True)
    return (LEFT + 4 * (12 - k), False) if k >= 7 else (RIGHT + 4 * (6 - k), False)


def label(k: int, turn: int) -> int:
    """The number of absolute point `k` for the player on roll (player 1 counts from 24)."""
    return k if turn == 0 else 25 - k


def absolute(n: int, turn: int) -> int:
    return n if turn == 0 else 25 - n


def _cells(scr: Screen, row: int, col: int, halves: list[RGB | None], uni: bool) -> None:
    """A column of LEDs two per cell from `row` down; None is no LED (plain background)."""
    for r in range(0, len(halves), 2):
        up, lo = halves[r], halves[r + 1] if r + 1 < len(halves) else None
        if up is None and lo is None:
            continue
        if not uni:
            lit = [c for c in (up, lo) if c is not None and c not in (DARK, DARK_A, DARK_B)]
            fg = lit[0] if lit else up or lo
            scr.put(row + r // 2, col, "oo" if lit else "..", Style(fg=fg))
        elif up is None:
            scr.put(row + r // 2, col, "▄▄", Style(fg=lo))
        else:
            scr.put(row + r // 2, col, "▀▀", Style(fg=up, bg=lo))


def _column(scr: Screen, col: int, top: bool, leds: list[RGB | None], uni: bool) -> None:
    halves: list[RGB | None] = [None] * 16
    for i, c in enumerate(leds[:16]):
        halves[i if top else 15 - i] = c
    _cells(scr, TOP if top else BOTTOM, col, halves, uni)


def player_colours(leds: Mapping[str, list[RGB]], state: Mapping[str, Any] | None) -> list[RGB]:
    """Each player's checker colour as the frame shows it: the commonest colour at the
    base of the points (and trays) where the state says that player has checkers."""
    out: list[RGB] = [(0, 0, 0), (0, 0, 0)]
    board = (state or {}).get("board") or {}
    for p in range(2):
        seen: Counter[RGB] = Counter()
        for k, n in enumerate(board.get("p%d" % p) or (), start=1):
            seg = leds.get("p%d" % k)
            if n and seg and max(seg[0]):
                seen[seg[0]] += 1
        off = board.get("off") or (0, 0)
        seg = leds.get("off%d" % p)
        if len(off) > p and off[p] and seg and max(seg[0]):
            seen[seg[0]] += 1
        if seen:
            out[p] = seen.most_common(1)[0][0]
    return out


def _panel(scr: Screen, state: Mapping[str, Any], colours: list[RGB], shown: list[RGB]) -> None:
    turn = int(state.get("turn") or 0)
    pips = state.get("pips") or (0, 0)
    off = (state.get("board") or {}).get("off") or (0, 0)
    for row, p in ((2, 1), (5, 0)):
        on_roll = p == turn and state.get("phase") in ("roll", "move", "done")
        scr.put(row, PANEL, "██", Style(fg=shown[p]))
        scr.put(row, PANEL + 3, "Player %d" % p + (" ◀" if on_roll else ""), Style(bold=on_roll))
        scr.put(row + 1, PANEL + 3, "pips %d off %d" % (pips[p], off[p]))
    dice = state.get("dice")
    if dice and state.get("phase") in ("move", "done"):
        scr.put(8, PANEL, "dice %d-%d" % (dice[0], dice[1]))
    steps = " ".join(state.get("steps") or ())
    for i in range(0, min(len(steps), 17 * 3), 17):
        scr.put(9 + i // 17, PANEL, steps[i : i + 17])
    ml = int(state.get("match_length") or 0)
    score = state.get("score") or (0, 0)
    game = "game %s" % state.get("game", 1)
    scr.put(13, PANEL, game + (" · %d pt %d-%d" % (ml, score[0], score[1]) if ml else " · money"))
    if state.get("match_over"):
        scr.put(14, PANEL, "match over", Style(bold=True))
    elif state.get("crawford"):
        scr.put(14, PANEL, "next: Crawford" if state.get("phase") == "over" else "Crawford game")
    scr.put(15, PANEL, "numbers: player")
    scr.put(16, PANEL, "%d's points" % turn)
    _cube(scr, state)


def _cube(scr: Screen, state: Mapping[str, Any]) -> None:
    """The cube (value, owner) and the offer waiting for its answer, under the numbers."""
    if not match_words.cube_play(state) or state.get("cube_on") is False:
        return
    owner = match_words.cube_owner(state)
    where = "middle" if owner < 0 else "player %d" % owner
    scr.put(18, PANEL, "cube %d · %s" % (match_words.cube_value(state), where))
    offer = state.get("offer")
    if isinstance(offer, Mapping) and offer.get("by") in (0, 1):
        value = int(offer.get("value") or 0)
        if offer.get("kind") == "double":
            text = "P%d doubles to %d" % (offer["by"], value)
        else:
            text = "P%d resigns %s" % (offer["by"], SHORT_RESIGN.get(value, "?"))
        scr.put(19, PANEL, text, Style(reverse=True, bold=True))
        scr.put(20, PANEL, "P%d to answer" % (1 - int(offer["by"])), Style(bold=True))


def draw(
    frame: bytes | bytearray,
    state: Mapping[str, Any] | None,
    board: Board,
    interactive: bool = True,
    layout: str = "full",
    message: str = "",
    typed: str = "",
    selected: bool = False,
    unicode: bool = True,
) -> Screen:
    """The whole 80x24 screen for one frame and state."""
    scr = Screen()
    k = gain(frame, board.brightness_levels)
    raw = board.decode(frame)

    def look(c: RGB, dark: RGB) -> RGB:
        return to_screen(c, k) if max(c) else dark

    turn = int((state or {}).get("turn") or 0)
    for kk in range(1, 25):
        col, top = point_slot(kk)
        dark = DARK_A if kk % 2 else DARK_B
        _column(scr, col + 1, top, [look(c, dark) for c in raw.get("p%d" % kk, [])], unicode)
        rows = range(0, MIDDLE) if top else range(BOTTOM, STATUS)
        scr.area(rows, range(col, col + 4), "p%d" % kk)
        n = label(kk, turn)
        hot = typed.isdigit() and int(typed) == n
        scr.put(0 if top else STATUS - 1, col + 1, "%2d" % n, Style(reverse=hot, bold=hot))
    for name, col, top in (("bar1", BAR + 1, True), ("bar0", BAR + 1, False),
                           ("off1", TRAY + 2, True), ("off0", TRAY + 2, False)):
        _column(scr, col, top, [look(c, DARK) for c in raw.get(name, [])], unicode)
    scr.area(range(0, STATUS), range(BAR, BAR + 4), "BAR")
    scr.area(range(0, STATUS), range(TRAY, TRAY + 5), "OFF")
    scr.area(range(MIDDLE, BOTTOM), range(RIGHT, RIGHT + 24), "ROLL")
    for row in (0, STATUS - 1):
        scr.put(row, BAR + 1, "bar")
        scr.put(row, TRAY + 2, "off")
    for name, col in (("die0", 38), ("die1", 46)):  # under points 21/4 and 23/2, as built
        die = [look(c, DARK) for c in raw.get(name, [])]
        if len(die) == 9:
            for x in range(3):
                _cells(scr, MIDDLE, col + 2 * x, [None] + [die[3 * y + x] for y in range(3)],
                       unicode)
    cube = [[look(c, DARK) for c in raw.get(name, [])] for name in ("cube1", "cube0")]
    for i in range(max(len(cube[0]), len(cube[1]))):  # player 1's row above player 0's
        up, lo = (r[i] if i < len(r) else None for r in cube)
        _cells(scr, MIDDLE + 1, CUBE + 2 * i, [up, lo], unicode)
    for name, h in (("turn1", 1), ("turn0", 4)):
        lit = [look(c, DARK) for c in raw.get(name, [])]
        if lit:
            halves: list[RGB | None] = [None] * 6
            halves[h] = lit[0]
            _cells(scr, MIDDLE, TRAY + 2, halves, unicode)
    for r in range(0, STATUS):
        for c in (0, 25, 30, 55, 61):
            scr.put(r, c, "│" if unicode else "|")
    colours = player_colours(raw, state)
    scr.put(0, PANEL, "ledgammon" + ("" if interactive else " (watch)"), Style(bold=True))
    if state:
        _panel(scr, state, colours, [look(c, DARK) for c in colours])
    scr.put(STATUS, 0, status_line(state, colours, selected, layout)[:WIDTH], Style(bold=True))
    if typed:
        message = "point %s_  (Enter presses it, Esc cancels)" % typed
    scr.put(STATUS + 1, 0, message[:WIDTH])
    scr.put(STATUS + 2, 0, help_line(interactive, layout, state)[:WIDTH], Style(reverse=True))
    if not unicode:
        for cells in scr.chars:
            cells[:] = [ASCII.get(ch, ch) if ch > "~" else ch for ch in cells]
    return scr
