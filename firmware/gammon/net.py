# The board's position evaluator: a trained network in fixed-point integers, under viper.
# Inputs are sparse (about 30 of 198 are non-zero), so only those are summed; weights stay
# in one bytearray of int16 (no float objects), read as host/ledgammon/train/export.py
# writes them. Same integers on MicroPython and CPython, so the host tests the board's maths.
from .compat import MICROPY

if MICROPY:
    import micropython
    from micropython import const
else:
    from .compat import emitters as micropython
    from .compat import ptr8, ptr16, ptr32

    def const(value):
        return value


N_INPUTS = const(198)  # 99 a side, as host/ledgammon/train/features.py
_BIAS = const(198)  # the always-on input that carries the hidden biases
_ONE = const(64)  # an input of 1.0
_HIDDEN_ONE = const(4096)  # a hidden activation of 1.0
PROB_ONE = const(4096)  # an output probability of 1.0; equities count in these units
_MAX_ACTIVE = const(72)


def _sigmoid_table():
    """4096 * sigmoid(x) for x = -8 .. 8 in steps of 1/32 (513 uint16), made once at load."""
    from array import array
    from math import exp

    t = array("H", bytes(2 * 513))
    for i in range(513):
        t[i] = int(PROB_ONE / (1 + exp((256 - i) / 32)) + 0.5)
    return t


_SIG = _sigmoid_table()


@micropython.viper
def _encode(b, sides: int, act) -> int:
    """Active inputs of 50-byte board `b` into `act` as (index, value in 1/64) pairs.

    `sides` packs the offset of the player on roll's 25 counts and, << 8, the other's.
    """
    p = ptr8(b)
    a = ptr16(act)
    n = 0
    side = 0
    while side < 2:
        off = (sides >> (8 * side)) & 255
        base = 99 * side
        total = 0
        pips = 0
        i = 0
        while i < 24:
            c = int(p[off + i])
            if c != 0:
                total += c
                pips += c * (i + 1)
                k = base + 4 * i
                a[n] = k
                a[n + 1] = _ONE
                n += 2
                if c >= 2:
                    a[n] = k + 1
                    a[n + 1] = _ONE
                    n += 2
                    if c >= 3:
                        a[n] = k + 2
                        a[n + 1] = _ONE
                        n += 2
                        if c > 3:
                            a[n] = k + 3
                            a[n + 1] = 32 * (c - 3)
                            n += 2
            i += 1
        c = int(p[off + 24])
        if c != 0:
            total += c
            pips += 25 * c
            a[n] = base + 96
            a[n + 1] = 32 * c
            n += 2
        if total < 15:
            a[n] = base + 97
            a[n + 1] = 4 * (15 - total)
            n += 2
        if pips != 0:
            a[n] = base + 98
            a[n + 1] = pips
            n += 2
        side += 1
    a[n] = _BIAS
    a[n + 1] = _ONE
    return (n >> 1) + 1


_OFFSET = const(0x40000000)  # keeps stored partial sums positive: |sum| < 2**30 (export.py)


@micropython.viper
def _hidden(w1, act, packed: int, hid):
    """Hidden activations (0-4096) from the active inputs; packed = n | hidden << 8 | shift1 << 16.

    Sums one input's adjacent weights at a time; each sum is 4096 * sigmoid(x) interpolated
    in the table, whose step of 1/32 is 2**(shift1 + 1) in the sum's units (1/64 inputs).
    """
    w = ptr16(w1)
    a = ptr16(act)
    h = ptr32(hid)
    t = ptr16(_SIG)
    n = packed & 255
    units = (packed >> 8) & 255
    shift = (packed >> 16) + 1
    j = 0
    while j < units:
        h[j] = _OFFSET
        j += 1
    k = 0
    while k < n:
        base = int(a[2 * k]) * units
        v = int(a[2 * k + 1])
        j = 0
        while j < units:
            h[j] = int(h[j]) + ((int(w[base + j]) ^ 0x8000) - 0x8000) * v
            j += 1
        k += 1
    half = 1 << (shift - 1)
    mask = (1 << shift) - 1
    j = 0
    while j < units:
        acc = int(h[j]) - _OFFSET
        x = (acc >> shift) + 256
        if x < 0:
            h[j] = 0
        elif x >= 512:
            h[j] = PROB_ONE
        else:
            lo = int(t[x])
            h[j] = lo + (((int(t[x + 1]) - lo) * (acc & mask) + half) >> shift)
        j += 1


@micropython.viper
def _outputs(w2, hid, packed: int, out) -> int:
    """Output probabilities (0-4096) into `out`; returns the money equity for the player on roll.

    packed = hidden | shift2 << 8 | outputs << 16; the table step is 2**(shift2 + 7) here.
    """
    w = ptr16(w2)
    h = ptr32(hid)
    o = ptr32(out)
    t = ptr16(_SIG)
    units = packed & 255
    shift = ((packed >> 8) & 255) + 7
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


class Net:
    """A loaded weight file; `equity` evaluates a board for one of its sides."""

    def __init__(self, path="weights.bin"):
        from array import array

        with open(path, "rb") as f:
            head = f.read(12)
            if len(head) != 12 or head[:4] != b"LGW1":
                raise ValueError("%s is not a weight file" % path)
            n_in = head[4] | head[5] << 8
            self.hidden = units = head[6]
            self.outputs = head[7]
            if n_in != N_INPUTS or self.outputs != 5 or not 0 < units < 128:
                raise ValueError("%s: a network of another shape" % path)
            self.w1 = bytearray(2 * (n_in + 1) * units)
            self.w2 = bytearray(2 * self.outputs * (units + 1))
            if f.readinto(self.w1) != len(self.w1) or f.readinto(self.w2) != len(self.w2):
                raise ValueError("%s is cut short" % path)
        self.size = 12 + len(self.w1) + len(self.w2)
        self._hidden_args = units << 8 | head[8] << 16
        self._output_args = units | head[9] << 8 | self.outputs << 16
        self.act = array("H", bytes(4 * _MAX_ACTIVE))
        self.hid = array("i", bytes(4 * units))
        self.out = array("i", bytes(4 * self.outputs))

    def equity(self, board, roller=0):
        """Money equity (4096 = one point) for the side whose 25 counts start at `roller`
        (0 or 25) in the 50-byte `board`, that side being on roll."""
        n = _encode(board, roller | (25 - roller) << 8, self.act)
        _hidden(self.w1, self.act, n | self._hidden_args, self.hid)
        return _outputs(self.w2, self.hid, self._output_args, self.out)

    def probabilities(self):
        """The last evaluation's outputs: win, win gammon, win backgammon, lose gammon,
        lose backgammon, each out of PROB_ONE."""
        return tuple(self.out)
