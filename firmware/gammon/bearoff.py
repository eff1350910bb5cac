# The one-sided bear-off database (host/ledgammon/train/bearoff_table.py writes it): for each
# way of placing up to 15 checkers on a side's home points, the chances that the side needs
# 1, 2, ... rolls to bear them all off. Read in place, never copied to the heap: from a
# `bytes` frozen into flash (bearoff_data.TABLE) or by seek from the file on the filesystem.
#
# A table's layout (little-endian): a 20-byte head: b"LGB2", the positions, the values stored
# and the number of its first position (u32 each), the positions a block (64) and the rolls a
# distribution spans (32), u16 each; then
# for each block a record: where its values start (u32, counted in values) and a byte for
# each of its positions, the first roll count with a non-zero chance << 4 | (the values
# stored - 1); then the values, u16 out of 65535, each position's summing to 65535; then 32
# zero bytes. The positions are numbered as gnubg's PositionBearoff does (index()): those
# with fewer checkers first, so a table of fewer positions covers the boards of fewer checkers.
# The whole file's table of all 15 checkers is followed by a second one for the positions of
# 15 (numbered from 38,760): the rolls until the first checker is off (the gammon chances).
from array import array

from kernels.compat import const

ROLLS = const(32)  # the rolls a distribution spans (15 on the six point need at most 30)
ONE = const(65535)  # a probability of one
_HEAD = const(20)
_BLOCK = const(64)
_RECORD = const(68)  # 4 + _BLOCK
_VALUES = const(32)  # the most bytes of values one position has
_MAGIC = b"LGB2"


def _binomials():
    """C(n, k + 1) at [6 * n + k] for n < 21, k < 6 (the largest, C(20, 6), is 38,760)."""
    c = array("H", bytes(2 * 6 * 21))
    for n in range(21):
        for k in range(6):
            if k == 0:
                c[6 * n] = n
            elif n:
                c[6 * n + k] = c[6 * (n - 1) + k] + c[6 * (n - 1) + k - 1]
    return c


_C = _binomials()


def index(board, start=0):
    """The number of the home board whose points 1-6 are board[start:start + 6] (gnubg's
    PositionBearoff): from the six point down, the k-th separator of checkers sits at place
    c6 + ... + c(7-k) + k - 1 of 21, and the number is the sum over k of C(place, k)."""
    total = 0
    place = -1
    for k in range(6):
        place += board[start + 5 - k] + 1
        total += _C[6 * place + k]
    return total


class Table:
    """The database at byte `at` of `source`: a bytes-like object (read in place) or an open
    binary file (read by seek, 100 bytes of buffers). Raises ValueError when it is not one.
    Its positions are first .. first + positions - 1; `end` is where the next table starts."""

    def __init__(self, source, at=0):
        self._file = source if hasattr(source, "readinto") else None
        self._mem = None if self._file else memoryview(source)
        self._rec = bytearray(_RECORD)
        self._val = bytearray(_VALUES)
        head = self._read(at, self._rec)
        o = self._o
        if bytes(head[o : o + 4]) != _MAGIC or _u16(head, o + 16) != _BLOCK:
            raise ValueError("not a bear-off table")
        if _u16(head, o + 18) != ROLLS:
            raise ValueError("a bear-off table of other rolls")
        self.positions = _u16(head, o + 4) | _u16(head, o + 6) << 16
        values = _u16(head, o + 8) | _u16(head, o + 10) << 16
        self.first = _u16(head, o + 12) | _u16(head, o + 14) << 16
        self._at = at
        self._values = at + _HEAD + _RECORD * ((self.positions + _BLOCK - 1) // _BLOCK)
        self.end = self._values + 2 * values + _VALUES
        if self._mem is not None and len(self._mem) < self.end:
            raise ValueError("a bear-off table cut short")

    def following(self):
        """The table after this one in the same source, or None when none follows."""
        f = self._file
        if f is None:
            if len(self._mem) <= self.end:
                return None
        else:
            f.seek(self.end)
            if f.readinto(self._val) != _VALUES:
                return None
        return Table(self._file or self._mem, self.end)

    def _read(self, at, buf):
        """The table's bytes from `at` are at buf[self._o:] of the buffer returned: the
        table itself, or `buf` read from the file (as far as the file goes)."""
        f = self._file
        if f is None:
            self._o = at
            return self._mem
        f.seek(at)
        f.readinto(buf)
        self._o = 0
        return buf

    def rolls(self, i, out):
        """out[n] (n < ROLLS, an array of unsigned ints) = the chance out of ONE that home
        board number `i` needs n rolls to bear off; returns the first n with a chance | one past
        the last << 8 (the range outside which out[n] is 0)."""
        i -= self.first
        if not 0 <= i < self.positions:
            raise IndexError("no bear-off position %d" % (i + self.first))
        block = i // _BLOCK
        r = self._read(self._at + _HEAD + _RECORD * block, self._rec)
        o = self._o
        at = _u16(r, o) | _u16(r, o + 2) << 16
        first = o + 4
        last = first + i - _BLOCK * block  # this position's byte
        for k in range(first, last):
            at += (r[k] & 15) + 1
        h = r[last]
        lo = h >> 4
        n = (h & 15) + 1
        v = self._read(self._values + 2 * at, self._val)
        o = self._o
        for k in range(ROLLS):
            out[k] = 0
        for k in range(n):
            out[lo + k] = v[o + 2 * k] | v[o + 2 * k + 1] << 8
        return lo | (lo + n) << 8


def _u16(b, at):
    return b[at] | b[at + 1] << 8
