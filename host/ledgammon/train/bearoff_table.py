"""The exact one-sided bear-off database: for every way of placing up to 15 checkers on a
side's six home points (54,264 positions, the empty board among them), the probability
distribution of the number of rolls that side needs to bear them all off, playing each roll
to need the fewest rolls on average (as GNU Backgammon's one-sided database does). Two such
distributions give a pure race in the home boards exactly enough to play it: the player on
roll wins with sum over n of P_me(n) * P_opp(>= n).

Positions are numbered by the combinatorial number system, as gnubg's PositionBearoff
numbers them (tests check every index against its bindings): 15 checkers and 6 separators
in a row of 21, the index being the rank of the separators' places (`index`).

A second table follows for the positions of all 15 checkers: the distribution of the rolls
until the first checker is off (played for that), which gives the gammon chances.

The file (`write`, read on the board by firmware/gammon/bearoff.py) keeps each position's
distribution as 16-bit probabilities out of 65535 from its first to its last non-zero entry
(the tails rounded to zero are dropped, the rest corrected so each sums to 65535), a byte a
position for where its range starts and how long it is, and a 32-bit offset every 64
positions. Its layout is in `firmware/gammon/bearoff.py`'s header.

The table is generated, not kept in git: about 0.96 MB of numbers that a few seconds of
numpy make again exactly, where the repository's own data (weights.bin) is 8 KB; the tests,
`ledgammon deploy` and the frozen image's build each make it under build/ when it is missing.

Usage: python -m ledgammon.train.bearoff_table [--checkers N] [--module] [OUT]
(default build/bearoff.bin; with --module build/frozen/bearoff_data.py, TABLE = the bytes)
"""

from __future__ import annotations

import argparse
import functools
import os
import struct
import sys
from itertools import combinations
from math import comb

import numpy as np

POINTS = 6
CHECKERS = 15
POSITIONS = comb(CHECKERS + POINTS, POINTS)  # 54,264
FIFTEEN = comb(CHECKERS - 1 + POINTS, POINTS)  # 38,760: the first position of all 15
ROLLS = 32  # the most rolls a distribution holds (15 on the six point need at most 30)
SCALE = 65535  # a probability of one
BLOCK = 64  # positions per stored offset
RECORD = 4 + BLOCK  # a block's offset and its positions' bytes
HEAD = 20  # a table's head
PAD = 32  # the most bytes of values one position has (16), and the zeros after the last
MAGIC = b"LGB2"  # the format's version: a file of another is made again (ensure)
OUT = os.path.join("build", "bearoff.bin")
MODULE = os.path.join("build", "frozen", "bearoff_data.py")  # what firmware/manifest.py freezes
# (die, die, weight out of 36)
DICE = [(a, b, 1 if a == b else 2) for a in range(1, 7) for b in range(a, 7)]


def index(board: tuple[int, ...] | list[int]) -> int:
    """The position's number (gnubg's PositionBearoff for 6 points, 15 checkers): counting
    from the six point down, the k-th separator sits after the checkers of points 6..7-k,
    at place c6 + ... + c(7-k) + k - 1 of 21, and the index is the sum over k of
    C(place_k, k). Fewer checkers come first, the empty board is 0."""
    total = 0
    place = -1
    for k in range(POINTS):
        place += board[POINTS - 1 - k] + 1
        total += comb(place, k + 1)
    return total


def boards() -> list[tuple[int, ...]]:
    """Every position, in index order."""
    out: list[tuple[int, ...]] = [()] * POSITIONS
    for places in combinations(range(CHECKERS + POINTS), POINTS):
        b = tuple(places[k] - (places[k - 1] if k else -1) - 1 for k in range(POINTS))
        out[index(b[::-1])] = b[::-1]
    return out


def steps(board: tuple[int, ...], die: int) -> list[tuple[int, ...]]:
    """The distinct positions one checker's move of `die` leads to (bearing off exactly, or
    from the highest point with a larger die)."""
    top = max((p for p in range(POINTS) if board[p]), default=-1)
    out = []
    for p in range(top + 1):
        if not board[p]:
            continue
        to = p - die
        if to < -1 and p != top:
            continue
        b = list(board)
        b[p] -= 1
        if to >= 0:
            b[to] += 1
        t = tuple(b)
        if t not in out:
            out.append(t)
    return out


@functools.cache
def distributions(first_off: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(P, mean): P[i, n] the chance that position i needs exactly n rolls, mean[i] its
    expected rolls, each roll played to minimise the expected rolls left (made once a
    process; callers do not change them). `first_off`: the rolls until its first checker is
    off instead (a gammon saved), for the positions of all 15 (FIFTEEN on; below it 0)."""
    bs = boards()
    number = {b: i for i, b in enumerate(bs)}
    n = POSITIONS
    none = n  # a sentinel row: no such move
    succ = np.full((n, 7, POINTS), none, dtype=np.int64)
    for i, b in enumerate(bs):
        row = succ[i]
        for d in range(1, 7):
            to = [number[s] for s in steps(b, d)]
            row[d, : len(to)] = to
    pips = np.array([sum((p + 1) * c for p, c in enumerate(b)) for b in bs])
    inf = np.inf
    mean = np.full(n + 1, inf)
    dist = np.zeros((n + 1, ROLLS))
    # best[k][i, d]: the least mean reachable from i with k more steps of die d, and where
    bestv = [np.full((n + 1, 7), inf) for _ in range(4)]
    besti = [np.full((n + 1, 7), none, dtype=np.int64) for _ in range(4)]
    done = FIFTEEN if first_off else 1  # the positions already there (none to go)
    mean[:done] = 0.0
    dist[:done, 0] = 1.0
    for k in range(4):
        bestv[k][:done, :] = 0.0
        besti[k][:done, :] = np.arange(done)[:, None]
    for layer in range(1, pips.max() + 1):
        idx = np.nonzero(pips == layer)[0]
        idx = idx[idx >= done]
        if not len(idx):
            continue
        m = len(idx)
        total_mean = np.zeros(m)
        total = np.zeros((m, ROLLS))
        for d1, d2, w in DICE:
            if d1 == d2:  # four steps: the best of three more after each first one
                cand = succ[idx, d1, :]
                vals = bestv[3][cand, d1]
                finals = besti[3][cand, d1]
            else:  # either die first, then the best step of the other
                c1, c2 = succ[idx, d1, :], succ[idx, d2, :]
                vals = np.concatenate([bestv[1][c1, d2], bestv[1][c2, d1]], axis=1)
                finals = np.concatenate([besti[1][c1, d2], besti[1][c2, d1]], axis=1)
            pick = np.argmin(vals, axis=1)
            final = finals[np.arange(m), pick]
            total_mean += w * mean[final]
            total[:, 1:] += w * dist[final, :-1]
        mean[idx] = 1.0 + total_mean / 36.0
        dist[idx] = total / 36.0
        bestv[0][idx, :] = mean[idx, None]
        besti[0][idx, :] = idx[:, None]
        for k in range(1, 4):
            for d in range(1, 7):
                cand = succ[idx, d, :]
                vals = bestv[k - 1][cand, d]
                pick = np.argmin(vals, axis=1)
                bestv[k][idx, d] = vals[np.arange(m), pick]
                besti[k][idx, d] = besti[k - 1][cand, d][np.arange(m), pick]
    return dist[:n], mean[:n]


def win(p: np.ndarray, me: int, opp: int) -> float:
    """The chance that the side on roll at position `me` finishes first against `opp`
    (indices), from the distributions P: sum over n of P_me(n) * P_opp(>= n)."""
    at_least = np.cumsum(p[opp][::-1])[::-1]
    return float(np.dot(p[me], at_least))


def quantize(p: np.ndarray) -> list[tuple[int, list[int]]]:
    """Each distribution as (first roll count, 16-bit values out of SCALE up to the last
    non-zero one), the values summing to SCALE exactly (the rounding's remainder goes to the
    largest entry)."""
    out = []
    for row in p:
        q = np.rint(row * SCALE).astype(np.int64)
        q[np.argmax(q)] += SCALE - q.sum()
        nz = np.nonzero(q)[0]
        lo, hi = int(nz[0]), int(nz[-1])
        out.append((lo, [int(v) for v in q[lo : hi + 1]]))
    return out


def encode(p: np.ndarray, first: int = 0) -> bytes:
    """One table of the positions numbered from `first`, little-endian: a head of HEAD bytes
    (MAGIC, the positions, the values stored and `first`, u32 each, BLOCK and ROLLS, u16
    each); then a record of RECORD bytes for each
    BLOCK positions: where the block's values start (u32, counted in values from the first)
    and a byte for each of its positions, its first roll count << 4 | (its length - 1); then
    the values (u16) and PAD zero bytes, so a reader may always read PAD bytes of values."""
    rows = quantize(p)
    records = bytearray()
    values: list[int] = []
    for start in range(0, len(rows), BLOCK):
        heads = bytearray(BLOCK)
        for k, (lo, vals) in enumerate(rows[start : start + BLOCK]):
            if lo > 15 or not 1 <= len(vals) <= PAD // 2:
                raise ValueError("position %d: rolls %d-%d do not fit a byte" % (
                    start + k, lo, lo + len(vals) - 1))
            heads[k] = lo << 4 | (len(vals) - 1)
        records += struct.pack("<I", len(values)) + heads
        values.extend(v for _, vals in rows[start : start + BLOCK] for v in vals)
    head = MAGIC + struct.pack("<IIIHH", len(rows), len(values), first, BLOCK, ROLLS)
    return head + bytes(records) + struct.pack("<%dH" % len(values), *values) + bytes(PAD)


def table(checkers: int = CHECKERS) -> bytes:
    """The file's bytes for the home boards of up to `checkers` checkers (the first
    C(checkers + 6, 6) positions: fewer checkers come first); with all 15, the table of the
    rolls to the first checker off follows, for the positions of 15 (numbered from FIFTEEN):
    the gammon chances."""
    if not 1 <= checkers <= CHECKERS:
        raise ValueError("a table holds 1 to %d checkers, not %d" % (CHECKERS, checkers))
    data = encode(distributions()[0][: comb(checkers + POINTS, POINTS)])
    if checkers == CHECKERS:
        data += encode(distributions(True)[0][FIFTEEN:], FIFTEEN)
    return data


def module_text(data: bytes) -> str:
    """A Python module holding `data` as TABLE: frozen into a MicroPython image, a `bytes`
    constant stays in flash, and gammon/endgame.load reads it in place."""
    return ("# The one-sided bear-off table for freezing into the image (firmware/manifest.py);\n"
            "# written by host/ledgammon/train/bearoff_table.py, not edited.\n"
            "TABLE = %r\n" % data)


def write(path: str = OUT, checkers: int = CHECKERS, module: bool = False) -> int:
    """Generates the table into `path` (its folder made; as a module for freezing with
    `module`); returns the table's size in bytes. Atomic: concurrent writers of one path
    each leave a whole file."""
    data = table(checkers)
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    tmp = "%s.%d.tmp" % (path, os.getpid())
    with open(tmp, "w" if module else "wb") as f:
        f.write(module_text(data) if module else data)
    os.replace(tmp, path)
    return len(data)


def ensure(path: str = OUT, checkers: int = CHECKERS) -> str:
    """`path`, generated first when it does not exist or holds a table of another format
    (a few seconds); returns it."""
    try:
        with open(path, "rb") as f:
            current = f.read(len(MAGIC)) == MAGIC
    except OSError:
        current = False
    if not current:
        write(path, checkers)
    return path


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m ledgammon.train.bearoff_table",
        description="Writes the one-sided bear-off table the board plays bear-offs by.")
    ap.add_argument("out", nargs="?", default=None,
                    help="where (default %s, or %s with --module)" % (OUT, MODULE))
    ap.add_argument("--checkers", type=int, default=CHECKERS,
                    help="home boards of up to this many checkers (1-15, default 15)")
    ap.add_argument("--module", action="store_true",
                    help="a Python module (TABLE = bytes) for firmware/manifest.py to freeze")
    args = ap.parse_args(argv)
    if not 1 <= args.checkers <= CHECKERS:
        print("error: --checkers must be 1-%d" % CHECKERS, file=sys.stderr)
        return 2
    path = args.out or (MODULE if args.module else OUT)
    size = write(path, args.checkers, args.module)
    print("wrote the bear-off table (%d positions, %d bytes) to %s" % (
        comb(args.checkers + POINTS, POINTS), size, path))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
