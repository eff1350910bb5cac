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


N_INPUTS = const(198)  # 99 a side, as host/ledgammon/train/features.py
_SIDE = const(99)
_HALF = const(50)  # input rows per weight block (Net.rows)
_BIAS = const(198)  # the always-on input that carries the hidden biases
_ONE = const(64)  # an input of 1.0
_HIDDEN_ONE = const(4096)  # a hidden activation of 1.0
PROB_ONE = const(4096)  # an output probability of 1.0; equities count in these units
_MAX_ACTIVE = const(200)  # (input, change) pairs: more than two boards can differ by


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
        row = i * units
        j = 0
        while j < units:
            h[work + j] = int(h[work + j]) + ((int(w[row + j]) ^ 0x80) - 0x80) * v
            j += 1
        k += 1
    if mode == 2:
        j = 0
        while j < units:
            h[units + j] = int(h[work + j])
            j += 1


@micropython.viper
def _outputs(w2, sums, scales, packed: int, out) -> int:
    """Output probabilities (0-4096) into `out`; returns the money equity for the player on roll.

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
    work = 2 * units
    offset = 1
    offset <<= 30
    j = 0
    while j < units:
        x = (int(h[work + j]) - offset) * int(sc[2 * j])
        shift = int(sc[2 * j + 1]) + 1
        i = (x >> shift) + 256
        if i < 0:
            h[j] = 0
        elif i >= 512:
            h[j] = PROB_ONE
        else:
            lo = int(t[i])
            frac = x & ((1 << shift) - 1)
            h[j] = lo + (((int(t[i + 1]) - lo) * frac + (1 << (shift - 1))) >> shift)
        j += 1
    shift = ((packed >> 12) & 15) + 7
    half = 1 << (shift - 1)
    mask = (1 << shift) - 1
    outputs = packed >> 16
    row = 0
    m = 0
    while m < outputs:
        acc = ((int(w[row + units]) ^ 0x8000) - 0x8000) * _HIDDEN_ONE
        j = 0
        while j < units:
            acc += ((int(w[row + j]) ^ 0x8000) - 0x8000) * int(h[j])
            j += 1
        x = (acc >> shift) + 256
        if x < 0:
            o[m] = 0
        elif x >= 512:
            o[m] = PROB_ONE
        else:
            lo = int(t[x])
            o[m] = lo + (((int(t[x + 1]) - lo) * (acc & mask) + half) >> shift)
        row += units + 1
        m += 1
    return 2 * int(o[0]) - PROB_ONE + int(o[1]) - int(o[3]) + int(o[2]) - int(o[4])


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


# The board player's helpers (gammon/opponent.py): a play made on a board, a game's value.


@micropython.viper
def _won(b, side: int) -> int:
    """0 while the side whose counts start at `side` has checkers left; else 1, 2 or 3."""
    p = ptr8(b)
    i = 0
    while i < 25:
        if int(p[side + i]) != 0:
            return 0
        i += 1
    other = 25 - side
    left = 0
    in_home = 0
    i = 0
    while i < 25:
        c = int(p[other + i])
        left += c
        if i >= 18:
            in_home += c
        i += 1
    if left < 15:
        return 1
    return 3 if in_home else 2


@micropython.viper
def _play(dst, src, code: int, dice: int):
    """`dst` = 50-byte board `src` after play `code`; dice = the higher | the lower << 3."""
    d = ptr8(dst)
    s = ptr8(src)
    i = 0
    while i < 50:
        d[i] = s[i]
        i += 1
    hi = dice & 7
    lo = dice >> 3
    first_die = lo if (code >> 23) & 1 else hi  # the order bit: the lower die went first
    second_die = hi if (code >> 23) & 1 else lo
    n = (code >> 20) & 7
    i = 0
    while i < n:
        frm = ((code >> (5 * i)) & 31) - 1
        die = first_die if i == 0 else second_die
        d[frm] = int(d[frm]) - 1
        t = frm - die
        if t >= 0:
            d[t] = int(d[t]) + 1
            if int(d[48 - t]) != 0:
                d[48 - t] = 0
                d[49] = int(d[49]) + 1
        i += 1


class Net:
    """A loaded weight file; `equity` evaluates a board for one of its sides."""

    def __init__(self, path="weights.bin"):
        from array import array

        with open(path, "rb") as f:
            head = f.read(12)
            if len(head) != 12 or head[:4] != b"LGW2":
                raise ValueError("%s is not a weight file" % path)
            n_in = head[4] | head[5] << 8
            self.hidden = units = head[6]
            self.outputs = head[7]
            if n_in != N_INPUTS or self.outputs != 5 or not 0 < units < 128:
                raise ValueError("%s: a network of another shape" % path)
            want = 12 + (2 + N_INPUTS + 1) * units + 2 * self.outputs * (units + 1)
            f.seek(0, 2)
            if f.tell() != want:  # before allocating: a broken file costs no heap
                raise ValueError("%s is cut short or too long: %d bytes" % (path, f.tell()))
            f.seek(12)
            # the input rows in four blocks of about 2 KB rather than one of 8: pieces that a
            # fragmented heap can still give (in the file: the side on roll's 99, the other's
            # 100 with the bias)
            self.scales = bytearray(2 * units)
            self.rows = (
                bytearray(_HALF * units),
                bytearray((_SIDE - _HALF) * units),
                bytearray(_HALF * units),
                bytearray((_SIDE + 1 - _HALF) * units),
            )
            self.w2 = bytearray(2 * self.outputs * (units + 1))
            self.size = 12
            for block in (self.scales,) + self.rows + (self.w2,):
                if f.readinto(block) != len(block):
                    raise ValueError("%s is cut short" % path)
                self.size += len(block)
        for j in range(units):
            if self.scales[2 * j] < 128 or self.scales[2 * j + 1] > 28:
                raise ValueError("%s: bad scales" % path)
        if head[8] > 15:
            raise ValueError("%s: bad fixed-point shifts" % path)
        self._units = units << 8
        self._output_args = units | head[8] << 12 | self.outputs << 16
        self.act = array("H", bytes(4 * _MAX_ACTIVE))
        # activations | base sums | work sums | an empty board's sums
        self.acc = array("i", bytes(16 * units))
        self._empty_sums(units)
        self.out = array("i", bytes(4 * self.outputs))
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
        """Money equity (4096 = one point) for the side whose 25 counts start at `roller`
        (0 or 25) in the 50-byte `board`, that side being on roll."""
        self.whole[50:] = board
        n = _changes(self.whole, roller | (25 - roller) << 8, self.act)
        _accumulate(self.rows, self.act, n | self._units, self.acc)
        return _outputs(self.w2, self.acc, self.scales, self._output_args, self.out)

    def set_base(self, board, roller=0):
        """Remembers `board` and its sums so `equity_after` can evaluate boards a play away
        from it at a fraction of the cost; returns its equity."""
        self.pair[:50] = board
        self.whole[50:] = board
        self._sides = roller | (25 - roller) << 8
        n = _changes(self.whole, self._sides, self.act)
        _accumulate(self.rows, self.act, n | self._units | 0x20000, self.acc)
        return _outputs(self.w2, self.acc, self.scales, self._output_args, self.out)

    def equity_after(self):
        """The equity of the board in `self.after` (written by the caller), for the same side
        as the base board's, from the inputs that changed."""
        n = _changes(self.pair, self._sides, self.act)
        _accumulate(self.rows, self.act, n | self._units | 0x10000, self.acc)
        return _outputs(self.w2, self.acc, self.scales, self._output_args, self.out)

    def probabilities(self):
        """The last evaluation's outputs: win, win gammon, win backgammon, lose gammon,
        lose backgammon, each out of PROB_ONE."""
        return tuple(self.out)
