# The move generator: every sequence of dice moves, made and unmade in place on 50 bytes.
from array import array

from kernels.compat import MICROPY, const

if MICROPY:
    import micropython
else:
    from kernels.compat import emitters as micropython
    from kernels.compat import ptr8, ptr32


# A play code is one small int: bits 0-19 hold each step's source index + 1 (5 bits a step),
# bits 20-22 the number of steps, bit 23 set when the lower die was played first, bits 24-27
# whether each step hit. Codes keep thousands of plays in a few kilobytes of heap.
LEN_SHIFT = const(20)
ORDER_BIT = const(23)
HIT_SHIFT = const(24)

# Workspace layout (a 16-byte bytearray shared by the caller and the search).
_W_NDICE = const(0)
_W_CANON = const(1)
_W_DICE = const(2)
_W_SRC = const(6)
_W_HIT = const(10)
_W_ORDER = const(14)
_W_GOAL = const(15)  # a search stops once it has found a sequence this long (bits 0-2),
_TWO = const(8)  # ... or, with this bit, two of them (Turn: is the play forced?)
_CHUNK = const(64)
_CHUNK_SHIFT = const(6)
_CHUNK_MASK = const(63)
_MAX_KEYS = const(511)  # two-step plays of one roll: at most 2 orders x 15 x 15 sources


@micropython.viper
def _search(b, w, out, keys) -> int:
    """Depth-first search over dice w[2:2+w[0]]; appends the codes of the longest sequences.

    With w[1] set (doubles) sources never rise, so each multiset of moves, hence each
    result, is generated exactly once. Returns the longest sequence length found, or, once
    a sequence of at least w[15] & 7 moves is found (two of them with w[15] & 8), that
    one's length: the search then only unwinds (Turn asks only whether the dice left can
    still be played out, and whether a throw has more than one play).
    """
    p = ptr8(b)
    q = ptr8(w)
    nd = int(q[0])
    canon = int(q[1])
    order = int(q[14])
    goal = int(q[15]) & 7
    two = int(q[15]) & _TWO
    best = -1
    count = 0
    cp = ptr32(out.reset())
    k = 0
    s = 24
    found = 0  # bit k: level k has made at least one move
    while True:
        descended = 0
        if k < nd and (best < goal or (two != 0 and count < 2)):
            d = int(q[2 + k])
            while s >= 0:
                if int(p[s]) != 0 and (s == 24 or int(p[24]) == 0):
                    t = s - d
                    ok = 0
                    h = 0
                    if t >= 0:
                        c = int(p[48 - t])
                        if c < 2:
                            ok = 1
                            h = c
                    else:
                        i = 6
                        while i < 25:
                            if int(p[i]) != 0:
                                break
                            i += 1
                        if i == 25:  # all home: bear off exactly, or from the highest point
                            if t == -1:
                                ok = 1
                            else:
                                i = s + 1
                                while i < 6:
                                    if int(p[i]) != 0:
                                        break
                                    i += 1
                                if i == 6:
                                    ok = 1
                    if ok != 0:
                        p[s] = int(p[s]) - 1
                        if t >= 0:
                            p[t] = int(p[t]) + 1
                            if h != 0:
                                p[48 - t] = 0
                                p[49] = int(p[49]) + 1
                        q[6 + k] = s
                        q[10 + k] = h
                        found = (found | (1 << k)) & ~(2 << k)
                        k += 1
                        if canon == 0:
                            s = 24
                        descended = 1
                        break
                s -= 1
        if descended != 0:
            continue
        # Level k is finished: a leaf if it made no move (or all dice are used).
        if k == nd or (found >> k) & 1 == 0:
            fresh = 1
            if k == 2 and canon == 0:
                fresh = int(_fresh(w, keys))
            if k >= best and fresh != 0:
                if k > best:
                    cp = ptr32(out.reset())
                    count = 0
                    best = k
                elif count != 0 and (count & _CHUNK_MASK) == 0:
                    cp = ptr32(out.grow())
                code = (k << LEN_SHIFT) | (order << ORDER_BIT)
                i = 0
                while i < k:
                    code |= (int(q[6 + i]) + 1) << (5 * i)
                    code |= int(q[10 + i]) << (HIT_SHIFT + i)
                    i += 1
                cp[count & _CHUNK_MASK] = code
                count += 1
        if k == 0:
            break
        k -= 1
        s = int(q[6 + k])
        t = s - int(q[2 + k])
        p[s] = int(p[s]) + 1
        if t >= 0:
            p[t] = int(p[t]) - 1
            if int(q[10 + k]) != 0:
                p[48 - t] = 1
                p[49] = int(p[49]) - 1
        s -= 1
    out.n = count
    return best


@micropython.viper
def _fresh(q, keys) -> int:
    """Records what a two-step play changes; 0 if an earlier play changed the same.

    Both orders of the dice, and chains through a point already held, reach one result
    in several ways; the change (sources, destinations, hit points) identifies it exactly.
    """
    w = ptr8(q)
    ks = ptr32(keys)
    s1 = int(w[6])
    s2 = int(w[7])
    t1 = s1 - int(w[2])
    t2 = s2 - int(w[3])
    if t1 < 0:
        t1 = -1
    if t2 < 0:
        t2 = -1
    h1 = 31
    if int(w[10]) != 0:
        h1 = t1
    h2 = 31
    if int(w[11]) != 0:
        h2 = t2
    if h1 > h2:
        x = h1
        h1 = h2
        h2 = x
    if t1 == s2:
        key = s1 | (31 << 5) | ((t2 + 1) << 10) | (31 << 15)
    elif t2 == s1:
        key = s2 | (31 << 5) | ((t1 + 1) << 10) | (31 << 15)
    else:
        if s1 < s2:
            x = s1
            s1 = s2
            s2 = x
        if t1 < t2:
            x = t1
            t1 = t2
            t2 = x
        key = s1 | (s2 << 5) | ((t1 + 1) << 10) | ((t2 + 1) << 15)
    key = key | (h1 << 20) | (h2 << 25)
    n = ks[0]
    i = 1
    while i <= n:
        if ks[i] == key:
            return 0
        i += 1
    if n < _MAX_KEYS:
        ks[n + 1] = key
        ks[0] = n + 1
    return 1


_ZERO_CHUNK = bytes(4 * _CHUNK)
_work = bytearray(16)
_keys = array("i", bytes(4 * (_MAX_KEYS + 1)))


class CodeList:
    """Play codes in 256-byte chunks: no large block to grow, so thousands fit a small heap.
    Up to `keep` chunks stay from one search to the next (the board player's own list keeps
    4, so its searches write codes without allocating); reset() lets the others go."""

    def __init__(self, keep=1):
        self.keep = keep
        self.chunks = [array("i", _ZERO_CHUNK)]
        self.used = 1
        self.n = 0

    def reset(self):
        if len(self.chunks) > self.keep:
            del self.chunks[self.keep :]
        self.used = 1
        self.n = 0
        return self.chunks[0]

    def grow(self):
        if self.used == len(self.chunks):
            self.chunks.append(array("i", _ZERO_CHUNK))
        self.used += 1
        return self.chunks[self.used - 1]

    def append(self, code):
        if self.n and self.n & _CHUNK_MASK == 0:
            self.grow()
        self.chunks[self.used - 1][self.n & _CHUNK_MASK] = code
        self.n += 1

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if i < 0:
            i += self.n
        if i < 0 or i >= self.n:
            raise IndexError("play index out of range")
        return self.chunks[i >> _CHUNK_SHIFT][i & _CHUNK_MASK]


def search(board, dice, out, order=0, goal=5):
    """Fills `out` with the codes of the longest legal sequences of `dice` in that order;
    their length. With `goal`, stops at the first sequence of at least `goal` moves (then
    `out` holds only the codes found so far, and the length is that sequence's).

    Uses module buffers: one search at a time (the board runs one task at a time).
    """
    w = _work
    n = len(dice)
    w[_W_NDICE] = n
    w[_W_CANON] = 1 if n > 1 and dice[0] == dice[1] else 0
    for i in range(n):
        w[_W_DICE + i] = dice[i]
    w[_W_ORDER] = order
    w[_W_GOAL] = goal
    return _search(board, w, out, _keys)


def play_codes(board, dice, out=None, two=False):
    """Codes of every distinct legal play; `board` (a 50-byte bytearray) is left unchanged.
    `out`: a CodeList to fill (the board's player keeps its own), else a new one. `two`:
    stop at the second play that uses every die (out.n is then 2, not all of them): a Turn
    asks only whether its play is forced, and the whole search of 1-1 in a spread position
    took ~60 us of a throw's step, of 3-1 ~45."""
    d1, d2 = dice
    if out is None:
        out = CodeList()
    if d1 == d2:
        if search(board, (d1, d1, d1, d1), out, 0, 4 | _TWO if two else 5) <= 0:
            out.reset()
        return out
    hi, lo = (d1, d2) if d1 > d2 else (d2, d1)
    _keys[0] = 0
    best1 = search(board, (hi, lo), out, 0, 2 | _TWO if two else 5)
    if best1 == 2 and out.n >= 2 and two:  # two distinct plays (the keys tell twins)
        return out
    second = _second
    best2 = search(board, (lo, hi), second, 1)
    if best1 == 2:
        if best2 == 2:
            for i in range(len(second)):
                out.append(second[i])
        return out
    if best2 == 2 or (best1 < 1 and best2 == 1):
        out.reset()
        for i in range(len(second)):
            out.append(second[i])
    elif best1 < 1:
        out.reset()  # no move at all
    return out  # with one die only, the larger when it can be played


_second = CodeList()  # scratch for the second order of the dice
