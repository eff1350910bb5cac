# Wrapping millisecond ticks: MicroPython's time.ticks_* on the board, the same rules on CPython.
#
# Ticks wrap (every 2**30 ms, about 12 days, on the boards): compare them with ticks_diff and
# move them with ticks_add, never with plain - and +. TICKS_MAX is the period - 1, a mask:
# 2**30 - 1 on the boards, 2**62 - 1 on the 64-bit unix port. On CPython the functions keep
# to the boards' period, so wrap-around is tested here too: ticks_diff(a, b) is signed, in
# [-2**29, 2**29); ticks_add takes a delta in (-2**29, 2**29) as MicroPython's does.
try:
    from time import ticks_add, ticks_diff, ticks_ms, ticks_us

    TICKS_MAX = ticks_add(0, -1)
except ImportError:  # CPython
    import time

    TICKS_MAX = 0x3FFFFFFF
    _HALF = 0x20000000

    def ticks_ms():
        return (time.monotonic_ns() // 1000000) & TICKS_MAX

    def ticks_us():
        return (time.perf_counter_ns() // 1000) & TICKS_MAX

    def ticks_add(ticks, delta):
        if not -_HALF < delta < _HALF:
            raise OverflowError("ticks interval overflow")
        return (ticks + delta) & TICKS_MAX

    def ticks_diff(a, b):
        return ((a - b + _HALF) & TICKS_MAX) - _HALF
