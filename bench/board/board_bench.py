# The whole firmware as deployed, measured against issue 11's targets; runs under MicroPython.
#
#   MICROPYPATH=.frozen:DIR micropython -X heapsize=NK -m board_bench heap [N] ...
#   MICROPYPATH=.frozen:DIR micropython -X heapsize=NK -m board_figures gc|figures [N] ...
#
# DIR holds firmware/ and native/ compiled with mpy-cross as `make deploy` leaves the board's
# root (weights.bin beside them) and this script and board_figures.py, compiled too
# (bench/board/targets.py does it all).
# Built with app.build on fakes: controller, renderer, protocol and link; a scripted person
# presses buttons (app.press, as the input task) for player 0 and the board's own player
# plays player 1; requests go through the protocol as a host's lines do; time is a fake
# clock advanced a frame (20 ms) at a time, so every run is the same game.
#   heap N     N complete games with no error event: prints "ok ..." and exits 0, else 1
#              (bench/run.py looks for the smallest heap where this passes)
#   heap N match   the same with the first game of a 5-point match with the cube, the board
#              playing both sides (its cube decisions on both, the match's code and table)
#   ... onward     (with heap) plays on after an error, 20,000 frames at most: whatever a
#              heap too small makes fail later must fail as error events too (the tests)
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
#              (and is counted: gc_in_steps). Then the same for the first game of a
#              5-point match with the cube, board against board (its *_match figures).
# The gc and figures modes are bench/board/board_figures.py's, run as their own module (it
# imports this one, never the other way): the heap mode's heap holds this harness and the
# firmware, not the timing runs' code and records.
import gc
import sys

from app import build
from display.view import button_of_target, target_of
from gammon.dice import Dice, SeededBytes
from hw.boards import pico
from hw.inputs import DirectKeys
from hw.storage import Store
from hw.ticks import ticks_us
from link.port import make_writer
from model.game import MOVE, OVER

FRAME_MS = 20
FAST_PACE = 60  # the board player's ms per step for the heap and time runs (700 on the board)
BURST = 4  # link/port.py's _BURST: pieces the serial task writes before it yields


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

    def __init__(self, seed, players, pace_ms, store=Store):
        """`store(root)` makes the firmware's Store (board_figures' counts the file
        system's own time)."""
        self.root = _tmpdir()
        self.now = 10000
        self.store = store(self.root)
        self.strip = CountStrip(pico.LED_COUNT)
        self.sink = Sink()
        self.outbox = make_writer(self.sink)  # the link's own writer, the sink its port
        self.app = build(
            pico,
            "full",
            DirectKeys({}),
            self.strip,
            self.store,
            Dice(SeededBytes(seed)),
            clock=self._clock,
            write=self.outbox,
            pace_ms=pace_ms,
        )
        self.ctl = self.app.ctl
        self.proto = self.app.protocol
        self.rnd = SeededBytes(seed * 31 + 7)
        self.ids = 0
        self.hints = 0  # HINTs lit
        self.line = bytearray(160)
        self.request('{"cmd":"config","set":{"players":%s,"level":"strong"}}' % players)

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


def play_game(rig, steps=None, frames_max=200000, onward=False):
    """One complete game: frames every 20 ms, the person's presses, a few requests a turn.
    It stops at the first error unless `onward` (then it plays on, frames_max at most)."""
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
        if (rig.sink.errors or rig.sink.refused) and not onward:  # failed already (a side
            return False  # given back to a person, whom this script does not play: no end)
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
                if rig.sink.allow and not onward:
                    raise RuntimeError("ROLL during the play was not refused")
                rig.sink.allow = 0  # (onward, after an error: perhaps not even that)
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


MATCH = '{"cmd":"config","set":{"match_length":5,"cube":true}}'


def _heap_game(n, match, onward):
    """Game n + 1 of heap(), None when it passed, else why not. Its Rig lives in this frame
    only: MicroPython's collector scans the stack conservatively, and a stale slot of
    heap()'s own frame kept a finished game's whole app alive through the next game."""
    rig = Rig(n + 1, '["board","board"]' if match else '["human","board"]', FAST_PACE)
    try:
        if match:  # the terms, then the match itself (the game now is given up)
            for line in (MATCH, '{"cmd":"new"}'):
                rig.request(line)
                rig.drain(_call)
        ended = play_game(rig, None, 20000, True) if onward else play_game(rig)
        if rig.sink.errors or rig.sink.refused:
            return "%s" % (rig.sink.first_error,)
        if not ended:
            return "game %d did not end" % (n + 1)
        if rig.outbox.lost_total:  # a line lost at the very end, its `dropped` event unsent
            return "%d lines lost" % rig.outbox.lost_total
    finally:
        rig.close()
    return None


def heap(games, match=False, onward=False):
    gc.collect()
    for n in range(games):
        failed = _heap_game(n, match, onward)
        gc.collect()
        if failed is not None:
            print("fail: %s" % failed)
            return 1
    print("ok: %d games, heap in use after them %d bytes" % (games, mem_alloc()))
    return 0


def main(args):
    if len(args) < 1 or args[0] != "heap":
        print("usage: micropython -m board_bench heap [GAMES] [match] [onward]")
        return 2
    return heap(int(args[1]) if len(args) > 1 else 2, "match" in args, "onward" in args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
