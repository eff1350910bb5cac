# Inputs that say what a contact position means, after the hand-made inputs of GNU
# Backgammon's contact network (its published list: checkers off, the pips to break contact,
# the back checker and anchors, escapes, containment, mobility, the spread of the checkers,
# the bar, the back game), defined here in our own terms and computed with small integers
# only (every value and product below 2**30, so they stay small ints on a 32-bit board and
# machine words under viper), in units of 1/4096 (ONE). Not yet an input of the board's
# network: the networks by phase that will read them are trained on the host first
# (docs/opponent.md, "Inputs that carry meaning").
#
# A side's counts are 25 bytes at board[s:s + 25] of a 50-byte board (gammon.Position.key()):
# index i its point i + 1 (its own numbering), 24 its bar. The opponent's index j is the
# side's index 23 - j.
from array import array

from kernels.compat import const

ONE = const(4096)
# one side's inputs, in this order
OFF1 = const(0)  # checkers off: min(n, 5) / 5
OFF2 = const(1)  # ... min(max(n - 5, 0), 5) / 5
OFF3 = const(2)  # ... max(n - 10, 0) / 5
BREAK_CONTACT = const(3)  # pips its checkers need to pass the opponent's rearmost, / 167
BACK_CHECKER = const(4)  # its rearmost checker's index (the bar 24) / 24
BACK_ANCHOR = const(5)  # (its rearmost point held with two or more + 1) / 24, 0 if none
FORWARD_ANCHOR = const(6)  # its most forward point held in the opponent's home (the
# opponent's point k, 1-6) k / 6, else in the opponent's outfield (k 7-12) k / 6, else 2
BACK_ESCAPES = const(7)  # rolls of 36 that let its rearmost checker escape, / 36
ACONTAIN = const(8)  # 1 - n / 36, n the fewest escapes the opponent would have from its own
# points 16 (the side's 9 point) to its rearmost checker; 0 when that is past
ACONTAIN2 = const(9)  # its square
CONTAIN = const(10)  # the same from the opponent's points 16 to 24 (the side's 9 to 1 point)
CONTAIN2 = const(11)  # its square
MOBILITY = const(12)  # over its checkers outside its home: escapes * (index - 5), / 3600
MOMENT2 = const(13)  # mean square distance beyond the mean position of the checkers behind
# it (positions index + 1, the bar 25), / 400
ENTER2 = const(14)  # the chance a checker on the bar stays out: (closed points of the
# opponent's home / 6) squared
BACKGAME = const(15)  # two or more points held in the opponent's home: (its checkers on
# those six points and the bar - 3) / 4, else 0
BACKGAME1 = const(16)  # exactly one held there: those checkers / 8, else 0
PIPS = const(17)  # its pip count / 167
COUNT = const(18)  # a side's inputs


def _escapes_table():
    """For each 12-bit mask of the points 1-12 pips ahead of a checker that the other side
    holds (bit k: k + 1 pips), the rolls of 36 that carry it past: the point d1 + d2 ahead
    open, and d1 or d2 ahead open (a double counts as once, the others twice)."""
    t = bytearray(4096)
    for mask in range(4096):
        c = 0
        for a in range(6):
            for b in range(a + 1):
                if not mask & (1 << (a + b + 1)) and not (mask & (1 << a) and mask & (1 << b)):
                    c += 1 if a == b else 2
        t[mask] = c
    return t


_ESCAPES = _escapes_table()


def escapes(board, blocker, s, at):
    """Rolls of 36 that let a checker of the side at board[s:] standing on its index `at`
    (1-24) escape past the points of the side at board[blocker:] (held: two or more)."""
    mask = 0
    k = 0
    while k < 12 and at - k - 1 >= 0:
        if board[blocker + 23 - (at - k - 1)] >= 2:
            mask |= 1 << k
        k += 1
    return _ESCAPES[mask]


def _frac(num, den):
    """round(num * ONE / den) for 0 <= num < 2**24 * den, den < 2**24, in small ints: the
    quotient, then the remainder's 12 bits in two steps of 6."""
    q = num // den
    r = (num - q * den) * 64
    hi = r // den
    return q * ONE + hi * 64 + (((r - hi * den) * 64 + den // 2) // den)


def side_inputs(board, s, out, at=0):
    """The inputs of the side at board[s:s + 25] (s 0 or 25) into out[at:at + COUNT]."""
    o = 25 - s  # the other side
    n = 0
    pips = 0
    back = -1
    for i in range(25):
        c = board[s + i]
        if c:
            n += c
            pips += c * (i + 1)
            back = i
    off = 15 - n
    out[at + OFF1] = _frac(min(off, 5), 5)
    out[at + OFF2] = _frac(min(max(off - 5, 0), 5), 5)
    out[at + OFF3] = _frac(max(off - 10, 0), 5)
    # the opponent's rearmost checker, in this side's numbering (its index j -> 23 - j)
    oback = -1
    for j in range(25):
        if board[o + j]:
            oback = j
    ob = 23 - oback if oback >= 0 else -1
    brk = 0
    if oback >= 0:
        for i in range(ob + 1, 25):
            brk += board[s + i] * (i - ob)
    out[at + BREAK_CONTACT] = _frac(brk, 167)
    out[at + BACK_CHECKER] = _frac(max(back, 0), 24)
    anchor = 0
    for i in range(24):
        if board[s + i] >= 2:
            anchor = i + 1
    out[at + BACK_ANCHOR] = _frac(anchor, 24)
    fwd = 2 * ONE
    for lo, hi in ((18, 24), (12, 18)):
        for i in range(lo, hi):
            if board[s + i] >= 2:
                fwd = _frac(24 - i, 6)
                break
        if fwd != 2 * ONE:
            break
    out[at + FORWARD_ANCHOR] = fwd
    out[at + BACK_ESCAPES] = _frac(escapes(board, o, s, back), 36) if back > 0 else ONE
    # containment of the opponent: its checker on its index j (15-23: this side's points 9-1)
    least_all = least = 36
    for j in range(15, 24):
        e = escapes(board, s, o, j)
        if e < least_all:
            least_all = e
        if j <= oback and e < least:
            least = e
    out[at + ACONTAIN] = _frac(36 - least, 36)
    out[at + ACONTAIN2] = _frac((36 - least) * (36 - least), 1296)
    out[at + CONTAIN] = _frac(36 - least_all, 36)
    out[at + CONTAIN2] = _frac((36 - least_all) * (36 - least_all), 1296)
    mob = 0
    for i in range(6, 25):
        c = board[s + i]
        if c:
            mob += c * escapes(board, o, s, i) * (i - 5)
    out[at + MOBILITY] = _frac(mob, 3600)
    # the spread: positions p = index + 1, mean A = pips / n; over the checkers with p > A,
    # the mean of (p - A)**2 = sum (n p - pips)**2 / (k n**2)
    num = 0
    k = 0
    if n:
        for i in range(25):
            c = board[s + i]
            d = n * (i + 1) - pips
            if c and d > 0:
                num += c * d * d
                k += c
    out[at + MOMENT2] = _frac(num, k * n * n * 400) if k else 0
    closed = 0
    for j in range(6):
        if board[o + j] >= 2:
            closed += 1
    out[at + ENTER2] = _frac(closed * closed, 36)
    held = 0
    there = 0
    for i in range(18, 25):
        c = board[s + i]
        there += c
        if i < 24 and c >= 2:
            held += 1
    out[at + BACKGAME] = _frac(there - 3, 4) if held >= 2 and there > 3 else 0
    out[at + BACKGAME1] = _frac(there, 8) if held == 1 else 0
    out[at + PIPS] = _frac(pips, 167)


def inputs(board, out=None):
    """Both sides' inputs for a 50-byte board, the side on roll's first: an array of
    2 * COUNT ints (out, when given, is filled and returned)."""
    if out is None:
        out = array("i", bytes(8 * COUNT))
    side_inputs(board, 0, out, 0)
    side_inputs(board, 25, out, COUNT)
    return out
