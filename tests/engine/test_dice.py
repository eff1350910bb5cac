# Dice: faces 1-6, seeded reproducibility, chi-square fairness, rejection sampling.
from gammon.dice import Dice, SeededBytes

ROLLS = 60000
CHI2_DOF5 = 20.52  # the 0.999 critical value of chi-square, 5 degrees of freedom
CHI2_DOF35 = 66.62  # ... and 35 degrees of freedom


def chi_square(counts, total):
    expected = total / len(counts)
    return sum((c - expected) * (c - expected) / expected for c in counts)


class FirstCalls:
    """A byte source whose first `bad_calls` calls return only `bad` bytes, then `good`'s."""

    def __init__(self, bad, bad_calls, good):
        self.bad = bad
        self.left = bad_calls
        self.good = good
        self.calls = 0

    def __call__(self, n):
        self.calls += 1
        if self.left > 0:
            self.left -= 1
            return bytes(self.bad[i % len(self.bad)] for i in range(n))
        return self.good(n)


def zeros(n):
    return bytes(n)


def test_faces():
    dice = Dice(SeededBytes(1))
    seen = set()
    for _ in range(600):
        d1, d2 = dice.roll()
        assert 1 <= d1 <= 6 and 1 <= d2 <= 6
        assert isinstance(d1, int) and isinstance(d2, int)
        seen.add(d1)
        seen.add(d2)
    assert seen == {1, 2, 3, 4, 5, 6}


def test_system_bytes():
    dice = Dice()
    for _ in range(100):
        d1, d2 = dice.roll()
        assert 1 <= d1 <= 6 and 1 <= d2 <= 6


def test_seeded_is_reproducible():
    a = Dice(SeededBytes(2024))
    b = Dice(SeededBytes(2024))
    c = Dice(SeededBytes(2025))
    differ = 0
    for _ in range(200):  # compared as they come: no lists on a small heap
        roll = a.roll()
        assert roll == b.roll()
        differ += roll != c.roll()
    assert differ > 100
    # the same numbers on MicroPython and CPython (recorded under CPython)
    dice = Dice(SeededBytes(1))
    first = [dice.roll() for _ in range(8)]
    assert first == [(1, 5), (6, 1), (6, 5), (3, 2), (4, 4), (1, 5), (3, 1), (2, 1)]


def test_seeded_bytes_are_bytes():
    src = SeededBytes(7)
    chunk = src(16)
    assert isinstance(chunk, bytes) and len(chunk) == 16
    assert SeededBytes(7)(16) == chunk
    assert SeededBytes(0)(4) != bytes(4)  # a zero seed must not stick at zero


def test_chi_square():
    dice = Dice(SeededBytes(12345))
    first = [0] * 6
    second = [0] * 6
    pairs = [0] * 36
    for _ in range(ROLLS):
        d1, d2 = dice.roll()
        first[d1 - 1] += 1
        second[d2 - 1] += 1
        pairs[(d1 - 1) * 6 + d2 - 1] += 1
    assert chi_square(first, ROLLS) < CHI2_DOF5, first
    assert chi_square(second, ROLLS) < CHI2_DOF5, second
    assert chi_square(pairs, ROLLS) < CHI2_DOF35, pairs


def test_rejection_of_high_bytes():
    # 255 % 6 + 1 == 4: a modulo-biased die would show 4 here. Unbiased sampling throws
    # the 255s away and gives exactly what the good bytes alone give.
    src = FirstCalls(b"\xff", 5, zeros)
    assert Dice(src).roll() == Dice(zeros).roll() == (1, 1)
    assert src.calls > 5
    # every byte of 252..255 is thrown away too (they would favour faces 1-4)
    src = FirstCalls(bytes((252, 253, 254, 255)), 3, SeededBytes(9))
    assert Dice(src).roll() == Dice(SeededBytes(9)).roll()


def test_uniform_over_accepted_bytes():
    # each byte value kept gives one face; the 252 kept values give each face 42 times
    counts = [0] * 6
    for value in range(252):
        d1, d2 = Dice(FirstCalls(b"\xfe", 1, lambda n, v=value: bytes([v] * n))).roll()
        assert d1 == d2
        counts[d1 - 1] += 1
    assert counts == [42] * 6, counts


def test_opening_roll():
    dice = Dice(SeededBytes(3))
    for _ in range(100):
        a, b = dice.opening()
        assert a != b and 1 <= a <= 6 and 1 <= b <= 6


def test_seeded_throw_allocates_nothing():
    """A throw fills the Dice's own buffer from SeededBytes.fill (the same bytes the call
    gives, so seeded games are as before); on MicroPython a die is thrown with the heap
    locked. A plain byte source (os.urandom) still works, a new buffer a try."""
    src = SeededBytes(77)
    buf = bytearray(16)
    src.fill(buf)
    assert bytes(buf) == SeededBytes(77)(16)
    a = Dice(SeededBytes(5))
    plain = SeededBytes(5)
    b = Dice(lambda n: plain(n))  # no fill(): the call each try
    for _ in range(300):
        assert a.die() == b.die()
    try:
        import micropython
    except ImportError:
        micropython = None
    if micropython is not None and hasattr(micropython, "heap_lock"):
        micropython.heap_lock()
        try:
            faces = 0
            for _ in range(50):
                faces += a.die()
        finally:
            micropython.heap_unlock()
        assert 50 <= faces <= 300
