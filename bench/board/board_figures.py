# board_bench's gc and figures modes (bench/board/board_bench.py says what they measure): each
# step's time and allocation, and the strip's writes a second. A module of its own, run as
# its own (`micropython -m board_figures gc|figures [GAMES] [noidle]`), so that the heap
# mode's smallest heap holds the firmware and the game's script, not this code.
import gc
import json
import sys
from array import array

from board_bench import FAST_PACE, FRAME_MS, MATCH, Rig, _call, mem_alloc, play_game
from hw.storage import Store
from hw.ticks import ticks_diff, ticks_us
from model.game import MOVE, OVER

REPEATS = 5  # timed runs of a game: each step's fastest (a shared machine's load is noise)
GC_DROP = 1024  # a step after which the heap holds this much less collected inside itself
GC_KEPT = 1024  # idle collections timed a game (~450 in one against the board)


class FsClock:
    """The time spent in the file system's own calls (open, write, close, rename)."""

    def __init__(self):
        self.us = 0


class TimedFile:
    def __init__(self, f, fs):
        self.f = f
        self.fs = fs

    def write(self, s):
        t0 = ticks_us()
        n = self.f.write(s)
        self.fs.us += ticks_diff(ticks_us(), t0)
        return n

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        t0 = ticks_us()
        self.f.close()
        self.fs.us += ticks_diff(ticks_us(), t0)


class TimedStore(Store):
    """A Store whose file system time is counted in `fs` (a save's preparation is not)."""

    def __init__(self, root, fs):
        def opener(path, mode):
            t0 = ticks_us()
            f = open(path, mode)
            fs.us += ticks_diff(ticks_us(), t0)
            return TimedFile(f, fs)

        super().__init__(root, opener)
        self.fs = fs

    def finish(self, name):
        t0 = ticks_us()
        Store.finish(self, name)
        self.fs.us += ticks_diff(ticks_us(), t0)



class Steps:
    """Each step's time (and allocation) as the game goes, kept compactly so that the figures
    run fits a board-sized heap: a collection there costs what it costs on the board (its
    mark and sweep grow with the heap and what it holds; in an 8 MB heap with every step's
    record in lists one took 0.5-1.2 ms here, against ~0.25 ms in 224 KB).

    The allocation run (`alloc`: a collection before each step, the collector off during
    it) keeps only the largest press and board frame as it goes. A timing run keeps, in
    preallocated arrays of `size` steps, each step's kind and the fastest time seen over
    the runs of the same game (`into`: the Steps of its first run, whose kinds the later
    runs must repeat); times are in us, clamped to 65535."""

    def __init__(self, alloc, size=0, into=None):
        self.alloc = alloc
        self.n = 0
        self.into = into
        if into is None and not alloc:
            # "p" press, "h" HINT (ROLL held), "f" person's frame, "b" board's frame,
            # "r" request, "w" a piece written by the serial task
            self.kinds = bytearray(size)
            self.us = array("H", bytearray(2 * size))
            self.fs_us = array("H", bytearray(2 * size))
        self.press_bytes = self.frame_bytes = self.hint_bytes = self.button_bytes = 0
        self.frame_bytes_run = 0  # the board's frames that loaded no code (a module's import)
        self.load_bytes = 0  # the steps that did: the code they loaded is kept, not churn
        self._press = -1  # bytes of a press not yet followed by its frame, -1 none
        self._hint = False
        self.gc_idle = 0  # idle collections made (App.collect)
        self.frames = 0  # frames of the allocation run (its steps: a frame's parts in one)
        self.gc_in = 0  # steps in which MicroPython collected by itself
        if into is None and not alloc:  # the idle collections' times in their order
            self.gc_us = array("H", bytearray(2 * GC_KEPT))

    def collect(self, app):
        """The render task's idle step: timed apart, not a step of the arrays (whether a
        given frame is followed by a collection may differ by a frame or two between the
        runs of a game); the i-th collection of a run is kept as the fastest i-th of the
        runs, as the steps are."""
        if self.alloc:
            app.collect()
            return
        t0 = ticks_us()
        if not app.collect():
            return
        us = ticks_diff(ticks_us(), t0)
        i = self.gc_idle
        self.gc_idle += 1
        keep = self if self.into is None else self.into
        if i < GC_KEPT:
            us = us if us < 65535 else 65535
            if keep is self or us < keep.gc_us[i]:
                keep.gc_us[i] = us

    def gc_max(self, n):
        """The longest of the first n idle collections (each the fastest of the runs)."""
        top = 0
        for i in range(min(n, GC_KEPT)):
            top = max(top, self.gc_us[i])
        return top

    def run(self, kind, func, *args):
        fs = self.rig.store.fs
        f0 = fs.us
        if self.alloc:
            gc.collect()
            gc.disable()
        m0 = mem_alloc()
        modules = len(sys.modules)
        t0 = ticks_us()
        func(*args)
        us = ticks_diff(ticks_us(), t0)
        io = fs.us - f0
        if self.alloc:
            b = mem_alloc() - m0
            self._bytes(kind, b)
            if len(sys.modules) != modules:
                self.load_bytes = max(self.load_bytes, b)
            elif kind == "b":
                self.frame_bytes_run = max(self.frame_bytes_run, b)
            gc.enable()
            self.n += 1
            return
        if mem_alloc() < m0 - GC_DROP:  # MicroPython collected inside the step
            self.gc_in += 1
        us -= io
        keep = self if self.into is None else self.into
        i = self.n
        self.n += 1
        if i >= len(keep.kinds):
            raise RuntimeError("more steps than the allocation run made")
        us = us if us < 65535 else 65535
        io = io if io < 65535 else 65535
        k = ord(kind)
        if keep is self:
            self.kinds[i] = k
            self.us[i] = us
            self.fs_us[i] = io
            return
        if keep.kinds[i] != k:
            raise RuntimeError("the runs of a game differ at step %d" % i)
        if us < keep.us[i]:
            keep.us[i] = us
        if io < keep.fs_us[i]:
            keep.fs_us[i] = io

    def _bytes(self, kind, b):
        """The press (with its events written and the frame that shows it) and the board's
        frame that allocate most."""
        if kind == "w" and self._press >= 0:
            self._press += b
            return
        if self._press >= 0:  # the press is over: its frame, or no frame
            total = self._press + (b if kind in "fb" else 0)
            self.press_bytes = max(self.press_bytes, total)
            if self._hint:
                self.hint_bytes = max(self.hint_bytes, total)
            else:
                self.button_bytes = max(self.button_bytes, total)
            self._press = -1  # (a board's frame after a press counts as a frame too)
        if kind in "ph":
            self._press = b
            self._hint = kind == "h"
        elif kind == "b":
            self.frame_bytes = max(self.frame_bytes, b)

    def end(self):
        """The last press, when the game ended with it."""
        self._bytes(".", 0)



def _strip_rates():
    """Strip writes a second (the board's own pace, 700 ms a step) in three phases."""
    rig = Rig(5, '["human","board"]', 700, _timed_store)
    ctl = rig.ctl
    app = rig.app
    strip = rig.strip
    out = {}
    try:

        def frames(ms, until=None):
            start = strip.writes
            t = 0
            while t < ms:
                rig.now += FRAME_MS
                t += FRAME_MS
                app.frame(rig.now)
                app.collect()
                rig.drain(_call)
                if until is not None and until():
                    break
            return strip.writes - start, t

        # the person to roll (or the opening): nothing happens for 10 s
        for _ in range(200):  # let the start settle (boot animations)
            if rig.person_due():
                break
            frames(FRAME_MS)
        frames(2000)
        n, t = frames(10000)
        out["strip_writes_per_s_idle"] = n * 1000 / t
        # the person's move: dice thrown, checkers glowing; picks one up, puts it back
        person_n = person_t = board_n = board_t = 0
        for _ in range(3000):
            g = ctl.game
            if g.phase == OVER or (person_t >= 10000 and board_t >= 10000):
                break
            if ctl.busy():  # the board's turn, to its end
                n, t = frames(60000, lambda: not ctl.busy())
                board_n += n
                board_t += t
                continue
            if rig.person_due() and g.phase == MOVE and g.turn == 0 and person_t < 10000:
                n, t = frames(1500)
                app.press(rig.choose(), rig.now)  # picked up: its destinations light
                n2, t2 = frames(1500)
                person_n += n + n2
                person_t += t + t2
            if rig.person_due():
                app.press(rig.choose(), rig.now)
            frames(100)
        out["strip_writes_per_s_person_move"] = person_n * 1000 / person_t if person_t else -1
        out["strip_writes_per_s_board_move"] = board_n * 1000 / board_t if board_t else -1
    finally:
        rig.close()
    return out


class Totals:
    """What the timed games of figures() add up to: each kind of step's longest hold, the
    largest allocations, the collections."""

    def __init__(self):
        self.hold = {"p": 0, "h": 0, "f": 0, "b": 0, "r": 0, "w": 0}
        self.save = self.steps = self.hints = 0
        self.gc_us = self.gc_idle = self.gc_in = 0
        self.press_bytes = self.frame_bytes = self.hint_bytes = self.button_bytes = 0
        self.frame_bytes_run = self.load_bytes = 0


def _rig(n, match):
    """Game n + 1's Rig: against the board, or (`match`) the first game of a 5-point match
    with the cube, the board on both sides (its cube decisions and the match's code)."""
    rig = Rig(n + 1, '["board","board"]' if match else '["human","board"]', FAST_PACE,
              _timed_store)
    if match:
        for line in (MATCH, '{"cmd":"new"}'):
            rig.request(line)
            rig.drain(_call)
    return rig


def _timed_game(n, match, t):
    """Game n + 1 played REPEATS + 1 times over (only one game's records are kept: a
    board-sized heap holds them): first for the allocations, then for the times, each
    step's fastest of the runs; added to the Totals `t`."""
    first = None
    size = 0
    gc_n = -1  # idle collections made in every timed run of the game
    for r in range(REPEATS + 1):
        gc.collect()
        if r == 0:
            steps = Steps(True)
        elif first is None:  # its arrays first, while the heap is whole
            steps = first = Steps(False, size)
        else:
            steps = Steps(False, into=first)
        rig = _rig(n, match)
        try:
            if not play_game(rig, steps):
                raise RuntimeError("game %d did not end: %s" % (n + 1, rig.sink.first_error))
        finally:
            rig.close()
        if r == 0:
            steps.end()
            size = steps.n + 2 * steps.frames  # the timing runs time a frame's 3 parts
            t.press_bytes = max(t.press_bytes, steps.press_bytes)
            t.frame_bytes = max(t.frame_bytes, steps.frame_bytes)
            t.hint_bytes = max(t.hint_bytes, steps.hint_bytes)
            t.button_bytes = max(t.button_bytes, steps.button_bytes)
            t.frame_bytes_run = max(t.frame_bytes_run, steps.frame_bytes_run)
            t.load_bytes = max(t.load_bytes, steps.load_bytes)
        elif steps.n != size:
            raise RuntimeError("the runs of game %d differ in length" % (n + 1))
        if r == 1:
            t.hints += rig.hints
            t.gc_idle += steps.gc_idle
            t.gc_in += steps.gc_in
        if r >= 1 and (gc_n < 0 or steps.gc_idle < gc_n):
            gc_n = steps.gc_idle
        del rig, steps
    t.gc_us = max(t.gc_us, first.gc_max(gc_n))
    t.steps += size
    hold = t.hold
    for i in range(size):
        kind = chr(first.kinds[i])
        hold[kind] = max(hold[kind], first.us[i])
        t.save = max(t.save, first.fs_us[i])


def figures(games):
    """`games` games against the board, then a match's first game, the board on both sides
    (its figures apart: issue 11's targets are set for a money game)."""
    t = Totals()
    for n in range(games):
        _timed_game(n, False, t)
    m = Totals()
    _timed_game(0, True, m)
    hold = t.hold
    out = {
        "alloc_max_press_bytes": t.press_bytes,
        "alloc_max_board_frame_bytes": t.frame_bytes,
        "loop_hold_max_us": max(hold.values()),
        "loop_hold_press_max_us": max(hold["p"], hold["h"]),
        "loop_hold_hint_max_us": hold["h"],
        "alloc_max_hint_bytes": t.hint_bytes,
        "alloc_max_button_press_bytes": t.button_bytes,  # presses but HINT
        "loop_hold_person_frame_max_us": hold["f"],
        "loop_hold_board_frame_max_us": hold["b"],
        "loop_hold_request_max_us": hold["r"],
        "loop_hold_writer_max_us": hold["w"],
        "save_write_max_us": t.save,
        "gc_collect_max_us": t.gc_us,  # the render task's idle collection, a step of its own
        "gc_idle_collections": t.gc_idle,  # in each game's first timed run
        "gc_in_steps": t.gc_in,  # steps in which MicroPython collected by itself (those runs)
        "board_bench_games": games,
        "board_bench_steps": t.steps,
        "board_bench_hints": t.hints,
        # the match's game: its frames (cube decisions, the board's moves), requests, writes
        "loop_hold_match_max_us": max(m.hold.values()),
        "alloc_max_match_frame_bytes": m.frame_bytes_run,  # loading no code
        "alloc_max_match_load_bytes": m.load_bytes,  # a step that loaded the match's code
        "gc_in_steps_match": m.gc_in,
        "board_bench_match_steps": m.steps,
    }
    out.update(_strip_rates())
    print(json.dumps(out))
    return 0


class GcCount:
    """play_game's steps for `gc`: counts the idle collections and the steps inside which
    MicroPython collected by itself (the heap in use fell by GC_DROP during the step)."""

    alloc = False

    def __init__(self, idle=True):
        self.idle = idle  # False: the app's idle step left out (the check's control)
        self.idles = self.inside = 0

    def run(self, kind, func, *args):
        m0 = mem_alloc()
        func(*args)
        if mem_alloc() < m0 - GC_DROP:
            self.inside += 1

    def collect(self, app):
        if self.idle and app.collect():
            self.idles += 1


def gc_check(games, idle=True):
    """N games, each step run once: the idle collections and the collections still inside
    steps, one JSON line (no times: tests/test_bench_gc.py checks it)."""
    idles = inside = 0
    for n in range(games):
        gc.collect()
        rig = Rig(n + 1, '["human","board"]', FAST_PACE)
        steps = GcCount(idle)
        try:
            if not play_game(rig, steps):
                raise RuntimeError("game %d did not end: %s" % (n + 1, rig.sink.first_error))
        finally:
            rig.close()
        idles += steps.idles
        inside += steps.inside
        del rig, steps
    print(json.dumps({"gc_idle_collections": idles, "gc_in_steps": inside}))
    return 0


def _timed_store(root):
    return TimedStore(root, FsClock())


def main(args):
    if len(args) < 1 or args[0] not in ("figures", "gc"):
        print("usage: micropython -m board_figures figures|gc [GAMES] [noidle]")
        return 2
    games = int(args[1]) if len(args) > 1 else 2
    if args[0] == "gc":
        return gc_check(games, "noidle" not in args)
    return figures(games)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
