"""Every distinct position a roll can lead to, fast enough for self-play training.

The firmware's generator returns play codes for the board; training only needs the
resulting positions, so this one works on 50-tuples (the mover's 25 counts, then the
opponent's, in gnubg's layout like `gammon.Position.key()`) and deduplicates with sets.
Tests check it against the firmware engine.
"""

from __future__ import annotations

Board = tuple[int, ...]

START: Board = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0) * 2


def _move(b: Board, src: int, die: int) -> Board:
    """One checker from index `src` by `die` (bearing off when it passes point 1)."""
    cells = list(b)
    cells[src] -= 1
    t = src - die
    if t >= 0:
        cells[t] += 1
        if cells[48 - t]:
            cells[48 - t] = 0
            cells[49] += 1
    return tuple(cells)


def single_steps(b: Board, die: int) -> list[Board]:
    """The positions after one legal step of `die`."""
    if b[24]:
        t = 24 - die
        return [_move(b, 24, die)] if b[48 - t] < 2 else []
    out = []
    home = not any(b[6:24])
    highest = -1
    if home:
        for i in range(5, -1, -1):
            if b[i]:
                highest = i
                break
    for src in range(24):
        if b[src]:
            t = src - die
            if t >= 0:
                if b[48 - t] < 2:
                    out.append(_move(b, src, die))
            elif home and (t == -1 or src == highest):
                out.append(_move(b, src, die))
    return out


def successors(b: Board, d1: int, d2: int) -> list[Board]:
    """Distinct results of every legal play (the position itself when nothing can move)."""
    if d1 == d2:
        frontier = {b}
        for _ in range(4):
            nxt: set[Board] = set()
            for p in frontier:
                nxt.update(single_steps(p, d1))
            if not nxt:
                break
            frontier = nxt
        return list(frontier)
    both: set[Board] = set()
    first_hi = single_steps(b, max(d1, d2))
    first_lo = single_steps(b, min(d1, d2))
    for p in first_hi:
        both.update(single_steps(p, min(d1, d2)))
    for p in first_lo:
        both.update(single_steps(p, max(d1, d2)))
    if both:
        return list(both)
    if first_hi:
        return list(set(first_hi))
    if first_lo:
        return list(set(first_lo))
    return [b]


def swap(b: Board) -> Board:
    """The same position seen by the other player."""
    return b[25:] + b[:25]


def win_value(b: Board) -> int:
    """For a board whose mover has borne off all 15: 1 single, 2 gammon, 3 backgammon."""
    if sum(b[25:]) < 15:
        return 1
    return 3 if any(b[43:50]) else 2
