# The contact inputs' viper kernel (native/kernels/features.py) against their plain reference
# (gammon/features.py): the same integers for both sides of positions of random play and of
# edge positions, under CPython and under MicroPython (tests/test_micropython.py runs this
# module precompiled, the kernel as viper), with nothing allocated per position there.
import gc
import sys
from array import array

from feature_edges import edge_boards
from gammon import Position, legal_plays
from gammon import features as ref
from kernels import features as fast
from xorshift import XorShift32

MICROPY = sys.implementation.name == "micropython"


def _out():
    return array("i", bytes(8 * fast.COUNT))


def _same(board, out):
    fast.inputs(board, out)
    want = ref.inputs(board)
    for k in range(2 * fast.COUNT):
        if out[k] != want[k]:
            raise AssertionError((Position.from_bytes(board).position_id(), k, out[k], want[k]))


def test_the_kernel_counts_what_the_reference_counts():
    assert fast.COUNT == ref.COUNT
    assert bytes(fast._ESCAPES) == bytes(ref._ESCAPES)  # the escapes' table, made anew


def test_random_play_positions_give_the_reference_inputs():
    out = _out()
    below = XorShift32(17).below
    seen = 0
    for _ in range(12):
        p = Position.start()
        while not p.outcome():
            _same(p.key(), out)
            seen += 1
            plays = legal_plays(p, (1 + below(6), 1 + below(6)))
            p = plays[below(len(plays))].result.swap() if plays else p.swap()
            plays = None
    assert seen >= 800


def test_edge_positions_give_the_reference_inputs():
    out = _out()
    boards = edge_boards()
    for b in boards:
        _same(b, out)
    assert len(boards) >= 39
    fast.inputs(boards[4], out)  # 15 on the bar, the other side all off
    assert out[ref.MOBILITY] == 11674  # 15 checkers x 36 rolls x 19 pips / 3600, rounded
    assert out[ref.COUNT + ref.OFF3] == 4096 and out[ref.BREAK_CONTACT] == 0


def test_one_position_allocates_nothing():
    out = _out()
    board = Position.start().key()
    assert fast.inputs(board, out) is out
    gc.collect()
    if MICROPY:
        before = gc.mem_alloc()
        for _ in range(50):
            fast.inputs(board, out)
        assert gc.mem_alloc() == before
    assert list(out) == list(ref.inputs(board))
