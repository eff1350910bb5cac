# When the garbage is collected: in a step of its own in the idle part of a frame (issue 11).
#
# MicroPython collects when an allocation finds no room, and after every gc.threshold() bytes
# allocated: either way inside whatever step allocates (a press, a request, a think slice),
# holding the loop for the whole mark and sweep of the heap. The render task instead calls
# Collector.idle() once a frame, after the frame's work, its strip write and its save, in a
# step of its own: it collects once the heap in use has grown by a 32nd of the heap since the
# last collection (`limit`), or when less than that is free. MicroPython's own threshold
# stays as a safety net at 16 times that (half the heap): it counts every byte allocated,
# those freed again at once too (a list that grows, a string made in pieces), 3 to 8 times
# the heap's growth in a game here, so a threshold near the idle one would still fall inside
# steps (bench/board/board_bench.py counts those that do: gc_in_steps). soon() asks for a
# collection in the next idle step whatever the growth: the board's player wants a clean heap
# before a choice (gammon/opponent.py's first slice) and gets it between two frames.
# Looking at the heap is not free either: gc.mem_alloc() scans the whole allocation table,
# ~3 ms of a Pico's (make chip's profile: 60% of the board's thinking went there when every
# idle step looked), so an idle step looks only when the heap could be due by then: after a
# look, the next waits for the steps the growth since the last collection, at its pace so
# far, needs to reach `limit`; after a collection, for half the steps the last cycle took;
# at most `every` (8) steps either way; at once after soon(), and every step once the heap
# is nearly full. (Waiting for half the steps left instead, a thinking board looked at the
# heap 3 to 6 times a cycle: make chip found gc_info still 18% of its busy time.)
# `gc` comes in through the constructor (the module on MicroPython, a fake in tests).
# (Few new names: each is a qstr in the board's heap, and its pool is nearly full.)
from kernels.compat import const

_EVERY = const(32)  # an idle collection after a 32nd of the heap (~6 KB on a Pico's 190 KB)
_SAFETY = const(16)  # MicroPython's own after 16 times that allocated (half the heap)
_ASK_EVERY = const(8)  # idle steps between two looks at the heap, at most
_SINCE_MAX = const(256)  # steps since a collection, counted up to this (a smaller count only
# shortens the wait; the products stay small ints on a 32-bit board)


class Collector:
    """The heap's collections in idle time, after `limit` bytes of growth."""

    def __init__(self, gc, limit=0, start=True, every=_ASK_EVERY):
        """`start` False: made before the firmware is loaded, started by start() after it
        (app.build: its first collection then packs what was loaded). `every`: idle steps
        between two looks at the heap at most (1: every step)."""
        self.gc = gc
        self.every = every
        self.wait = 1  # idle steps from the last look to the next
        self.steps = 0  # idle steps since the last look
        self.since = 0  # idle steps since the last collection
        # due() asks gc.mem_alloc() alone: each of mem_alloc and mem_free scans the whole
        # allocation table (gc_info), ~3 ms on a Pico's 240 KB heap, once a 20 ms frame
        # (make chip's profile); the heap's size never changes, so the free part is the rest
        self.heap = gc.mem_alloc() + gc.mem_free()
        self.limit = limit
        self.base = 0  # the heap in use after the last collection
        self.gc_used = 0  # the heap in use at the last look
        if start:
            self.start()

    def start(self):
        """MicroPython's own threshold as the safety net, and the first collection."""
        gc = self.gc
        if not self.limit:
            self.limit = self.heap // _EVERY
        gc.threshold(_SAFETY * self.limit)
        self.collect()

    def collect(self):
        gc = self.gc
        gc.collect()  # also starts MicroPython's threshold count again
        self.base = gc.mem_alloc()
        # the next look: after half as many steps as the last cycle took (the growth's pace
        # so far; a whole cycle let a burst, a choice's first slices, fill a board-sized heap
        # before the next look: collections inside steps), `every` at most
        cycle = self.since // 2 if self.since > 1 else 1
        self.wait = cycle if cycle < self.every else self.every
        self.since = 0

    def soon(self):
        """A collection in the next idle step, whatever the heap's growth (a choice's start:
        gammon/opponent.py's `collect`, which the board's player points here)."""
        self.base = -self.limit  # as if the heap had grown by `limit` since

    def due(self):
        """Whether a collection is asked for, the heap grew enough since the last one, or
        it is nearly full."""
        gc = self.gc
        used = self.gc_used = gc.mem_alloc()
        if used < self.base:  # MicroPython collected by itself since (inside some step)
            self.base = used
            self.since = 0
        return used - self.base >= self.limit or self.heap - used < self.limit

    def idle(self):
        """The idle part of a frame (App's render task, once a frame): collects when due,
        looking at the heap only when it could be (see above); True when it collected."""
        self.steps += 1
        if self.since < _SINCE_MAX:
            self.since += 1
        if self.steps < self.wait and self.base >= 0:
            return False
        self.steps = 0
        if self.due():
            self.collect()
            return True
        self._plan()
        return False

    def _plan(self):
        """The steps to the next look: those the growth since the last collection, at its
        pace so far, needs to reach `limit`; 1 when the heap is nearly full."""
        used = self.gc_used
        grown = used - self.base
        if self.heap - used < 2 * self.limit:
            self.wait = 1
            return
        # the steps left until `limit`, at the pace since the last collection, rounded up
        wait = -(-(self.limit - grown) * self.since // (grown + 1))
        self.wait = 1 if wait < 1 else (wait if wait < self.every else self.every)
