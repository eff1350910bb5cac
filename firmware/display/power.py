# Per-frame LED current model and limiter: the one source of the board's power numbers.
# The renderer calls it on every frame; hardware/generate.py uses it for power_budget.md.
# Integers only, nothing allocated per frame; runs unchanged on MicroPython and CPython.
from kernels.compat import const

_FULL = const(255)  # a channel at full
_ONE = const(256)  # the scale that leaves a channel unchanged


def frame_current_ma(buf, count, ma_per_channel, idle_ma):
    """Current (mA) of the first `count` LEDs of a 3-bytes-per-LED frame.

    Each LED draws `idle_ma` even when dark, plus `ma_per_channel` per channel at 255.
    """
    n = count * 3
    if len(buf) == n:
        total = sum(buf)  # a C loop over the bytes; allocates nothing
    else:
        total = 0
        for i in range(n):
            total += buf[i]
    return count * idle_ma + total * ma_per_channel // _FULL


def budget_ma(supply_ma, reserve_ma):
    """What the LEDs may draw: the supply less the controller's share and margin."""
    return supply_ma - reserve_ma


def limit_scale(current_ma, budget, fixed_ma=0):
    """Scale 0..256 (channel * scale >> 8) that brings a frame within `budget` mA.

    `fixed_ma` is the part no scale removes (the idle draw of the LEDs); 256 = unchanged.
    """
    if current_ma <= budget:
        return _ONE
    room = budget - fixed_ma
    if room <= 0:
        return 0
    return room * _ONE // (current_ma - fixed_ma)


def dim(buf, n, scale):
    """Multiply the first `n` bytes of `buf` by scale/256 in place."""
    if scale >= _ONE:
        return
    for i in range(n):
        buf[i] = buf[i] * scale >> 8


def level_scale(level):
    """A brightness setting (0-255) as a dim() scale: 255 keeps full channels as they are."""
    return level + 1


def limit(buf, count, ma_per_channel, idle_ma, budget):
    """Dim a finished frame in place so that it fits `budget`; returns the scale used."""
    scale = limit_scale(
        frame_current_ma(buf, count, ma_per_channel, idle_ma), budget, count * idle_ma
    )
    dim(buf, count * 3, scale)
    return scale


def worst_case(count, level, ma_per_channel, idle_ma, budget):
    """The brightest frame at a brightness setting: every LED white, before and after limit().

    Returns (channel value, mA before, limiter scale, channel value after, mA after).
    """
    buf = bytearray(b"\xff" * (count * 3))
    dim(buf, count * 3, level_scale(level))
    value = buf[0]
    before = frame_current_ma(buf, count, ma_per_channel, idle_ma)
    scale = limit(buf, count, ma_per_channel, idle_ma, budget)
    return value, before, scale, buf[0], frame_current_ma(buf, count, ma_per_channel, idle_ma)
