# Bytes one call allocates on MicroPython: the heap tests' one measure (issue 11's bounds).
import gc

from kernels.compat import MICROPY


def mp_allocated(func, *args):
    """Bytes func(*args) allocates, counted by gc.mem_alloc with the collector off (so that
    nothing allocated is freed before it is counted); MicroPython only."""
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    try:
        func(*args)
    finally:
        n = gc.mem_alloc() - before
        gc.enable()
    return n


class Allocated:
    """The most bytes one call allocated, over the calls made through it; a call returns its
    own count. On MicroPython only: CPython (no such count; its move search is plain Python,
    making ints as it goes) makes the same calls, checking what they do, and counts 0."""

    def __init__(self):
        self.most = 0

    def __call__(self, func, *args):
        if not MICROPY:
            func(*args)
            return 0
        n = mp_allocated(func, *args)
        self.most = max(self.most, n)
        return n
