# link/repl_guard.py: after the firmware left for the REPL, the watchdog is fed while the
# REPL is used and left to restart the board into its game when it is not.
# Runs under CPython (pytest) and MicroPython (tests/mprun.py); time is passed in.
from fake_wdt import FakeWdt
from hw.ticks import TICKS_MAX, ticks_add
from link.repl_guard import FIRST_MS, IDLE_MS, ReplGuard


class Board:
    """A clock and a heap figure the test moves."""

    def __init__(self, t=5000):
        self.t = t
        self.heap = 1000

    def clock(self):
        return self.t

    def activity(self):
        return self.heap


def _guard(t=5000):
    board = Board(t)
    wdt = FakeWdt()
    return board, wdt, ReplGuard(wdt, board.clock, board.activity)


def _tick(board, guard, n=1, use=False):
    """n timer ticks a second apart; `use`: the REPL ran something before each."""
    fed = 0
    for _ in range(n):
        board.t = ticks_add(board.t, 1000)
        if use:
            board.heap += 64
        fed += guard.feed()
    return fed


def test_a_stop_nobody_uses_is_undone_by_the_watchdog():
    board, wdt, guard = _guard()
    board.heap += 5000  # the app's own exit and the REPL's banner, before the first tick
    seconds = FIRST_MS // 1000
    assert _tick(board, guard, seconds - 1) == seconds - 1 and not guard.used
    assert _tick(board, guard, 5) == 0  # fed no more: the watchdog restarts the board
    assert wdt.feeds == seconds - 1


def test_the_repl_in_use_stays_up_until_left_alone():
    board, wdt, guard = _guard()
    _tick(board, guard, 3)
    assert _tick(board, guard, 100, use=True) == 100 and guard.used  # mpremote at work
    idle = IDLE_MS // 1000
    assert _tick(board, guard, idle - 1) == idle - 1  # a person thinking at the prompt
    assert _tick(board, guard, 1, use=True) == 1  # types a line: the idle time starts again
    assert _tick(board, guard, idle - 1) == idle - 1
    assert _tick(board, guard, 2) == 0  # left alone: back to the game
    assert _tick(board, guard, 1, use=True) == 1  # (a late command is fed again, until then)


def test_ticks_wrap_around():
    board, wdt, guard = _guard(TICKS_MAX - 3000)
    assert _tick(board, guard, 10) == 10  # across the wrap
    assert _tick(board, guard, FIRST_MS // 1000) == FIRST_MS // 1000 - 11
