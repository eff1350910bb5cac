# The whole firmware as deployed, measured against issue 11's targets; runs under MicroPython.
#
#   MICROPYPATH=.frozen:DIR micropython -X heapsize=NK -m board_bench MODE [N]
#
# DIR holds firmware/ and native/ compiled with mpy-cross as `make deploy` leaves the board's
# root (weights.bin beside them) and this script, compiled too (bench/run.py does it all).
# Built with app.build on fakes: controller, renderer, protocol and link; a scripted person
# presses buttons (app.press, as the input task) for player 0 and the board's own player
# plays player 1; requests go through the protocol as a host's lines do; time is a fake
# clock advanced a frame (20 ms) at a time, so every run is the same game.
#   heap N     N complete games with no error event: prints "ok ..." and exits 0, else 1
#              (bench/run.py looks for the smallest heap where this passes)
#   gc N       N games, each step once: the idle collections and those still inside steps
#              (`noidle`: without the idle step, the check's control); one JSON line
#   figures N  N games, each once for the allocations and five times for the times: the
#              most a press (with the frame that shows it) and a frame of the board's turn
#              allocate (collector off), the longest step of each task (press, frame,
#              request; each step's fastest of the five runs, the file system's own time
#              taken out and reported apart), strip writes a second while idle, during a
#              person's move and during the board's; one JSON line. Its records take ~5
#              bytes a step, one game's at a time, so it runs in a board-sized heap (a
#              few KB over the heap mode's smallest), where the collector's pauses are the
#              board's own: run it there, not in megabytes, for loop_hold_*. A frame is
#              timed as the render task runs it, three steps (App.tick, render,
#              flush: a think slice, the strip's frame, a press's save), its
#              allocation as one (App.frame). After each
#              frame the render task's idle step (App.collect: the collection when one is
#              due, hw/collector.py) is timed apart, as gc_collect_max_us; a collection of
#              MicroPython's own that still falls inside a step stays in that step's time
#              (and is counted: gc_in_steps).
import gc
import json
import sys
from array import array

from app import build
from display.view import button_of_target, target_of
from gammon.dice import Dice, SeededBytes
from hw.boards import pico
from hw.inputs import DirectKeys
from hw.storage import Store
from hw.ticks import ticks_diff, ticks_us
from link.port import make_writer
from model.game import MOVE, OVER

FRAME_MS = 20
FAST_PACE = 60  # the board player's ms per step for the heap and time runs (700 on the board)
REPEATS = 5  # timed runs of a game: each step's fastest (a shared machine's load is noise)
BURST = 4  # link/port.py's _BURST: pieces the serial task writes before it yields
GC_DROP = 1024  # a step after which the heap holds this much less collected inside itself
GC_KEPT = 1024  # idle collections timed a game (~450 in one against the board)


def mem_alloc():
    return gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0


def _tmpdir():
    import os

    n = 0
    while True:
        path = "/tmp/lg-board-bench-%d-%d" % (ticks_us() & 0xFFFFF, n)
        try:
            os.mkdir(path)
            return path
        except OSError:
            n += 1


def _rmtree(path):
    import os

    for name in os.listdir(path):
        os.remove(path + "/" + name)
    os.rmdir(path)


class CountStrip:
    """The frame buffer; write() only counts (the strip's own time is the strip's)."""

    def __init__(self, count):
        self.buf = bytearray(3 * count)
        self.writes = 0

    def write(self):
        self.writes += 1


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


_CUT = b'"truncated":true'  # how link/jsonout ends a line it could not finish


class Sink:
    """The host's end of the link (the Outbox's port): takes every piece at once, looks at
    each line for error events and refused requests, keeps nothing else."""

    def __init__(self):
        self.bytes = 0
        self.errors = 0
        self.refused = 0
        self.allow = 0  # error events expected: a HINT's ROLL press, refused as the play is on
        self.first_error = None
        self.line = bytearray(512)  # the start of the line coming in (errors are short)
        self.n = 0
        self.cut = 0  # bytes of _CUT matched so far, across writes
        self.truncated = 0  # lines cut short (link/jsonout could not finish them): errors

    def ready(self):
        return True

    def write(self, mv):
        n = len(mv)
        self.bytes += n
        line = self.line
        k = self.cut
        for i in range(n):
            b = mv[i]
            if k or b == 34:  # a quote: perhaps the start of _CUT
                if b == _CUT[k]:
                    k += 1
                    if k == len(_CUT):
                        self._truncated()
                        k = 0
                else:
                    k = 1 if b == 34 else 0
            if b == 10:
                self._line(self.n)
                self.n = 0
            elif self.n < 512:
                line[self.n] = b
                self.n += 1
        self.cut = k
        return n

    def _truncated(self):
        self.truncated += 1
        self.errors += 1
        if self.first_error is None:
            self.first_error = b"a line cut short: " + bytes(self.line[: min(self.n, 120)])

    def _has(self, pattern, n):
        return self.line.find(pattern, 0, n) >= 0

    def _line(self, n):
        """The line in self.line[:n], looked at in place (no copy of it is made)."""
        if self._has(b'"event":"error"', n) or self._has(b'"event": "error"', n):
            if self.allow and self._has(b'"ROLL"', n):
                self.allow -= 1
                return True
            self.errors += 1
            if self.first_error is None:
                self.first_error = bytes(self.line[: min(n, 300)])
        elif (
            self._has(b'"ok":false', n)
            or self._has(b'"ok": false', n)
            or self._has(b'"event":"dropped"', n)  # a line lost (this host reads them all)
        ):
            self.refused += 1
            if self.first_error is None:
                self.first_error = bytes(self.line[: min(n, 300)])
        return True


class Rig:
    """The firmware on fakes: app, strip, store, host sink, fake clock."""

    def __init__(self, seed, players, pace_ms):
        self.root = _tmpdir()
        self.now = 10000
        self.fs = FsClock()
        self.strip = CountStrip(pico.LED_COUNT)
        self.sink = Sink()
        self.outbox = make_writer(self.sink)  # the link's own writer, the sink its port
        self.app = build(
            pico,
            "full",
            DirectKeys({}),
            self.strip,
            TimedStore(self.root, self.fs),
            Dice(SeededBytes(seed)),
            clock=self._clock,
            write=self.outbox,
        )
        self.ctl = self.app.ctl
        self.proto = self.app.protocol
        self.rnd = SeededBytes(seed * 31 + 7)
        self.ids = 0
        self.hints = 0  # HINTs lit
        self.line = bytearray(160)
        self.request('{"cmd":"config","set":{"players":%s,"level":"strong"}}' % players)
        self.ctl.set_pace(pace_ms)

    def _clock(self):
        return self.now

    def close(self):
        _rmtree(self.root)

    def request(self, text):
        """One request line through the protocol, as the serial task feeds it."""
        self.ids += 1
        line = '%s,"id":%d}\n' % (text[:-1], self.ids)
        n = len(line)
        self.line[:n] = line.encode()
        self.proto.feed(self.line, self.now, n)

    def drain(self, run, idle=None):
        """The serial task's writing half: a piece at a time until nothing is queued, the
        render task's idle step (`idle`) after every round of BURST pieces: the clock stands
        still here, but on an RP2040 a piece takes about a frame's time (a play's notation,
        ~0.1 ms here), so the render task's frames, each followed by its idle step, come
        between the serial task's rounds (link/port.py's drain: BURST pieces, then it
        yields)."""
        outbox = self.outbox
        n = 0
        while outbox.pending():
            run("w", outbox.send)
            n += 1
            if idle is not None and n % BURST == 0:
                idle()

    def person_due(self):
        """Whether the scripted person (player 0) is to press now."""
        ctl = self.ctl
        g = ctl.game
        v = ctl.view
        if g.phase == OVER or ctl.busy() or ctl.menu_item >= 0:
            return False
        return not (v.rolling_until or v.blink_until)  # the dice still roll, or blink

    def choose(self):
        """The person's next button: ROLL, or a movable checker then one of its places."""
        ctl = self.ctl
        if ctl.game.phase != MOVE:
            return "ROLL"
        v = ctl.view
        if ctl.hint:  # the hint's lights are not the legal steps: pick up a movable checker
            g = ctl.game
            targets = [target_of(g.turn, pt) for pt in g.turn_state.movable()]
        else:
            mask = v.dests if v.selected >= 0 else v.movable
            targets = [i for i in range(26) if mask >> i & 1]
        if not targets:
            return "ROLL"
        return button_of_target(targets[self.rnd(1)[0] % len(targets)])


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
        fs = self.rig.fs
        f0 = fs.us
        if self.alloc:
            gc.collect()
            gc.disable()
        m0 = mem_alloc()
        t0 = ticks_us()
        func(*args)
        us = ticks_diff(ticks_us(), t0)
        io = fs.us - f0
        if self.alloc:
            self._bytes(kind, mem_alloc() - m0)
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


def play_game(rig, steps=None, frames_max=200000):
    """One complete game: frames every 20 ms, the person's presses, a few requests a turn."""
    app = rig.app
    ctl = rig.ctl
    run = steps.run if steps is not None else _call
    if steps is not None:
        steps.rig = rig

    def idle():  # the render task's idle step (App.collect)
        if steps is not None:
            steps.collect(app)
        else:
            app.collect()

    def frame(kind):  # the render task's steps (its three parts), then its idle step
        if steps is None or steps.alloc:  # allocations: a frame's parts together
            run(kind, app.frame, rig.now)
            if steps is not None:
                steps.frames += 1
        else:
            run(kind, app.tick, rig.now)
            run(kind, app.render, rig.now)
            run(kind, app.flush)
        idle()
    turns = -1
    hints = None
    wait = 0
    for _ in range(frames_max):
        g = ctl.game
        rig.drain(run, idle)
        if g.phase == OVER:
            run("r", rig.request, '{"cmd":"history"}')
            rig.drain(run, idle)
            return True
        rig.now += FRAME_MS
        frame("b" if ctl.busy() else "f")
        key = (g.game_number, len(g.codes))
        if key != turns:  # a new turn: the host asks what it is (every legal play listed)
            turns = key
            run("r", rig.request, '{"cmd":"state"}')
            rig.drain(run, idle)
            if len(g.codes) % 8 == 1:
                run("r", rig.request, '{"cmd":"leds"}')
                rig.drain(run, idle)
        if wait > 0:
            wait -= 1
        elif rig.person_due():
            if g.phase == MOVE and g.turn == 0 and hints != key and len(g.codes) % 4 == 1:
                hints = key  # HINT: ROLL held during the play (its press is refused first)
                rig.sink.allow = 1
                run("p", app.press, "ROLL", rig.now)
                rig.drain(run, idle)
                run("h", app.long_press, "ROLL", rig.now + 800)
                rig.drain(run, idle)
                if rig.sink.allow:
                    raise RuntimeError("ROLL during the play was not refused")
                while ctl.hinting is not None:  # thought out a slice a frame (hint.py)
                    rig.now += FRAME_MS
                    frame("f")
                    rig.drain(run, idle)
                rig.hints += 1 if ctl.hint else 0
            name = rig.choose()
            run("p", app.press, name, rig.now)
            wait = 4  # a person's pace: a press every 100 ms at most
    return False


def _call(kind, func, *args):
    func(*args)


def _heap_game(n):
    """Game n + 1 of heap(), None when it passed, else why not. Its Rig lives in this frame
    only: MicroPython's collector scans the stack conservatively, and a stale slot of
    heap()'s own frame kept a finished game's whole app alive through the next game."""
    rig = Rig(n + 1, '["human","board"]', FAST_PACE)
    try:
        if not play_game(rig):
            return "game %d did not end" % (n + 1)
        if rig.sink.errors or rig.sink.refused:
            return "%s" % (rig.sink.first_error,)
    finally:
        rig.close()
    return None


def heap(games):
    gc.collect()
    for n in range(games):
        failed = _heap_game(n)
        gc.collect()
        if failed is not None:
            print("fail: %s" % failed)
            return 1
    print("ok: %d games, heap in use after them %d bytes" % (games, mem_alloc()))
    return 0


def _strip_rates():
    """Strip writes a second (the board's own pace, 700 ms a step) in three phases."""
    rig = Rig(5, '["human","board"]', 700)
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


def figures(games):
    """Each game played REPEATS + 1 times over, one game at a time (only one game's records
    are kept: a board-sized heap holds them): first for the allocations, then for the
    times, each step's fastest of the runs."""
    hold = {"p": 0, "h": 0, "f": 0, "b": 0, "r": 0, "w": 0}
    save = steps_total = hints = 0
    gc_us = gc_idle = gc_in = 0
    press_bytes = frame_bytes = hint_bytes = button_bytes = 0
    for n in range(games):
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
            rig = Rig(n + 1, '["human","board"]', FAST_PACE)
            try:
                if not play_game(rig, steps):
                    raise RuntimeError("game %d did not end" % (n + 1))
            finally:
                rig.close()
            if r == 0:
                steps.end()
                size = steps.n + 2 * steps.frames  # the timing runs time a frame's 3 parts
                press_bytes = max(press_bytes, steps.press_bytes)
                frame_bytes = max(frame_bytes, steps.frame_bytes)
                hint_bytes = max(hint_bytes, steps.hint_bytes)
                button_bytes = max(button_bytes, steps.button_bytes)
            elif steps.n != size:
                raise RuntimeError("the runs of game %d differ in length" % (n + 1))
            if r == 1:
                hints += rig.hints
                gc_idle += steps.gc_idle
                gc_in += steps.gc_in
            if r >= 1 and (gc_n < 0 or steps.gc_idle < gc_n):
                gc_n = steps.gc_idle
            del rig, steps
        gc_us = max(gc_us, first.gc_max(gc_n))
        steps_total += size
        for i in range(size):
            kind = chr(first.kinds[i])
            hold[kind] = max(hold[kind], first.us[i])
            save = max(save, first.fs_us[i])
        first = None
    out = {
        "alloc_max_press_bytes": press_bytes,
        "alloc_max_board_frame_bytes": frame_bytes,
        "loop_hold_max_us": max(hold.values()),
        "loop_hold_press_max_us": max(hold["p"], hold["h"]),
        "loop_hold_hint_max_us": hold["h"],
        "alloc_max_hint_bytes": hint_bytes,
        "alloc_max_button_press_bytes": button_bytes,  # presses but HINT
        "loop_hold_person_frame_max_us": hold["f"],
        "loop_hold_board_frame_max_us": hold["b"],
        "loop_hold_request_max_us": hold["r"],
        "loop_hold_writer_max_us": hold["w"],
        "save_write_max_us": save,
        "gc_collect_max_us": gc_us,  # the render task's idle collection, a step of its own
        "gc_idle_collections": gc_idle,  # in each game's first timed run
        "gc_in_steps": gc_in,  # steps in which MicroPython collected by itself (those runs)
        "board_bench_games": games,
        "board_bench_steps": steps_total,
        "board_bench_hints": hints,
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
                raise RuntimeError("game %d did not end" % (n + 1))
        finally:
            rig.close()
        idles += steps.idles
        inside += steps.inside
        del rig, steps
    print(json.dumps({"gc_idle_collections": idles, "gc_in_steps": inside}))
    return 0


def main(args):
    if len(args) < 1 or args[0] not in ("heap", "figures", "gc"):
        print("usage: micropython -m board_bench heap|figures|gc [GAMES] [noidle]")
        return 2
    games = int(args[1]) if len(args) > 1 else 2
    if args[0] == "heap":
        return heap(games)
    if args[0] == "gc":
        return gc_check(games, "noidle" not in args)
    return figures(games)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
