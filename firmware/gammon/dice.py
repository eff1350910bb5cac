# Fair dice from any source of random bytes: the board's entropy or a seeded generator.


class SeededBytes:
    """A reproducible byte source (xorshift32): the same bytes on MicroPython and CPython.

    The 32-bit state is kept as two 16-bit halves, so every value stays a small int on a
    32-bit port (whose small ints stop at 2**30: a whole 32-bit state, or its shift left by
    13, would be a heap-allocated long int at every byte); the sequence is xorshift32's.
    """

    def __init__(self, seed):
        hi = (seed >> 16) & 0xFFFF
        lo = seed & 0xFFFF
        if not hi and not lo:  # a zero state stays zero: the golden ratio's bits instead
            hi, lo = 0x9E37, 0x79B9
        self.hi = hi
        self.lo = lo

    def __call__(self, n):
        out = bytearray(n)
        self.fill(out)
        return bytes(out)

    def fill(self, out):
        """Fills bytearray `out` with the next len(out) bytes (no allocation: Dice uses it)."""
        hi = self.hi
        lo = self.lo
        for i in range(len(out)):
            # x ^= x << 13 (mod 2**32)
            hi ^= ((hi << 13) | (lo >> 3)) & 0xFFFF
            lo ^= (lo << 13) & 0xFFFF
            # x ^= x >> 17
            lo ^= hi >> 1
            # x ^= x << 5 (mod 2**32)
            hi ^= ((hi << 5) | (lo >> 11)) & 0xFFFF
            lo ^= (lo << 5) & 0xFFFF
            out[i] = hi >> 8
        self.hi = hi
        self.lo = lo


def _system_bytes():
    try:
        from os import urandom
    except ImportError:  # a port without os.urandom: fall back to its PRNG
        from random import getrandbits

        def urandom(n):
            return bytes(getrandbits(8) for _ in range(n))

    return urandom


class Dice:
    """Throws dice. Bytes 252-255 are thrown away so each face has exactly 42 of 252 values.

    A source with fill(bytearray) (SeededBytes) fills one buffer kept here, so a throw
    allocates nothing; os.urandom gives 4 new bytes a try. Either way a die takes 4 bytes a
    try, so a seed gives the same throws as ever.
    """

    def __init__(self, randbytes=None):
        self.randbytes = randbytes or _system_bytes()
        self._fill = getattr(self.randbytes, "fill", None)
        self._buf = bytearray(4)

    def die(self):
        while True:
            b = self._buf
            if self._fill is not None:
                self._fill(b)
            else:
                b = self.randbytes(4)
            for i in range(4):
                if b[i] < 252:
                    return b[i] % 6 + 1

    def roll(self):
        return self.die(), self.die()

    def opening(self):
        """One die each (player 0's, player 1's), thrown again while they are equal."""
        while True:
            a, b = self.die(), self.die()
            if a != b:
                return a, b
