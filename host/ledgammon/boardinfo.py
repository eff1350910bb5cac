"""The board's LED layout on the host: which frame bytes are which LED, and where each sits.

The firmware's generated board modules (firmware/hw/boards/NAME.py) say how the chain is cut
into segments; hardware/board.json says where each segment lies on the board. The host
views draw from the board's own frame, so they read both instead of keeping a copy: from
the package's own copy when installed (resources.py). A board module is read as data (its
literal assignments), never run, so the host needs none of the firmware's imports.
"""

from __future__ import annotations

import ast
import json
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from . import resources

RGB = tuple[int, int, int]
POINTS = tuple("p%d" % k for k in range(1, 25))


@dataclass(frozen=True)
class Segment:
    """A run of LEDs in the chain: `step` 1 when the index grows from the base to the tip."""

    name: str
    start: int
    count: int
    step: int

    def index(self, i: int) -> int:
        """Chain index of the segment's LED `i`, counted from its base (row-major for dice)."""
        if not 0 <= i < self.count:
            raise IndexError("%s has %d LEDs, not %d" % (self.name, self.count, i))
        return self.start + i if self.step > 0 else self.start + self.count - 1 - i


@dataclass
class Board:
    """One board module (pins aside) and, when found, the physical geometry in mm."""

    name: str
    led_count: int
    order: str
    leds_per_point: int
    segments: dict[str, Segment]
    chain: tuple[str, ...]
    brightness_levels: tuple[int, ...] = (255,)
    geometry: dict[str, Any] = field(default_factory=dict)
    pitch: float = 1000 / 60

    def rgb(self, frame: bytes | bytearray, index: int) -> RGB:
        """(r, g, b) of chain LED `index`; LEDs past the frame's end are dark."""
        o = index * 3
        if o + 3 > len(frame):
            return (0, 0, 0)
        px = frame[o : o + 3]
        order = self.order
        return (px[order.index("R")], px[order.index("G")], px[order.index("B")])

    def decode(self, frame: bytes | bytearray) -> dict[str, list[RGB]]:
        """Each segment's colours, base first (dice row-major from player 0's top left)."""
        return {
            name: [self.rgb(frame, seg.index(i)) for i in range(seg.count)]
            for name, seg in self.segments.items()
        }

    def positions(self) -> dict[str, list[tuple[float, float]]]:
        """Each segment's LED centres in mm (same order as `decode`), from board.json."""
        out: dict[str, list[tuple[float, float]]] = {}
        segs = self.geometry.get("segments", {})
        p = self.pitch
        for name, seg in self.segments.items():
            g = segs.get(name)
            if g is None:
                continue
            n = seg.count
            if "at" in g:
                out[name] = [(float(g["at"][0]), float(g["at"][1]))] * n
            elif "center" in g:
                side = math.isqrt(n)
                cx, cy, mid = g["center"][0], g["center"][1], (side - 1) / 2
                out[name] = [
                    (cx + (i % side - mid) * p, cy + (i // side - mid) * p) for i in range(n)
                ]
            else:  # a line from its base: up, down, or across (the cube's rows)
                (x, y), way = g["base"], g["dir"]
                dx = {"left": -1, "right": 1}.get(way, 0)
                dy = 0 if dx else (-1 if way == "up" else 1)
                at = [p / 2 + i * p for i in range(n)]
                out[name] = [(x + dx * a, y + dy * a) for a in at]
        return out


def _geometry(path: str) -> tuple[dict[str, Any], float]:
    try:
        with open(path) as f:
            desc = json.load(f)
    except OSError:
        return {}, 1000 / 60
    return desc.get("geometry", {}), 1000 / desc.get("leds", {}).get("leds_per_m", 60)


def from_module(ns: dict[str, Any], geometry: dict[str, Any] | None = None,
                pitch: float = 1000 / 60) -> Board:
    """A Board from a board module's globals (SEGMENTS, CHAIN, LED_COUNT, ...)."""
    segs = {
        name: Segment(name, int(v[0]), int(v[1]), int(v[2]))
        for name, v in ns["SEGMENTS"].items()
    }
    chain: Sequence[str] = ns.get("CHAIN") or sorted(segs, key=lambda s: segs[s].start)
    return Board(
        name=str(ns.get("NAME", "board")),
        led_count=int(ns["LED_COUNT"]),
        order=str(ns.get("LED_ORDER", "GRB")),
        leds_per_point=int(ns.get("LEDS_PER_POINT", segs["p1"].count)),
        segments=segs,
        chain=tuple(chain),
        brightness_levels=tuple(ns.get("BRIGHTNESS_LEVELS", (255,))),
        geometry=geometry or {},
        pitch=pitch,
    )


def _is_sibling_star(node: ast.ImportFrom) -> bool:
    """`from hw.boards.NAME import *`: a board module taking another of its package whole."""
    mod = node.module or ""
    return mod.startswith("hw.boards.") and mod.count(".") == 2 and node.names[0].name == "*"


def read_module(path: str) -> dict[str, Any]:
    """A board module's constants (`NAME = literal` lines), without running it."""
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    ns: dict[str, Any] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and _is_sibling_star(node):
            # `from hw.boards.common import *`: what every board shares, read the same way
            name = (node.module or "").rsplit(".", 1)[1]
            ns.update(read_module(os.path.join(os.path.dirname(path), name + ".py")))
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name):
                try:
                    ns[target.id] = ast.literal_eval(node.value)
                except ValueError:
                    continue  # not a constant: nothing the host reads
    return ns


def load(name: str = "pico") -> Board:
    """The board module `name` of the firmware's hw/boards (what `hello` names), with the
    geometry of hardware/board.json."""
    path = resources.board_module(name)
    try:
        ns = read_module(path)
    except OSError:
        raise ValueError("no board module %r (looked for %s)" % (name, path)) from None
    except SyntaxError as exc:
        raise ValueError("board module %s cannot be read: %s" % (path, exc)) from None
    if "SEGMENTS" not in ns or "LED_COUNT" not in ns:
        raise ValueError("board module %s has no SEGMENTS or LED_COUNT" % path)
    geometry, pitch = _geometry(resources.board_json())
    return from_module(ns, geometry, pitch)


def gain(frame: bytes | bytearray, levels: Sequence[int] = (32,)) -> float:
    """How much to brighten a dimmed frame for a screen: its brightest channel to full,
    but never more than the dimmest brightness setting implies, so a frame of faint
    glows stays faint."""
    top = max(frame) if frame else 0
    if not top:
        return 1.0
    return min(255 / top, 255 / max(1, min(levels)))


def to_screen(c: RGB, k: float = 1.0) -> RGB:
    """An LED's colour as a screen should show it: brightened by `k` (see `gain`), then its
    level through the eye's response (gamma 1/2.2; LEDs are linear, screens are not), with
    the channel ratios, so the hue, kept."""
    top = max(c)
    if not top:
        return (0, 0, 0)
    level = min(255.0, top * k)
    want = 255 * (level / 255) ** (1 / 2.2)
    f = want / top
    return (min(255, round(c[0] * f)), min(255, round(c[1] * f)), min(255, round(c[2] * f)))


def colour_name(c: RGB) -> str:
    """A plain word for an LED colour, for a status line ("red", "orange", "blue"...)."""
    r, g, b = c
    hi, lo = max(c), min(c)
    if hi < 16:
        return "dark"
    if hi - lo < 0.25 * hi:
        return "white"
    d = hi - lo
    if hi == r:
        hue = (60 * (g - b) / d) % 360
    elif hi == g:
        hue = 60 * (b - r) / d + 120
    else:
        hue = 60 * (r - g) / d + 240
    for limit, word in (
        (12, "red"), (45, "orange"), (70, "yellow"), (160, "green"), (200, "cyan"),
        (255, "blue"), (290, "purple"), (340, "magenta"), (361, "red"),
    ):
        if hue < limit:
            return word
    return "red"
