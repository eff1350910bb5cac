"""Hypothesis helpers shared by the fuzz tests: valid inputs with their bytes broken, and
how many examples a test runs."""

from __future__ import annotations

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
