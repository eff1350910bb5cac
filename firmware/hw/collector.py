# When the garbage is collected: in a step of its own in the idle part of a frame (issue 11).
#
# MicroPython collects when an allocation finds no room, and after every gc.threshold() bytes
# allocated: either way inside whatever step allocates (a press, a request, a think slice),
# holding the loop for the whole mark and sweep of the heap. The render task instead calls
# Collector.idle() once a frame, after the frame's work and its strip write, in a step of its
# own: it collects once the heap in use has grown by a 1/EVERY of the heap since the last
# collection, or when less than that is free. MicroPython's own threshold stays as a safety
# net at SAFETY times that (half the heap): it counts every byte allocated, those freed again
# at once too (a list that grows, a string made in pieces), 3 to 8 times the heap's growth in
# a game here, so a threshold near the idle one would still fall inside steps (bench/
# board_bench.py counts those that do: gc_in_steps). soon() asks for a collection in the next
# idle step whatever the growth: the board's player wants a clean heap before a choice
# (gammon/opponent.py's first slice) and gets it between two frames.
# `gc` comes in through the constructor (the module on MicroPython, a fake in tests).
from kernels.compat import const

EVERY = const(32)  # an idle collection after a 32nd of the heap (~6 KB on a Pico's 190 KB)
SAFETY = const(16)  # MicroPython's own after 16 times that allocated (half the heap)


class Collector:
    """The heap's collections in idle time; `every` bytes of growth between two."""

    def __init__(self, gc, every=0):
        self.gc = gc
        heap = gc.mem_alloc() + gc.mem_free()
        self.every = every or heap // EVERY
        self.collections = 0  # collections made (idle ones, and the first)
        self.asked = False  # soon(): the next idle step collects
        gc.threshold(SAFETY * self.every)
        self.base = 0  # the heap in use after the last collection
        self._collect()

    def _collect(self):
        gc = self.gc
        gc.collect()  # also starts MicroPython's threshold count again
        self.base = gc.mem_alloc()
        self.collections += 1
        self.asked = False

    def soon(self):
        """A collection in the next idle step, whatever the heap's growth (a choice's start:
        gammon/opponent.py's `collect`, which the board's player points here)."""
        self.asked = True

    def due(self):
        """Whether a collection is asked for, the heap grew enough since the last one, or
        it is nearly full."""
        gc = self.gc
        used = gc.mem_alloc()
        if used < self.base:  # MicroPython collected by itself since (inside some step)
            self.base = used
        return self.asked or used - self.base >= self.every or gc.mem_free() < self.every

    def idle(self):
        """The idle part of a frame (App's render task, once a frame): collects when due;
        True when it did."""
        if not self.due():
            return False
        self._collect()
        return True
