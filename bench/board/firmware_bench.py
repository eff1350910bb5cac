# The board's runtime figures, measured through app.App on fakes; runs under MicroPython.
#   python -m bench.mp --heap 8M [--path DIR] --also tests/firmware board.firmware_bench [GAMES]
# --path puts DIR first on the path (bench/mp.py; e.g. the firmware precompiled with mpy-cross).
#
# Plays GAMES complete games (full layout) three times over by pressing keys of a fake diode
# matrix (each press's fastest run is its time without the host's noise); for every
# press measures the time from the scan that sees the key to the new frame in the strip's
# buffer (inputs.poll -> debounce -> controller.press, then app.frame: controller.tick and
# renderer.render); the strip's write() is a no-op here (on the board neopixel's write adds
# about 30 us per LED). Also: the heap (gc.collect() before each step; the heap in use right
# after it, before any collection, bounds the step's peak), and renderer.render alone on
# frames 20 ms apart (animations running). Prints human lines, then one JSON line.
import gc
import json
import sys

import fakes  # tests/firmware
from app import App
from control.boot import boot
from display.renderer import Renderer
from display.view import button_of_target
from gammon.dice import Dice, SeededBytes
from hw.boards import pico
from hw.inputs import MatrixKeys
from hw.storage import Store
from hw.ticks import ticks_diff, ticks_us
from model.game import MOVE, OVER
from scenes import NullStrip  # tests/firmware


def mem_alloc():
    return gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0


class Matrix:
    """Fake row/column pins of a diode matrix with one key held (or none)."""

    def __init__(self, board):
        self.rows_low = bytearray(len(board.MATRIX_ROWS))
        self.key = (-1, -1)
        self.rows = [self._row(r) for r in range(len(board.MATRIX_ROWS))]
        self.cols = [self._col(c) for c in range(len(board.MATRIX_COLS))]
        self.where = {}
        for r, line in enumerate(board.KEYMAP):
            for c, name in enumerate(line):
                if name:
                    self.where[name] = (r, c)

    def _row(self, r):
        def drive(v):
            self.rows_low[r] = 0 if v else 1

        return drive

    def _col(self, c):
        def read():
            r, cc = self.key
            return 0 if cc == c and self.rows_low[r] else 1

        return read


class Stats:
    def __init__(self):
        self.n = 0
        self.total = 0
        self.max = 0

    def add(self, us):
        self.n += 1
        self.total += us
        if us > self.max:
            self.max = us

    def mean(self):
        return self.total // self.n if self.n else 0


def _stats_triple():
    return (Stats(), Stats(), Stats())


def _choose(ctl, x):
    """The next button of a scripted player: a movable checker, then one of its destinations."""
    v = ctl.view
    if ctl.game.phase != MOVE:
        return "ROLL"
    mask = v.dests if v.selected >= 0 else v.movable
    targets = [i for i in range(26) if mask >> i & 1]
    return button_of_target(targets[x % len(targets)])


save_stats = Stats()  # the save after each press (app.frame writes it after the frame)
REPEATS = 3  # the same games again: each press's fastest run is its time without host noise


def play(seed, press_stats, render_stats, heap, fastest, first):
    """One game; `fastest` keeps each press's fastest time over the repeats, from `first`."""
    root = fakes.tmpdir()
    clock = [10000]
    matrix = Matrix(pico)
    keys = MatrixKeys(matrix.rows, matrix.cols, pico.KEYMAP, pico.MATRIX_ACTIVE_LOW)
    strip = NullStrip(pico.LED_COUNT)
    ctl = boot(Store(root), Dice(SeededBytes(seed)), "full", None, clock[0])
    renderer = Renderer(pico, strip, clock[0])
    app = App(pico, "full", ctl, renderer, keys, clock=lambda: clock[0])
    rnd = SeededBytes(seed * 31 + 7)
    steps = 0
    now = clock[0]
    app.frame(now)
    try:
        while ctl.game.phase != OVER:
            steps += 1
            if steps > 3000:
                raise RuntimeError("the game did not end")
            name = _choose(ctl, rnd(1)[0])
            matrix.key = (-1, -1)
            now += 40
            app.inputs.poll(now)  # released and debounced
            now += 40
            app.inputs.poll(now)
            for _ in range(3):  # animations between presses
                now += 20
                t0 = ticks_us()
                renderer.render(ctl.view, now)
                render_stats.add(ticks_diff(ticks_us(), t0))
            matrix.key = matrix.where[name]
            now += 5
            changed = ctl.view.changed
            gc.collect()
            before = mem_alloc()
            t0 = ticks_us()
            app.inputs.poll(now)  # the scan that sees the key: press -> controller
            ctl.tick(now)  # app.frame's work up to the frame in strip.buf ...
            renderer.render(ctl.view, now)
            us = ticks_diff(ticks_us(), t0)
            t1 = ticks_us()
            ctl.flush()  # ... then the save that app.frame does after the frame
            save_stats.add(ticks_diff(ticks_us(), t1))
            after = mem_alloc()
            press_stats[0].add(us)
            press_stats[1 if name == "ROLL" else 2].add(us)
            if fastest is not None:  # the repeats: times only (the list is not the game's heap)
                i = first + steps - 1
                if i < len(fastest):
                    fastest[i] = min(fastest[i], us)
                else:
                    fastest.append(us)
                continue
            heap[0] = max(heap[0], after)
            heap[1] = max(heap[1], after - before)
            if ctl.view.changed == changed and name != "ROLL":
                raise RuntimeError("press %s changed nothing" % name)
    finally:
        fakes.rmtree(root)
    return steps, strip.writes


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    gc.collect()
    base = mem_alloc()
    press_stats = (Stats(), Stats(), Stats())  # all, ROLL, point buttons

    render_stats = Stats()
    heap = [0, 0]  # most in use at once, most allocated by one step
    steps = 0
    for g in range(games):
        n, _ = play(g + 1, press_stats, render_stats, heap, None, 0)
        steps += n
    gc.collect()
    after = mem_alloc()
    fastest = []
    for _ in range(REPEATS):
        first = 0
        for g in range(games):
            n, _ = play(g + 1, _stats_triple(), Stats(), [0, 0], fastest, first)
            first += n
    impl = sys.implementation.name
    print("%s, %d games, %d presses (full layout, %d LEDs)" % (impl, games, steps, pico.LED_COUNT))
    print(
        "button -> frame in buffer: mean %d us, max %d us (+ up to 5 ms poll and 20 ms frame"
        " wait, + ~%d ms neopixel write on the board)"
        % (press_stats[0].mean(), press_stats[0].max, pico.LED_COUNT * 30 // 1000)
    )
    print(
        "  of which ROLL: mean %d us, max %d us; point buttons: mean %d us, max %d us"
        % (press_stats[1].mean(), press_stats[1].max, press_stats[2].mean(), press_stats[2].max)
    )
    slow = [us for us in fastest if us > 500]
    print(
        "  each press at its fastest of %d runs of the same games (the host's noise removed):"
        " mean %d us, max %d us; presses over 500 us: %d of %d"
        % (REPEATS, sum(fastest) // len(fastest), max(fastest), len(slow), len(fastest))
    )
    print(
        "save after the frame: mean %d us, max %d us" % (save_stats.mean(), save_stats.max)
    )
    print(
        "render one frame: mean %d us, max %d us over %d frames"
        % (render_stats.mean(), render_stats.max, render_stats.n)
    )
    if not hasattr(gc, "mem_alloc"):
        print("heap: not measured (gc.mem_alloc is MicroPython's)")
    print(
        "heap: %d bytes in use after imports; peak in use during the games %d bytes; most "
        "allocated by one press %d bytes; kept after the games %d bytes"
        % (base, heap[0], heap[1], after - base)
    )
    if impl == "micropython":
        import micropython

        micropython.mem_info()
    print(
        json.dumps(
            {
                "impl": impl,
                "games": games,
                "presses": steps,
                "press_to_frame_us": {"mean": press_stats[0].mean(), "max": press_stats[0].max},
                "press_fastest_us": {"mean": sum(fastest) // len(fastest), "max": max(fastest)},
                "roll_us": {"mean": press_stats[1].mean(), "max": press_stats[1].max},
                "point_us": {"mean": press_stats[2].mean(), "max": press_stats[2].max},
                "render_us": {
                    "mean": render_stats.mean(),
                    "max": render_stats.max,
                    "frames": render_stats.n,
                },
                "heap": {
                    "after_imports": base,
                    "peak": heap[0],
                    "step_max": heap[1],
                    "kept": after - base,
                },
            }
        )
    )


main()
