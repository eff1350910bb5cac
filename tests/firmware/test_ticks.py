# ticks.py: the boards' wrapping ticks; on MicroPython these are time's own, so the same
# checks hold for the CPython fallback and the real functions (whatever their period).
import sys

from hw.ticks import TICKS_MAX, ticks_add, ticks_diff, ticks_ms, ticks_us

PERIOD = TICKS_MAX + 1
HALF = PERIOD // 2


def test_period_is_a_power_of_two():
    assert PERIOD & TICKS_MAX == 0 and PERIOD >= 1 << 30
    if sys.implementation.name != "micropython":
        assert PERIOD == 1 << 30  # the boards' period (the unix port's is 2**62)


def test_add_wraps_round_the_period():
    assert ticks_add(TICKS_MAX, 1) == 0
    assert ticks_add(0, -1) == TICKS_MAX
    assert ticks_add(TICKS_MAX - 99, 300) == 200
    assert ticks_add(200, -300) == TICKS_MAX - 99
    assert ticks_add(12345, 0) == 12345


def test_diff_is_signed_across_the_wrap():
    assert ticks_diff(0, TICKS_MAX) == 1 and ticks_diff(TICKS_MAX, 0) == -1
    for start in (0, 1000, HALF - 10, HALF, TICKS_MAX - 5, TICKS_MAX):
        for delta in (0, 1, -1, 300, -300, HALF - 1, 1 - HALF):
            later = ticks_add(start, delta)
            assert 0 <= later <= TICKS_MAX, (start, delta)
            assert ticks_diff(later, start) == delta, (start, delta)
        half_on = ticks_add(ticks_add(start, HALF - 1), 1)
        assert ticks_diff(half_on, start) == -HALF  # half a period on counts as behind


def test_add_takes_less_than_half_a_period():
    for delta in (HALF, -HALF, PERIOD):
        try:
            ticks_add(0, delta)
        except OverflowError:
            continue
        raise AssertionError("ticks_add(0, %d) did not overflow" % delta)


def test_clocks_are_ticks_and_move_forward():
    t_ms, t_us = ticks_ms(), ticks_us()
    assert 0 <= t_ms <= TICKS_MAX and 0 <= t_us <= TICKS_MAX
    assert 0 <= ticks_diff(ticks_ms(), t_ms) < 60000
    assert 0 <= ticks_diff(ticks_us(), t_us) < 60000000
