# Positions from {point: checkers} for the tests (MicroPython too): tests/engine, tests/firmware.
#
# Under pytest tests/conftest.py puts this folder on sys.path; tests/mprun.py and
# tests/test_firmware_micropython.py do the same under MicroPython.
from gammon.position import Position


def side(points):
    """25 counts from {point: checkers} in a side's own numbering (25 = bar)."""
    out = [0] * 25
    for k in points:
        out[k - 1] = points[k]
    return out


def pos(me, opp):
    """The Position with `me` on roll, both sides as {point: checkers}."""
    return Position(side(me), side(opp))


def raises(func, *args):
    """True when func(*args) raises ValueError."""
    try:
        func(*args)
    except ValueError:
        return True
    return False


def ids(plays):
    """The sorted Position IDs after each play (the mover still on roll)."""
    return sorted(p.result.position_id() for p in plays)


def is_legal(position, roll, play):
    """True when `play` is one of the legal plays of `roll` (compared by code: no Play objects,
    so it works in a small heap even for thousands of plays)."""
    from gammon import legal_plays

    codes = legal_plays(position, roll).codes
    for i in range(len(codes)):
        if codes[i] == play.code:
            return True
    return False
