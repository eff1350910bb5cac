# The contact inputs of gammon/features.py (its header defines each, after GNU Backgammon's
# CalculateHalfInputs) in one viper pass a side: the same integers, in units of 1/4096, for
# both sides of a 50-byte board into a caller's array('i') of 2 * COUNT, nothing allocated.
# gammon/features.py stays the plain reference (tests/test_features_kernel.py holds this to
# it on CPython, on MicroPython as viper and as the web page's plain bytecode). Where the
# reference walks the 12 points ahead of a checker, this reads them from a 24-bit mask of
# the points a side holds: the points 1-12 pips ahead of a checker on the other side's
# index `at` are bits 24 - at .. 35 - at of the holder's mask (bits past 23 are empty), so a
# checker's escapes are one shift and one table read.
from kernels.compat import MICROPY, const

if MICROPY:
    import micropython
else:
    from kernels.compat import emitters as micropython
    from kernels.compat import ptr8, ptr32

COUNT = const(18)  # a side's inputs (gammon/features.py's order)


@micropython.viper
def _escapes_table(t):
    """t[mask]: the rolls of 36 past a checker whose points 1-12 pips ahead are held where
    `mask` has a bit (bit k: k + 1 pips): the point d1 + d2 ahead open, and d1 or d2 ahead
    open (a double once, the others twice). Made at import: 4,096 bytes, no table in flash."""
    p = ptr8(t)
    mask = 0
    while mask < 4096:
        c = 0
        a = 0
        while a < 6:
            b = 0
            while b <= a:
                if (mask >> (a + b + 1)) & 1 == 0 and ((mask >> a) & (mask >> b) & 1) == 0:
                    c += 1 if a == b else 2
                b += 1
            a += 1
        p[mask] = c
        mask += 1


_ESCAPES = bytearray(4096)
_escapes_table(_ESCAPES)


@micropython.viper
def _side(board, s: int, out, t):
    """The inputs of the side at board[s:s + 25] (s 0 or 25) into out[0:COUNT] (s 0) or
    out[COUNT:2 * COUNT] (s 25); t the escapes table. Each fraction num / den is rounded
    as the reference's _frac rounds it, (num * 8192 + den) // (2 * den): every num here
    is at most 10,260 (the mobility: 15 checkers, 36 rolls, 19 pips), so under 2**27."""
    b = ptr8(board)
    o = ptr32(out)
    e = ptr8(t)
    op = 25 - s
    at = 0 if s == 0 else COUNT
    # the opponent: its rearmost checker's index and the points it holds (bit j: its index j)
    oback = -1
    oheld = 0
    j = 0
    while j < 25:
        c = int(b[op + j])
        if c != 0:
            oback = j
            if c >= 2 and j < 24:
                oheld |= 1 << j
        j += 1
    ob = 23 - oback  # in this side's numbering (24 when it has none)
    # this side, one pass: count, pips, rearmost, points held, break contact, mobility
    n = 0
    pips = 0
    back = 0
    held = 0
    anchor = 0
    brk = 0
    mob = 0
    i = 0
    while i < 25:
        c = int(b[s + i])
        if c != 0:
            n += c
            pips += c * (i + 1)
            back = i
            if c >= 2 and i < 24:
                held |= 1 << i
                anchor = i + 1
            if i > ob:
                brk += c * (i + 1 - ob)
            if i >= 6:
                mob += c * int(e[(oheld >> (24 - i)) & 4095]) * (i - 5)
        i += 1
    off = 15 - n
    v = off if off < 5 else 5
    o[at] = (v * 8192 + 5) // 10
    v = off - 5 if off > 5 else 0
    if v > 5:
        v = 5
    o[at + 1] = (v * 8192 + 5) // 10
    v = off - 10 if off > 10 else 0
    o[at + 2] = (v * 8192 + 5) // 10
    o[at + 3] = (brk * 8192 + 167) // 334
    o[at + 4] = (back * 8192 + 24) // 48
    o[at + 5] = (anchor * 8192 + 24) // 48
    # the forward anchor: the opponent's point k held, its home from k 6 down, then its
    # outfield from k 7 up (the side's indices 18 up, then 17 down)
    k = 0
    i = 18
    while i < 24:
        if (held >> i) & 1 != 0:
            k = 24 - i
            break
        i += 1
    if k == 0:
        i = 17
        while i >= 12:
            if (held >> i) & 1 != 0:
                k = 24 - i
                break
            i -= 1
    o[at + 6] = (k * 8192 + 6) // 12 if k != 0 else 8192
    # the opponent's checkers against this side's points: its rearmost, then its index j
    # from 15 (this side's 9 point) in, to the rearmost (the bar too) and to 23
    shift = 24 - oback  # 25 when it has none: no point ahead, 36 escapes
    o[at + 7] = (int(e[(held >> shift) & 4095]) * 8192 + 36) // 72
    least = 36
    least_all = 36
    j = 15
    while j < 25:
        x = int(e[(held >> (24 - j)) & 4095])
        if j < 24 and x < least_all:
            least_all = x
        if j <= oback and x < least:
            least = x
        j += 1
    x = 36 - least
    o[at + 8] = (x * 8192 + 36) // 72
    o[at + 9] = (x * x * 8192 + 1296) // 2592
    x = 36 - least_all
    o[at + 10] = (x * 8192 + 36) // 72
    o[at + 11] = (x * x * 8192 + 1296) // 2592
    o[at + 12] = (mob * 8192 + 3600) // 7200
    # the spread: the mean index rounded up, the mean square beyond it rounded up
    mean = (pips - 1) // n if n != 0 else 0
    num = 0
    k = 0
    i = mean + 1
    while i < 25:
        c = int(b[s + i])
        num += c * (i - mean) * (i - mean)
        k += c
        i += 1
    o[at + 13] = (((num + k - 1) // k) * 8192 + 400) // 800 if k != 0 else 0
    closed = 0
    j = 0
    while j < 6:
        closed += (oheld >> j) & 1
        j += 1
    o[at + 14] = (closed * (12 - closed) * 8192 + 36) // 72
    # the back game: points held in the opponent's home, checkers there and on the bar
    points = 0
    there = int(b[s + 24])
    i = 18
    while i < 24:
        points += (held >> i) & 1
        there += int(b[s + i])
        i += 1
    o[at + 15] = ((there - 3) * 8192 + 4) // 8 if points >= 2 else 0
    o[at + 16] = (there * 8192 + 8) // 16 if points == 1 else 0
    o[at + 17] = (pips * 8192 + 167) // 334


def inputs(board, out):
    """Both sides' inputs for the 50-byte `board` into `out` (an array('i') of 2 * COUNT),
    the side on roll's (board[:25]) first, as gammon.features.inputs gives them; `out`."""
    _side(board, 0, out, _ESCAPES)
    _side(board, 25, out, _ESCAPES)
    return out
