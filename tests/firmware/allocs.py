# Bytes one call allocates on MicroPython: the heap tests' one measure (issue 11's bounds).
import gc


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
