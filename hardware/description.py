"""Reads hardware/board.json and derives what the generated files need (CPython only)."""

import json
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PATH = os.path.join(HERE, "board.json")
POINTS = ["p%d" % k for k in range(1, 25)]


def load(path=PATH):
    with open(path) as f:
        return json.load(f)


def count_of(desc, name):
    leds = desc["leds"]
    return leds["per_point"] if name in POINTS else leds["counts"][name]


def segments(desc):
    """name -> (first index in the chain, count, step), in chain order."""
    out, first = {}, 0
    for name, step in desc["leds"]["chain"]:
        n = count_of(desc, name)
        out[name] = (first, n, step)
        first += n
    return out


def led_count(desc):
    return sum(n for _, n, _ in segments(desc).values())


def pitch(desc):
    return 1000 / desc["leds"]["leds_per_m"]


def logical_positions(desc, name, n):
    """(x, y) of a segment's LEDs in logical order: base to tip, or row-major for a die."""
    g, p = desc["geometry"]["segments"][name], pitch(desc)
    if "at" in g:
        return [tuple(g["at"])] * n
    if "center" in g:
        side = math.isqrt(n)
        cx, cy, mid = g["center"][0], g["center"][1], (side - 1) / 2
        return [(cx + (i % side - mid) * p, cy + (i // side - mid) * p) for i in range(n)]
    (x, y), way = g["base"], g["dir"]
    if way in ("left", "right"):  # the cube's rows run across the board
        dx = -1 if way == "left" else 1
        return [(x + dx * (p / 2 + i * p), y) for i in range(n)]
    dy = -1 if way == "up" else 1
    return [(x, y + dy * (p / 2 + i * p)) for i in range(n)]


def positions(desc):
    """Chain index -> (x, y) in millimetres."""
    out = []
    for name, (_, n, step) in segments(desc).items():
        logical = logical_positions(desc, name, n)
        out.extend(logical if step == 1 else logical[::-1])
    return out


def owners(desc):
    """Chain index -> segment name."""
    return [name for name, (_, n, _) in segments(desc).items() for _ in range(n)]


def pins(target):
    """(gpio, use) for every pin a target uses, in either button layout."""
    out = [(target["led_pin"], "LED data")]
    out += [(g, "matrix row %d" % i) for i, g in enumerate(target["matrix_rows"])]
    out += [(g, "matrix column %d" % i) for i, g in enumerate(target["matrix_cols"])]
    out += [(g, "button " + name) for name, g in target["minimal_pins"].items()]
    return out


def runs(desc):
    """The chain split at the power injection points: lists of segment names."""
    out = []
    for name, _ in desc["leds"]["chain"]:
        if name in desc["leds"]["injection"] or not out:
            out.append([])
        out[-1].append(name)
    return out


def awg_mohm_per_m(awg):
    """Resistance of one copper conductor of an AWG size (mOhm per metre)."""
    d_mm = 0.127 * 92 ** ((36 - awg) / 39)
    return 17.24 / (math.pi * d_mm * d_mm / 4)


def _manhattan_m(a, b):
    return (abs(a[0] - b[0]) + abs(a[1] - b[1])) / 1000


def run_wiring(desc, run):
    """Lengths (m) of one run: feeder from the bus, strip, jumpers; and each LED's rail path.

    Consecutive LEDs one pitch apart share a strip piece; any other step is a jumper wire.
    Returns (feeder_m, strip_m, jumper_m, [one-rail resistance to each LED in mOhm]).
    """
    ele, segs, pos = desc["electrical"], segments(desc), positions(desc)
    r_feed = awg_mohm_per_m(ele["wires"]["feeder"]["awg"])
    r_jump = awg_mohm_per_m(ele["wires"]["jumper"]["awg"])
    r_strip, p = ele["strip_rail_mohm_per_m"], pitch(desc)
    first = segs[run[0]][0]
    last = segs[run[-1]][0] + segs[run[-1]][1]
    feeder = _manhattan_m(desc["geometry"]["bus"], pos[first])
    strip = jumper = 0.0
    path = [feeder * r_feed]
    for i in range(first + 1, last):
        if abs(math.dist(pos[i - 1], pos[i]) - p) < 0.01 * p:
            strip += p / 1000
            path.append(path[-1] + p / 1000 * r_strip)
        else:
            step = _manhattan_m(pos[i - 1], pos[i])
            jumper += step
            path.append(path[-1] + step * r_jump)
    return feeder, strip, jumper, path


def worst_drop_mv(path, budget_ma, led_max_ma):
    """Largest drop (both rails, mV) at a run's far end when the LED budget is spent there.

    The far LED sees sum(I_k * R_k) per rail; it is largest when the farthest LEDs take
    their full current first.
    """
    left, total = budget_ma, 0.0
    for r in reversed(path):
        i = min(left, led_max_ma)
        total += i * r
        left -= i
    return 2 * total / 1000
