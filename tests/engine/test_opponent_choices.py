# The strong level chooses as it did before its speed-ups (tests/engine/strong_choices.py):
# the same play and the same count of evaluations in 300 positions with the Pico's network
# and 150 with the 64-unit one (MicroPython: every one; CPython, whose kernels are plain
# Python and ~100 times slower, the first few).
from gammon import Position
from gammon.opponent import Opponent
from kernels.compat import MICROPY
from kernels.net import Net
from strong_choices import WEIGHTS_40, WEIGHTS_64

_CPYTHON_ROWS = 2


def _replay(weights, table):
    """The rows of `table` the strong level no longer makes as it did: [(row, code, n)]."""
    opp = Opponent(Net(weights))
    wrong = []
    start = 0
    rows = 0
    while start < len(table) and (MICROPY or rows < _CPYTHON_ROWS):
        end = table.find("\n", start)
        pid, dice, code, evaluations = table[start:end].split()
        start = end + 1
        rows += 1
        play = opp.choose(Position.from_id(pid), (int(dice[0]), int(dice[1])), "strong")
        got = play.code if play is not None else -1
        if got != int(code) or opp.evaluations != int(evaluations):
            wrong.append((pid, dice, got, opp.evaluations))
    return rows, wrong


def test_strong_choices_as_before_40_units():
    rows, wrong = _replay("firmware/weights.bin", WEIGHTS_40)
    assert rows == (300 if MICROPY else _CPYTHON_ROWS) and not wrong, wrong[:5]


def test_strong_choices_as_before_64_units():
    rows, wrong = _replay("firmware/weights-64.bin", WEIGHTS_64)
    assert rows == (150 if MICROPY else _CPYTHON_ROWS) and not wrong, wrong[:5]
