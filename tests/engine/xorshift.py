# Random numbers for tests, the same on MicroPython and CPython (the engine's dice cost heap).


class XorShift32:
    """xorshift32 (Marsaglia), kept inside 32 bits as a board's would be."""

    def __init__(self, seed):
        self.x = seed & 0xFFFFFFFF or 1  # 0 would stay 0

    def below(self, n):
        """A number in 0..n-1, from the state's high bits."""
        x = self.x
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.x = x
        return (x >> 8) % n
