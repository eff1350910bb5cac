# The board's own player in a small heap: a whole game of the board against itself through
# the controller, run alone by tests/test_firmware_micropython.py with nothing loaded but the
# engine, the game logic, the board's player and its weights (HEAP there gives the figure);
# and what each frame of its thinking allocates, which cuts up the heap.
import gc
import sys

import fakes
from allocs import mp_allocated
from model.game import MOVE, OVER

MICROPY = sys.implementation.name == "micropython"
THINK_FRAME_BYTES = 8192  # the most one frame of the board's thinking may allocate (issue 11)


def test_board_against_board_in_a_small_heap():
    gc.collect()
    ctl, rec = fakes.make(seed=17, keep=0)
    ctl.pace_ms = 1
    assert ctl.configure("players", ["board", "board"])[0]
    now = 0
    while ctl.game.phase != OVER and now < 10000000:
        now += 20
        ctl.tick(now)
    rec.check()
    assert ctl.game.phase == OVER and rec.counts["over"] == 1 and rec.counts["step"] > 40
    assert rec.counts.get("error", 0) == 0 and rec.counts.get("press", 0) == 0
    fakes.done(ctl)


class _Allocated:
    """Bytes allocated by one call: gc.mem_alloc with the collector off on MicroPython,
    tracemalloc's peak on CPython (whose objects are larger: the bound holds there too)."""

    def __init__(self):
        if not MICROPY:
            import tracemalloc

            self.tm = tracemalloc
            tracemalloc.start()

    def __call__(self, func, *args):
        if MICROPY:
            return mp_allocated(func, *args)
        self.tm.reset_peak()
        before = self.tm.get_traced_memory()[0]
        func(*args)
        return self.tm.get_traced_memory()[1] - before

    def stop(self):
        if not MICROPY:
            self.tm.stop()


def test_each_frame_of_the_board_s_thinking_allocates_at_most_8_kb():
    """Every frame from the dice rolled to the first step lit: the plan made, its slices,
    the steps ordered, at both levels. (The frames that make a step also save the game:
    the save's allocation is the storage's, bounded by the tests of the press.)"""
    allocated = _Allocated()
    for level, seed in (("strong", 23), ("easy", 24)):
        gc.collect()
        ctl, rec = fakes.make(seed=seed, keep=0)
        ctl.pace_ms = 1
        assert ctl.configure("level", level)[0]
        assert ctl.configure("players", ["board", "board"])[0]
        g = ctl.game
        turns = 1000 if MICROPY else 8  # (CPython: tracemalloc is slow)
        now = 0
        worst = frames = 0
        while g.phase != OVER and len(g.codes) < turns and now < 10000000:
            now += 20
            thinking = g.phase == MOVE and ctl.bot.doing(ctl) == "think"
            n = allocated(ctl.tick, now)
            if thinking:
                frames += 1
                worst = max(worst, n)
        rec.check()
        assert rec.counts.get("error", 0) == 0 and len(g.codes) > 6
        assert frames > 3 * len(g.codes)  # thought over several frames a turn
        assert 0 < worst <= THINK_FRAME_BYTES, (level, worst)
        fakes.done(ctl)
    allocated.stop()
