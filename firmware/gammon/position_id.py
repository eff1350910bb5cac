# A Position ID (gnubg's 14 base64 characters) read back into checker counts: for resuming a
# save and for the host; a board in play only writes them (gammon/position.py).
from binascii import a2b_base64

_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def decode(pid):
    """(mover's 25 counts, opponent's 25) of Position ID `pid`; ValueError when it is not
    one (its length, its alphabet, its checkers)."""
    if not isinstance(pid, str) or len(pid) != 14:
        raise ValueError("a Position ID has 14 characters: %r" % (pid,))
    for c in pid:
        if c not in _B64:
            raise ValueError("a Position ID is base64, not %r: %r" % (c, pid))
    try:
        key = a2b_base64(pid + "==")
    except Exception:
        raise ValueError("a Position ID is base64: %r" % pid) from None
    if len(key) != 10:
        raise ValueError("a Position ID decodes to 10 bytes: %r" % pid)
    sides = ([0] * 25, [0] * 25)  # opponent first, as in the ID
    side = point = 0
    for j in range(80):
        if side > 1:
            if key[j >> 3] >> (j & 7) & 1:
                raise ValueError("a Position ID with too many checkers: %r" % pid)
            continue
        if key[j >> 3] >> (j & 7) & 1:
            sides[side][point] += 1
        else:
            point += 1
            if point == 25:
                side += 1
                point = 0
    if side < 2:
        raise ValueError("a Position ID with too many checkers: %r" % pid)
    return sides[1], sides[0]
