"""Hypothesis helpers shared by the fuzz tests: valid inputs with their bytes broken, legal
boards, and how many examples a test runs."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import settings
from hypothesis import strategies as st

EDITS = ("flip", "cut", "insert", "repeat", "truncate")


def mutate(
    draw: Any,
    data: bytes,
    times: st.SearchStrategy[int],
    insert: st.SearchStrategy[bytes],
    repeat_max: int,
    edits: tuple[str, ...] = EDITS,
) -> bytes:
    """`data` with a number (drawn from `times`) of edits drawn from `edits`: "flip" one byte,
    "cut" up to 8 bytes, "insert" bytes drawn from `insert`, "repeat" a piece of up to
    `repeat_max` bytes where it stands, "truncate" at some point."""
    out = bytearray(data)
    for _ in range(draw(times)):
        op = draw(st.sampled_from(edits))
        i = draw(st.integers(0, max(0, len(out) - 1)))
        if op == "flip" and out:
            out[i] = draw(st.integers(0, 255))
        elif op == "cut":
            del out[i : i + draw(st.integers(1, 8))]
        elif op == "insert":
            out[i:i] = draw(insert)
        elif op == "repeat":
            out[i:i] = out[i : i + draw(st.integers(1, repeat_max))]
        elif op == "truncate":
            del out[i:]
    return bytes(out)


def examples(deep: int) -> int:
    """A fuzz test's example count: `deep` under the "deep" profile (tests/conftest.py), its
    share under "ci" (a fifth), never fewer than 10."""
    return max(10, deep * settings().max_examples // 100)


@st.composite
def placed_boards(draw: Any) -> bytes:
    """A legal 50-byte board (gammon.Position.key(): the mover's 25 counts, then the other
    side's, index 24 the bar) with each side's checkers placed anywhere: any number borne
    off, any on the bar, never both sides on one point. Reaches what play seldom does
    (crowded bars, crashed boards, one checker left)."""
    board = bytearray(50)
    first = draw(st.sampled_from((0, 25)))
    for side in (first, 25 - first):
        other = 25 - side
        free = [i for i in range(25) if i == 24 or not board[other + 23 - i]]
        on = draw(st.integers(0, 15))
        for i in draw(st.lists(st.sampled_from(free), min_size=on, max_size=on)):
            board[side + i] += 1
    return bytes(board)


@st.composite
def played_boards(draw: Any) -> bytes:
    """The board after up to 160 random legal plays from the start (a seed drawn), the side
    on roll first: the positions of real games."""
    from gammon import Position, legal_plays

    rnd = random.Random(draw(st.integers(0, 2**32 - 1)))
    p = Position.start()
    for _ in range(draw(st.integers(0, 160))):
        if p.outcome():
            break
        plays = legal_plays(p, (rnd.randint(1, 6), rnd.randint(1, 6)))
        p = plays[rnd.randrange(len(plays))].result.swap() if len(plays) else p.swap()
    return bytes(p.key())


def boards() -> st.SearchStrategy[bytes]:
    """Legal 50-byte boards: placed at random or reached by random play."""
    return st.one_of(placed_boards(), played_boards())
