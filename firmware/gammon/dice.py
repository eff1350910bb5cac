# Fair dice from any source of random bytes: the board's entropy or a seeded generator.


class SeededBytes:
    """A reproducible byte source (xorshift32): the same bytes on MicroPython and CPython."""

    def __init__(self, seed):
        self.state = (seed & 0xFFFFFFFF) or 0x9E3779B9

    def __call__(self, n):
        out = bytearray(n)
        x = self.state
        for i in range(n):
            x ^= (x << 13) & 0xFFFFFFFF
            x ^= x >> 17
            x ^= (x << 5) & 0xFFFFFFFF
            out[i] = x >> 24
        self.state = x
        return bytes(out)


def _system_bytes():
    try:
        from os import urandom
    except ImportError:  # a port without os.urandom: fall back to its PRNG
        from random import getrandbits

        def urandom(n):
            return bytes(getrandbits(8) for _ in range(n))

    return urandom


class Dice:
    """Throws dice. Bytes 252-255 are thrown away so each face has exactly 42 of 252 values."""

    def __init__(self, randbytes=None):
        self.randbytes = randbytes or _system_bytes()

    def die(self):
        while True:
            for b in self.randbytes(4):
                if b < 252:
                    return b % 6 + 1

    def roll(self):
        return self.die(), self.die()

    def opening(self):
        """One die each (player 0's, player 1's), thrown again while they are equal."""
        while True:
            a, b = self.die(), self.die()
            if a != b:
                return a, b
