# The contact inputs (gammon/features.py) against their float reference (features_reference.py)
# on positions of random play and on edge positions, under CPython and MicroPython alike: each
# integer within one unit of 1/4096 of the float, every value a small int on a 32-bit board;
# and the position classes (gammon/classify.py) on the same edges.
import features_reference as ref
from gammon import Position, legal_plays
from gammon.classify import BEAROFF, CONTACT, CRASHED, RACE, classify
from gammon.features import COUNT, ONE, escapes, inputs
from positions import pos
from xorshift import XorShift32

START = Position.start()


def _check(board):
    got = inputs(board)
    want = ref.inputs(board)
    assert len(got) == len(want) == 2 * COUNT
    for k in range(2 * COUNT):
        assert 0 <= got[k] <= 3 * ONE, (k, got[k])  # far below 2**30
        assert abs(got[k] - want[k] * ONE) <= 1, (Position.from_bytes(board).position_id(),
                                                  k, got[k], want[k] * ONE)
    return got


def test_random_play_positions_match_the_float_reference():
    below = XorShift32(3).below
    seen = 0
    for _ in range(6):
        p = START
        while not p.outcome() and seen < 400:
            _check(p.key())
            seen += 1
            plays = legal_plays(p, (1 + below(6), 1 + below(6)))
            p = plays[below(len(plays))].result.swap() if plays else p.swap()
    assert seen >= 300


def test_edge_positions_match_the_float_reference():
    bar = [0] * 24 + [15]
    six_prime = [0] * 25
    for i in range(6, 12):  # the mover's points 7-12
        six_prime[i] = 2
    six_prime[5] = 3
    edges = [
        pos({25: 15}, {25: 15}),  # everyone on the bar
        Position(bar, [2, 2, 2, 2, 2, 2, 3] + [0] * 18),  # on the bar against a closed board
        pos({1: 1}, {1: 1}),  # fourteen off each
        pos({24: 15}, {24: 15}),  # all on the opponent's one point
        pos({20: 2, 22: 3, 6: 5, 8: 5}, {6: 5, 4: 5, 2: 2, 13: 3}),  # a back game
        Position(six_prime, [0] * 21 + [2, 0, 0, 0]),  # two on its 22 point behind a prime
        pos({6: 15}, {6: 15}),  # a race's start: no contact
        START,
    ]
    for p in edges:
        _check(p.key())
        _check(p.swap().key())


def test_escapes_count_the_rolls_past_the_blocks():
    empty = bytes(50)
    assert escapes(empty, 25, 0, 12) == 36  # nothing in the way
    board = bytearray(50)
    for k in range(1, 7):  # the other side holds the six points 1-6 pips ahead of index 12
        board[25 + 23 - (12 - k)] = 2
    assert escapes(board, 25, 0, 12) == 0
    board[25 + 23 - 11] = 0  # the point 1 pip ahead opened: only 1-6 and 6-1 land past it
    assert escapes(board, 25, 0, 12) == 2
    assert ref.escapes(list(board[:25]), list(board[25:]), 12) == 2


def test_the_classes_of_edge_positions():
    assert classify(START.key()) == CONTACT
    assert classify(pos({6: 15}, {6: 15}).key()) == BEAROFF
    assert classify(pos({7: 1, 6: 14}, {6: 15}).key()) == RACE
    assert classify(pos({1: 1}, {1: 1}).key()) == BEAROFF
    # contact, and the side on roll has few checkers left in play: crashed
    assert classify(pos({24: 2, 2: 3}, {24: 1, 6: 14}).key()) == CRASHED
