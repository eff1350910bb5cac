# Inputs that say what a contact position means: the hand-made inputs of GNU Backgammon's
# contact network (eval.c's CalculateHalfInputs, for one side against the other: checkers
# off, the pips to break contact, the back checker and anchors, escapes, containment,
# mobility, the spread of the checkers, the bar, the back game), each as gnubg's code
# computes it (not only as its comments describe it; where ours differs, the line says so),
# with small integers only (every value and product below 2**30, so they stay small ints on
# a 32-bit board and machine words under viper), in units of 1/4096 (ONE), rounded half up.
# Not yet an input of the board's network: the networks by phase that will read them are
# trained on the host first (docs/opponent.md, "Inputs that carry meaning"). The board's
# fast path is native/kernels/features.py (the same integers, tests/test_features_kernel.py);
# this module is the plain reference it is held to.
#
# A side's counts are 25 bytes at board[s:s + 25] of a 50-byte board (gammon.Position.key()):
# index i its point i + 1 (its own numbering), 24 its bar. The opponent's index j is the
# side's index 23 - j. A side's inputs are gnubg's half inputs with that side as `anBoard`.
from array import array

from kernels.compat import const

ONE = const(4096)
# one side's inputs, in this order
OFF1 = const(0)  # checkers off: min(n, 5) / 5 (gnubg's crashed network's menOffAll; its
OFF2 = const(1)  # ... min(max(n - 5, 0), 5) / 5     contact network reads thirds, and puts
OFF3 = const(2)  # ... max(n - 10, 0) / 5            the other side's in a side's block)
BREAK_CONTACT = const(3)  # pips its checkers need to pass the opponent's rearmost checker
# (one on index i, that checker on the side's index b: i - b + 1), / 167
BACK_CHECKER = const(4)  # its rearmost checker's index (the bar 24) / 24
BACK_ANCHOR = const(5)  # (its rearmost point held with two or more + 1) / 24, 0 if none
# (gnubg's index / 24, -1 / 24 if none, plus 1/24: never negative)
FORWARD_ANCHOR = const(6)  # a point it holds in the opponent's home, the opponent's point
# k (1-6) furthest from the opponent's 1 point, k / 6; else one in the opponent's outfield,
# k (7-12) nearest to its home (gnubg's loop runs from its 7 point out), k / 6; else 2
BACK_ESCAPES = const(7)  # rolls of 36 that let the opponent's rearmost checker escape past
# this side's points, / 36 (gnubg's I_BACKESCAPES: Escapes(anBoard, its back checker); 1
# when that checker is on the opponent's 1 point)
ACONTAIN = const(8)  # 1 - n / 36, n the fewest escapes the opponent would have from its own
# points 16 (the side's 9 point) to its rearmost checker, the bar included when one is
# there; 0 when that is past
ACONTAIN2 = const(9)  # its square
CONTAIN = const(10)  # the same from the opponent's points 16 to 24 (the side's 9 to 1 point)
CONTAIN2 = const(11)  # its square
MOBILITY = const(12)  # over its checkers outside its home: escapes * (index - 5), / 3600
MOMENT2 = const(13)  # the spread beyond the mean, in gnubg's integers: the mean index m
# rounded up, over the checkers past m the mean of (index - m)**2 rounded up, / 400
ENTER2 = const(14)  # 1 - (1 - n / 6)**2, n the closed points of the opponent's home (gnubg's
# formula; its comment calls it the chance one checker stays out, which is (n / 6)**2)
BACKGAME = const(15)  # two or more points held in the opponent's home: (its checkers on
# those six points and the bar - 3) / 4, else 0
BACKGAME1 = const(16)  # exactly one held there: those checkers / 8, else 0
PIPS = const(17)  # its pip count / 167 (ours: gnubg's contact inputs have none)
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
    (24 its bar) escape past the points of the side at board[blocker:] (held: two or more);
    36 for `at` 0 or below (nothing ahead: gnubg's Escapes of index 0)."""
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
    ob = 23 - oback  # in this side's numbering (24 when it has none)
    brk = 0
    for i in range(ob + 1, 25):  # (none when the opponent has no checker: ob is then 24)
        brk += board[s + i] * (i + 1 - ob)
    out[at + BREAK_CONTACT] = _frac(brk, 167)
    out[at + BACK_CHECKER] = _frac(max(back, 0), 24)
    anchor = 0
    for i in range(24):
        if board[s + i] >= 2:
            anchor = i + 1
    out[at + BACK_ANCHOR] = _frac(anchor, 24)
    k = 0  # the opponent's point held, 0 for none
    for i in range(18, 24):
        if board[s + i] >= 2:
            k = 24 - i
            break
    if not k:
        for i in range(17, 11, -1):
            if board[s + i] >= 2:
                k = 24 - i
                break
    out[at + FORWARD_ANCHOR] = _frac(k, 6) if k else 2 * ONE
    out[at + BACK_ESCAPES] = _frac(escapes(board, s, o, oback), 36)
    # containment of the opponent: its checker on its index j (15-23: this side's points 9-1;
    # 24 its bar)
    least_all = least = 36
    for j in range(15, 25):
        e = escapes(board, s, o, j)
        if j < 24 and e < least_all:
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
    mean = (pips - 1) // n if n else 0  # the mean index, (pips - n) / n, rounded up
    num = 0
    k = 0
    for i in range(mean + 1, 25):
        c = board[s + i]
        num += c * (i - mean) * (i - mean)
        k += c
    out[at + MOMENT2] = _frac((num + k - 1) // k, 400) if k else 0
    closed = 0
    for j in range(6):
        if board[o + j] >= 2:
            closed += 1
    out[at + ENTER2] = _frac(closed * (12 - closed), 36)  # 36 - (closed - 6)**2
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
