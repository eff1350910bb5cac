"""`ledgammon snapshot board.png`: a picture of the board as it is lit, from its LED frame.

Every LED is drawn where hardware/board.json puts it (millimetres, seen from player 0),
in the colour the frame gives it, with a soft glow; dark LEDs are dim grey dots, so the
strips' layout stays visible. The README's picture is made by `demo()`: the firmware's own
controller and renderer, run in-process, in the middle of a game.
"""

from __future__ import annotations

import importlib
import os
import random
import sys
import tempfile
from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont

from . import boardinfo, export, match_words, resources
from .board_text import player_colours
from .boardinfo import RGB, Board
from .wording import status_line

S = 1.6  # pixels per millimetre
MARGIN = 24
CAPTION = 70
BACK, WOOD, FELT, TRAY = (22, 22, 26), (96, 64, 40), (24, 66, 48), (18, 50, 37)
TRIANGLES = ((222, 200, 160, 70), (150, 50, 36, 90))
DARK_LED, DARK_RIM, TEXT = (46, 46, 46), (84, 84, 84), (235, 225, 205)
CUBE, CUBE_INK, OFFER = (238, 232, 214), (30, 30, 30), (255, 200, 40)
LINE = 32  # caption pixels per line


def _px(x: float, y: float) -> tuple[float, float]:
    return (MARGIN + x * S, MARGIN + y * S)


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    try:
        return ImageFont.load_default(size=size)
    except (OSError, TypeError):  # Pillow without FreeType: the small bitmap font
        return ImageFont.load_default()


def _board_shapes(img: Image.Image, board: Board) -> None:
    g = board.geometry
    bw, bh = g.get("board", (660, 620))
    top, bottom = g.get("edges", (20, 600))
    d = ImageDraw.Draw(img, "RGBA")
    d.rounded_rectangle([_px(0, 0), _px(bw, bh)], radius=int(10 * S), fill=WOOD)
    for x0, x1 in g.get("playing_field", ()):
        d.rectangle([_px(x0, top), _px(x1, bottom)], fill=FELT)
    tray = g.get("tray")
    if tray:
        d.rectangle([_px(tray[0] + 8, top), _px(tray[1] - 8, bottom)], fill=TRAY)
    half = g.get("point_width", 40) / 2
    length = board.leds_per_point * board.pitch
    segs = g.get("segments", {})
    font = _font(int(7.5 * S))
    for k in range(1, 25):
        seg = segs.get("p%d" % k)
        if not seg:
            continue
        (x, y), sign = seg["base"], -1 if seg["dir"] == "up" else 1
        tri = [_px(x - half, y), _px(x + half, y), _px(x, y + sign * length)]
        d.polygon(tri, fill=TRIANGLES[k % 2])
        ty = y - sign * 10 if 0 < y - sign * 10 < bh else y
        d.text(_px(x, ty), str(k), fill=TEXT, font=font, anchor="mm")
    for name, word in (("bar0", "bar"), ("bar1", "bar"), ("off0", "off"), ("off1", "off")):
        seg = segs.get(name)
        if seg:
            (x, y), sign = seg["base"], -1 if seg["dir"] == "up" else 1
            d.text(_px(x, y - sign * 10), word, fill=TEXT, font=font, anchor="mm")


def render(frame: bytes | bytearray, board: Board | str,
           state: Mapping[str, Any] | None = None) -> Image.Image:
    """The picture as a Pillow image (RGB); `state` adds a caption line."""
    if isinstance(board, str):
        board = boardinfo.load(board)
    bw, bh = board.geometry.get("board", (660, 620))
    extra = CAPTION + LINE * max(0, len(caption({}, state)) - 2) if state else 0
    size = (int(bw * S + 2 * MARGIN), int(bh * S + 2 * MARGIN + extra))
    img = Image.new("RGB", size, BACK)
    _board_shapes(img, board)
    glow = Image.new("RGB", size, (0, 0, 0))
    gd = ImageDraw.Draw(glow)
    k = boardinfo.gain(frame, board.brightness_levels)
    r = 0.36 * board.pitch * S
    leds = board.decode(frame)
    dots = []
    for name, places in board.positions().items():
        for c, (x, y) in zip(leds.get(name, ()), places, strict=True):
            cx, cy = _px(x, y)
            shown = boardinfo.to_screen(c, k) if max(c) else None
            if shown:
                gd.ellipse([cx - 2.2 * r, cy - 2.2 * r, cx + 2.2 * r, cy + 2.2 * r], fill=shown)
            dots.append(((cx, cy), shown))
    glow = glow.filter(ImageFilter.GaussianBlur(radius=1.3 * r))
    img = ImageChops.add(img, ImageChops.multiply(glow, Image.new("RGB", size, (150,) * 3)))
    d = ImageDraw.Draw(img)
    for (cx, cy), shown in dots:  # over the glow, so each LED's centre has its own colour
        box = [cx - r, cy - r, cx + r, cy + r]
        if shown:
            d.ellipse(box, fill=shown, outline=_lighter(shown), width=max(1, int(S)))
        else:
            d.ellipse(box, fill=DARK_LED, outline=DARK_RIM, width=max(1, int(S)))
    if state:
        _cube(img, board, state)
        _caption(img, leds, state, int(bh * S + 2 * MARGIN))
    return img


def cube_places(board: Board) -> dict[str, tuple[float, float]]:
    """Where the cube is drawn (millimetres): "middle", and "0"/"1" on each player's side,
    in the free band across the board's middle beside the cube's LED rows; "offer0" and
    "offer1" where an offer waits for that player's answer, in the bar's middle."""
    g = board.geometry
    segs = g.get("segments", {})
    top, bottom = g.get("edges", (20, 600))
    mid = (top + bottom) / 2
    rows = [segs.get("cube1", {}).get("base"), segs.get("cube0", {}).get("base")]
    ys = [r[1] if r else mid + (20 if p else -20) for p, r in enumerate(rows)]
    field = (g.get("playing_field") or [[20, 260]])[0]
    bar = g.get("bar", (field[1], field[1] + 60))
    x = field[1] - 0.09 * (field[1] - field[0])  # just left of the bar
    bx = (bar[0] + bar[1]) / 2
    return {"middle": (x, mid), "1": (x, ys[0]), "0": (x, ys[1]),
            "offer1": (bx, ys[0]), "offer0": (bx, ys[1])}


def _box(d: ImageDraw.ImageDraw, at: tuple[float, float], text: str, fill: RGB,
         ring: RGB | None, size: float = 24) -> None:
    cx, cy = _px(*at)
    h = size * S / 2
    d.rounded_rectangle([cx - h, cy - h, cx + h, cy + h], radius=int(3 * S), fill=fill,
                        outline=ring or CUBE_INK, width=int(S * (2 if ring else 1)))
    d.text((cx, cy), text, fill=CUBE_INK, font=_font(int(size * S * (0.6 if len(text) < 3
                                                                     else 0.4))), anchor="mm")


def _cube(img: Image.Image, board: Board, state: Mapping[str, Any]) -> None:
    """The cube where it stands with its value (64 while centred at 1, as on a real board),
    and an offer waiting on the side of the player who must answer: the cube offered, or
    a flag with the resignation's 1, 2 or 3, ringed in yellow."""
    if not match_words.cube_play(state) or state.get("cube_on") is False:
        return
    places = cube_places(board)
    d = ImageDraw.Draw(img)
    value, owner = match_words.cube_value(state), match_words.cube_owner(state)
    shown = "64" if value == 1 and owner < 0 else str(value)
    _box(d, places["middle" if owner < 0 else str(owner)], shown, CUBE, None)
    offer = state.get("offer")
    if isinstance(offer, Mapping) and offer.get("by") in (0, 1):
        to = 1 - int(offer["by"])
        n = int(offer.get("value") or 0)
        text = str(n) if offer.get("kind") == "double" else "R%d" % n
        _box(d, places["offer%d" % to], text, CUBE if text[0] != "R" else (250, 250, 250),
             OFFER, 28)


def _lighter(c: RGB) -> RGB:
    return (min(255, c[0] + 60), min(255, c[1] + 60), min(255, c[2] + 60))


def caption(leds: Mapping[str, list[RGB]], state: Mapping[str, Any]) -> list[str]:
    """The caption's lines: the terminal's status line (wording.py: whose turn, what to do
    or what is asked and of whom, what the board is doing, dice, pips); with the cube in
    play, the cube and the score; then the Position ID and the Match ID."""
    lines = [status_line(state, player_colours(leds, state))]
    match = [w for w in (match_words.cube_words(state), match_words.score_words(state)) if w]
    if match:
        lines.append(" · ".join(match))
    pid, mid = state.get("position_id"), state.get("match_id")
    try:  # the position the Match ID goes with (after a complete play: turned round)
        pid = export.position_id(state)
    except (ValueError, KeyError):
        pass
    if pid:
        lines.append("Position ID %s" % pid + (" · Match ID %s" % mid if mid else ""))
    return lines


def _caption(img: Image.Image, leds: dict[str, list[RGB]], state: Mapping[str, Any],
             y: int) -> None:
    d = ImageDraw.Draw(img)
    for i, line in enumerate(caption(leds, state)):
        d.text((MARGIN, y + LINE * i), line, fill=(TEXT, (170, 170, 170))[min(i, 1)],
               font=_font(22 if i == 0 else 18))


def save_png(frame: bytes | bytearray, board: Board | str, path: str,
             state: Mapping[str, Any] | None = None) -> None:
    """Writes the picture of `frame` on `board` (a Board or a board name) to `path`."""
    render(frame, board, state).save(path, "PNG", optimize=True)


def demo(seed: int = 11, turns: int = 14, board_name: str = "pico"
         ) -> tuple[bytes, dict[str, Any]]:
    """A real mid-game frame and state: the firmware's controller and renderer, in-process,
    play `turns` random turns, then the next player rolls and picks up a checker. The firmware
    is the package's own copy (resources.py); its top-level packages (hw, control...) go on
    sys.path, so this is for the README's picture and tests, not for the CLI."""
    fw = resources.firmware()
    if fw not in sys.path:
        sys.path.insert(0, fw)
    mod: Any = importlib.import_module("hw.boards." + board_name)
    fw_mods: dict[str, Any] = {
        name: importlib.import_module(name)
        for name in (
            "control.boot", "gammon.dice", "hw.output", "display.renderer", "hw.storage"
        )
    }
    boot = fw_mods["control.boot"].boot
    dice = fw_mods["gammon.dice"]
    strip = fw_mods["hw.output"].FakeStrip(mod.LED_COUNT, mod.LED_ORDER)
    renderer = fw_mods["display.renderer"].Renderer(mod, strip, 0)
    rnd = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        ctl = boot(fw_mods["hw.storage"].Store(tmp + os.sep), dice.Dice(dice.SeededBytes(seed)),
                   "full", None, 0, mod.BRIGHTNESS_LEVELS)
        t = 0
        while turns > 0 or ctl.state(False)["phase"] != "move":
            t += 1000
            ctl.tick(t)
            st = ctl.state()
            if st["phase"] in ("opening", "roll", "done"):
                turns -= 1
                ctl.roll(t)
            elif st["phase"] == "move" and turns > 0:
                ctl.move(rnd.choice(st["plays"]), t)
            elif st["phase"] == "over":
                ctl.new_game(t)
        st = ctl.state()
        first = st["plays"][0].split()[0].split("/")[0]
        own = 25 if first == "bar" else int(first)
        ctl.press("BAR" if own == 25 else "p%d" % (own if st["turn"] == 0 else 25 - own), t)
        t = (t >> 10 << 10) + 1536  # destinations blinking on, the selection at its peak
        ctl.tick(t)
        renderer.render(ctl.view, t)
        st = ctl.state()
        st.setdefault("selected", own)
        return bytes(strip.buf), st


if __name__ == "__main__":  # python -m ledgammon.picture docs/board.png
    frame, state = demo()
    save_png(frame, "pico", sys.argv[1] if len(sys.argv) > 1 else "board.png", state)
