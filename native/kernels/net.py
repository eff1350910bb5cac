# The board's position evaluator: a trained network in fixed-point integers, under viper.
# Inputs are sparse (about 30 of 198 are non-zero), so only those are summed; weights stay
# in bytearrays of int8/int16 (no float objects), read as host/ledgammon/train/export.py
# writes them. Same integers on MicroPython and CPython, so the host tests the board's maths.
from kernels.compat import MICROPY, const

if MICROPY:
    import micropython
else:
    from kernels.compat import emitters as micropython
    from kernels.compat import ptr8, ptr16, ptr32


_SIDE = const(99)
_HALF = const(50)  # input rows per weight block (Net.rows)
_BIAS = const(198)  # the always-on input that carries the hidden biases
_ONE = const(64)  # an input of 1.0
_HIDDEN_ONE = const(4096)  # a hidden activation of 1.0
PROB_ONE = const(4096)  # an output probability of 1.0; equities count in these units
_MAX_ACTIVE = const(200)  # (input, change) pairs: more than two boards can differ by
# What the equity counts each of the outputs wins/loses a gammon, a backgammon (beyond the
# gammon) for the side on roll: out of PROB_ONE, 4096 each in money play (Net.set_values).
MONEY = (PROB_ONE, PROB_ONE, PROB_ONE, PROB_ONE)
VALUE_MAX = const(32768)  # a value's bound: four products of it by 4096 stay under 2**29


def _sigmoid_table():
    """4096 * sigmoid(x) for x = -8 .. 8 in steps of 1/32 (513 uint16), made once at load."""
    from array import array
    from math import exp

    t = array("H", bytes(2 * 513))
    for i in range(513):
        t[i] = int(PROB_ONE / (1 + exp((256 - i) / 32)) + 0.5)
    return t


_SIG = _sigmoid_table()


# Stored sums carry an offset of 2**30 (shifted at run time inside viper: a literal that
# large is not a small int on a 32-bit board) so they stay positive: |sum| < 2**29 (export.py).
_SIGNED = const(32768)  # changes of an input are stored as value + 32768


@micropython.viper
def _changes(pair, sides: int, act) -> int:
    """Inputs that differ between the boards pair[:50] and pair[50:], as (index, change +
    32768) pairs in `act`: a play moves a few checkers, so a handful of inputs change."""
    p = ptr8(pair)
    a = ptr16(act)
    n = 0
    side = 0
    while side < 2:
        off = (sides >> (8 * side)) & 255
        base = 99 * side
        left = 0
        pips = 0
        i = 0
        while i < 25:
            c0 = int(p[off + i])
            c1 = int(p[50 + off + i])
            left += c0 - c1
            pips += (c1 - c0) * (i + 1)
            if c0 != c1:
                if i == 24:
                    a[n] = base + 96
                    a[n + 1] = 32 * (c1 - c0) + _SIGNED
                    n += 2
                else:
                    k = base + 4 * i
                    d = (_ONE if c1 >= 1 else 0) - (_ONE if c0 >= 1 else 0)
                    if d != 0:
                        a[n] = k
                        a[n + 1] = d + _SIGNED
                        n += 2
                    d = (_ONE if c1 >= 2 else 0) - (_ONE if c0 >= 2 else 0)
                    if d != 0:
                        a[n] = k + 1
                        a[n + 1] = d + _SIGNED
                        n += 2
                    d = (_ONE if c1 >= 3 else 0) - (_ONE if c0 >= 3 else 0)
                    if d != 0:
                        a[n] = k + 2
                        a[n + 1] = d + _SIGNED
                        n += 2
                    d = (32 * (c1 - 3) if c1 > 3 else 0) - (32 * (c0 - 3) if c0 > 3 else 0)
                    if d != 0:
                        a[n] = k + 3
                        a[n + 1] = d + _SIGNED
                        n += 2
            i += 1
        if left != 0:  # checkers borne off: 4 * off in 1/64 units
            a[n] = base + 97
            a[n + 1] = 4 * left + _SIGNED
            n += 2
        if pips != 0:
            a[n] = base + 98
            a[n + 1] = pips + _SIGNED
            n += 2
        side += 1
    return n >> 1


@micropython.viper
def _accumulate(rows, act, packed: int, acc):
    """Sums of the hidden units into acc[2h:3h] from a base and the changed inputs in `act`.

    packed = n | hidden << 8 | mode << 16. The base is acc[h:2h] (mode 1), or acc[3h:4h],
    the sums of an empty board (mode 0: a whole board's inputs are its changes from an empty
    one), which mode 2 also keeps as the new base. One input's weights are adjacent, so each
    changed input is one pass over a short row. The rows are in four blocks (Net.rows): the
    player on roll's inputs 0-49 and 50-98, the other side's 99-148 and 149-197 with the bias.
    """
    p0 = ptr8(rows[0])
    p1 = ptr8(rows[1])
    p2 = ptr8(rows[2])
    p3 = ptr8(rows[3])
    a = ptr16(act)
    h = ptr32(acc)
    n = packed & 255
    units = (packed >> 8) & 255
    mode = packed >> 16
    work = 2 * units
    base = units if mode == 1 else 3 * units
    j = 0
    while j < units:
        h[work + j] = int(h[base + j])
        j += 1
    end = work + units
    quads = work + (units & ~3)
    k = 0
    while k < n:
        i = int(a[2 * k])
        v = int(a[2 * k + 1]) - _SIGNED
        w = p0
        if i >= _SIDE:
            i -= _SIDE
            w = p2
            if i >= _HALF:
                i -= _HALF
                w = p3
        elif i >= _HALF:
            i -= _HALF
            w = p1
        r = i * units - work  # the row, indexed from the work sums' own index j
        j = work
        while j < quads:  # four units a pass: viper's loop costs as much as a unit's sum
            h[j] = int(h[j]) + ((int(w[r + j]) ^ 0x80) - 0x80) * v
            h[j + 1] = int(h[j + 1]) + ((int(w[r + j + 1]) ^ 0x80) - 0x80) * v
            h[j + 2] = int(h[j + 2]) + ((int(w[r + j + 2]) ^ 0x80) - 0x80) * v
            h[j + 3] = int(h[j + 3]) + ((int(w[r + j + 3]) ^ 0x80) - 0x80) * v
            j += 4
        while j < end:
            h[j] = int(h[j]) + ((int(w[r + j]) ^ 0x80) - 0x80) * v
            j += 1
        k += 1
    if mode == 2:
        j = 0
        while j < units:
            h[units + j] = int(h[work + j])
            j += 1


@micropython.viper
def _outputs(w2, sums, scales, packed: int, out, values) -> int:
    """Output probabilities (0-4096) into `out`; returns the equity for the player on roll:
    2 win - 1 plus the gammon and backgammon outputs weighted by `values` (Net.set_values;
    money play's 4096 each give 2w - 1 + wg - lg + wb - lb exactly).

    packed = hidden | shift2 << 12 | outputs << 16. First the hidden sums in acc[2h:3h]
    become activations (0-4096) in acc[:h]: a unit's sum times its scale m / 2**e is its
    input in 1/64 units, so the table's step of 1/32 is 2**(e + 1) in sum * m; then the
    outputs, whose table step is 2**(shift2 + 7).
    """
    w = ptr16(w2)
    h = ptr32(sums)
    o = ptr32(out)
    t = ptr16(_SIG)
    sc = ptr8(scales)
    units = packed & 255
    quads = units & ~3
    work = 2 * units
    offset = 1
    offset <<= 30
    oshift = ((packed >> 12) & 15) + 7
    outputs = packed >> 16
    row = 0
    k = 0
    while k < units + outputs:  # the hidden units, then (their activations all known) outputs
        if k < units:
            x = (int(h[work + k]) - offset) * int(sc[2 * k])
            shift = int(sc[2 * k + 1]) + 1
        else:
            x = ((int(w[row + units]) ^ 0x8000) - 0x8000) * _HIDDEN_ONE
            j = 0
            while j < quads:  # four a pass, as in _accumulate
                x += ((int(w[row + j]) ^ 0x8000) - 0x8000) * int(h[j])
                x += ((int(w[row + j + 1]) ^ 0x8000) - 0x8000) * int(h[j + 1])
                x += ((int(w[row + j + 2]) ^ 0x8000) - 0x8000) * int(h[j + 2])
                x += ((int(w[row + j + 3]) ^ 0x8000) - 0x8000) * int(h[j + 3])
                j += 4
            while j < units:
                x += ((int(w[row + j]) ^ 0x8000) - 0x8000) * int(h[j])
                j += 1
            row += units + 1
            shift = oshift
        i = (x >> shift) + 256
        if i < 0:
            v = 0
        elif i >= 512:
            v = PROB_ONE
        else:
            lo = int(t[i])
            frac = x & ((1 << shift) - 1)
            v = lo + (((int(t[i + 1]) - lo) * frac + (1 << (shift - 1))) >> shift)
        if k < units:
            h[k] = v
        else:
            o[k - units] = v
        k += 1
    g = ptr32(values)
    s = int(g[0]) * int(o[1]) + int(g[1]) * int(o[2]) - int(g[2]) * int(o[3])
    s -= int(g[3]) * int(o[4])  # |s| < 2**29: values <= VALUE_MAX
    return 2 * int(o[0]) - PROB_ONE + ((s + 2048) >> 12)


def _sext8(v):
    return v - 256 if v > 127 else v


@micropython.viper
def _offset(acc, start: int, n: int):
    """acc[start:start + n] += 2**30, the stored sums' offset: in Python a value that large
    would be a long int on a 32-bit port (tests/engine/test_range32.py)."""
    h = ptr32(acc)
    one = 1
    one <<= 30
    i = 0
    while i < n:
        h[start + i] = int(h[start + i]) + one
        i += 1


class Net:
    """A loaded weight file; `equity` evaluates a board for one of its sides."""

    def __init__(self, weights="weights.bin"):
        """`weights`: a weight file's path, or what kernels.weights.read made of it (at
        start-up, while the heap was whole: control/loader.py)."""
        from array import array

        if isinstance(weights, str):
            from kernels.compat import unload
            from kernels.weights import read

            try:
                weights = read(weights)
            finally:
                unload("kernels.weights")  # needed once
        units, self.outputs, shifts, self.scales, self.rows, self.w2, self.size = weights
        self.hidden = units
        self._units = units << 8
        self._output_args = units | shifts << 12 | self.outputs << 16
        self.act = array("H", bytes(4 * _MAX_ACTIVE))
        # activations | base sums | work sums | an empty board's sums
        self.acc = array("i", bytes(16 * units))
        self._empty_sums(units)
        self.out = array("i", bytes(4 * self.outputs))
        self.values = array("i", MONEY)  # what a gammon and a backgammon count (set_values)
        self.pair = bytearray(100)  # the base board, then the board to evaluate from it
        self.after = memoryview(self.pair)[50:]
        self.whole = bytearray(100)  # an empty board, then a board evaluated whole
        self._sides = 25

    def _empty_sums(self, units):
        """Hidden sums of an empty board: the bias, and fifteen off on each side (60/64)."""
        acc, a, b = self.acc, self.rows[1], self.rows[3]  # inputs 50-98, 149-198
        for j in range(units):
            s = _sext8(b[(_BIAS - _SIDE - _HALF) * units + j]) * _ONE
            s += (_sext8(a[(97 - _HALF) * units + j]) + _sext8(b[(97 - _HALF) * units + j])) * 60
            acc[3 * units + j] = s
        _offset(acc, 3 * units, units)

    def equity(self, board, roller=0):
        """Equity (4096 = one point; money play's unless set_values said otherwise) for the
        side whose 25 counts start at `roller` (0 or 25) in the 50-byte `board`, on roll."""
        self.whole[50:] = board
        n = _changes(self.whole, roller | (25 - roller) << 8, self.act)
        _accumulate(self.rows, self.act, n | self._units, self.acc)
        return _outputs(
            self.w2, self.acc, self.scales, self._output_args, self.out, self.values
        )

    def set_base(self, board, roller=0):
        """Remembers `board` and its sums so `equity_after` can evaluate boards a play away
        from it at a fraction of the cost; returns its equity."""
        self.pair[:50] = board
        self.whole[50:] = board
        self._sides = roller | (25 - roller) << 8
        n = _changes(self.whole, self._sides, self.act)
        _accumulate(self.rows, self.act, n | self._units | 0x20000, self.acc)
        return _outputs(
            self.w2, self.acc, self.scales, self._output_args, self.out, self.values
        )

    def equity_after(self):
        """The equity of the board in `self.after` (written by the caller), for the same side
        as the base board's, from the inputs that changed."""
        n = _changes(self.pair, self._sides, self.act)
        _accumulate(self.rows, self.act, n | self._units | 0x10000, self.acc)
        return _outputs(
            self.w2, self.acc, self.scales, self._output_args, self.out, self.values
        )

    def set_values(self, values=None):
        """What the equities count a gammon and a backgammon won, then lost, by the side on
        roll (out of PROB_ONE, each 0..VALUE_MAX; gammon/score_values.py makes them for a
        match score); None: money play's."""
        v = values or MONEY
        if len(v) != 4 or not all(0 <= x <= VALUE_MAX for x in v):
            raise ValueError("bad gammon values: %r" % (v,))  # (nothing changed)
        own = self.values
        for i in range(4):
            own[i] = v[i]

    def probabilities(self):
        """The last evaluation's outputs: win, win gammon, win backgammon, lose gammon,
        lose backgammon, each out of PROB_ONE."""
        return tuple(self.out)
