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
# gnubg.met(25); edit only its code. Each entry is round(mwc * 2**24), three bytes little-endian:
# first the pre-Crawford table above its diagonal, row by row (PRE[i][j] for i < j: the
# chance of a player i + 1 away against one j + 1 away; below the diagonal it is 1 - the
# mirror, on it 0.5), then the post-Crawford row (the trailer j + 1 away against a leader
# 1 away; j = 0 is the double match point).
from kernels.compat import const

N = const(25)
'''

# met.py's code after the table is its own (the firmware's, tested there); only the head and
# the table are written, so the look-up functions stand in one place.
END = "\n)\n"


def tail(text: str) -> str:
    """What follows the table in met.py's `text`: the firmware's look-up code, kept."""
    return text[text.index(END, text.index("TABLE = (")) + len(END) :]


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


def source(values: list[int], code: str) -> str:
    """met.py's text for `values`, with `code` (its look-up functions) after the table."""
    raw = b"".join(v.to_bytes(3, "little") for v in values)
    lines = ["TABLE = ("]
    for k in range(0, len(raw), 22):
        lines.append('    b"' + "".join("\\x%02x" % b for b in raw[k : k + 22]) + '"')
    lines.append(")")
    return HEAD + "\n".join(lines) + "\n" + code


def main(argv: list[str]) -> int:
    root = Path(__file__).resolve().parents[3]
    out = Path(argv[0]) if argv else root / "firmware" / "gammon" / "met.py"
    code = tail((root / "firmware" / "gammon" / "met.py").read_text())
    out.write_text(source(entries(), code))
    print("wrote %s" % out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
