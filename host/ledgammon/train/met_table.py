"""Writes firmware/gammon/met.py: GNU Backgammon's match equity table as compact bytes.

The table is the one gnubg uses by default, Kazaross-XG2 to 25 points (its bindings'
`gnubg.met(25)`: the pre-Crawford table and the post-Crawford row). Each match winning
chance is stored as round(mwc * 2**24) in three little-endian bytes: a float32 in [0.5, 1)
has exactly that resolution, so the board's table is gnubg's to within 2**-24 everywhere
(tests/test_cube_gnubg.py checks it). The pre-Crawford table is antisymmetric
(met[i][j] + met[j][i] = 1, the diagonal 0.5), so only the 300 entries above the
diagonal are kept; with the 25 post-Crawford ones that is 975 bytes.

Usage: python -m ledgammon.train.met_table [OUT]   (default firmware/gammon/met.py)
"""

from __future__ import annotations

import sys
from pathlib import Path

SIZE = 25
SCALE = 1 << 24

HEAD = '''# GNU Backgammon's match equity table (Kazaross-XG2, 25 points) as compact bytes, read by
# gammon/cube.py for match play only. Written by host/ledgammon/train/met_table.py from
# gnubg.met(25); do not edit. Each entry is round(mwc * 2**24), three bytes little-endian:
# first the pre-Crawford table above its diagonal, row by row (PRE[i][j] for i < j: the
# chance of a player i + 1 away against one j + 1 away; below the diagonal it is 1 - the
# mirror, on it 0.5), then the post-Crawford row (the trailer j + 1 away against a leader
# 1 away; j = 0 is the double match point).
from kernels.compat import const

N = const(25)
'''

TAIL = '''

def _at(k):
    """Entry k in units of 2**-16 (rounded from the stored 2**-24)."""
    i = 3 * k
    t = TABLE
    return (t[i] | t[i + 1] << 8 | t[i + 2] << 16) + 128 >> 8


def pre(i, j):
    """Chance (65536 = 1) of the player i + 1 points away winning the match against one
    j + 1 away, before or in the Crawford game (0 <= i, j < N)."""
    if i == j:
        return 32768
    if i > j:
        return 65536 - pre(j, i)
    return _at(i * N - i * (i + 1) // 2 + j - i - 1)


def post(j):
    """Chance (65536 = 1) of the trailer j + 1 points away winning a post-Crawford game's
    match against the leader 1 away (0 <= j < N)."""
    return _at(N * (N - 1) // 2 + j)
'''


def entries() -> list[int]:
    """The table's entries in the stored order, in units of 2**-24."""
    import gnubg

    pre, post, _ = gnubg.met(SIZE)
    out = []
    for i in range(SIZE):
        for j in range(i + 1, SIZE):
            out.append(round(pre[i][j] * SCALE))
    out.extend(round(post[j] * SCALE) for j in range(SIZE))
    return out


def source(values: list[int]) -> str:
    """met.py's text for `values`."""
    raw = b"".join(v.to_bytes(3, "little") for v in values)
    lines = ["TABLE = ("]
    for k in range(0, len(raw), 22):
        lines.append('    b"' + "".join("\\x%02x" % b for b in raw[k : k + 22]) + '"')
    lines.append(")")
    return HEAD + "\n".join(lines) + "\n" + TAIL


def main(argv: list[str]) -> int:
    root = Path(__file__).resolve().parents[3]
    out = Path(argv[0]) if argv else root / "firmware" / "gammon" / "met.py"
    out.write_text(source(entries()))
    print("wrote %s" % out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
