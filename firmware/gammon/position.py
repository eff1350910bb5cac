# A backgammon position as an immutable value, seen from the player on roll.
from binascii import a2b_base64

from kernels.text import B64, write_id

_START = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)


class Position:
    """Checkers of both sides in gnubg's layout: index 0-23 = own points 1-24, 24 = bar.

    Stored as 50 bytes (the mover's 25, then the opponent's 25) so positions hash,
    compare and copy cheaply on the board.
    """

    def __init__(self, me, opp=None):
        if opp is None:  # internal: 50 bytes already validated
            self._b = bytes(me)
            return
        if len(me) != 25 or len(opp) != 25:
            raise ValueError("a side needs 25 counts (points 1-24 and the bar)")
        self._b = _checked(bytes(me) + bytes(opp))  # bytes() rejects negatives and over 255

    @classmethod
    def start(cls):
        return cls(_START, _START)

    @classmethod
    def from_id(cls, pid):
        return cls(_checked(_decode_id(pid)))

    @classmethod
    def from_bytes(cls, raw):
        """The inverse of `key()`; validates like the constructor."""
        if len(raw) != 50:
            raise ValueError("a position key has 50 bytes")
        return cls(raw[:25], raw[25:])

    @property
    def me(self):
        return tuple(self._b[:25])

    @property
    def opp(self):
        return tuple(self._b[25:])

    def key(self):
        return self._b

    def position_id(self):
        return _encode_id(self._b)

    def swap(self):
        """The same position seen by the other player (the turn passes)."""
        b = self._b
        return Position(b[25:] + b[:25])

    def pips(self):
        b = self._b
        mine = theirs = 0
        for i in range(25):
            mine += b[i] * (i + 1)
            theirs += b[25 + i] * (i + 1)
        return mine, theirs

    def borne_off(self):
        b = self._b
        return 15 - sum(b[:25]), 15 - sum(b[25:])

    def outcome(self):
        """0 while the game goes on; +1/2/3 if the player on roll won, -1/2/3 if the opponent."""
        mine, theirs = self.borne_off()
        if mine == 15:
            return _value(self._b[25:], theirs)
        if theirs == 15:
            return -_value(self._b[:25], mine)
        return 0

    def __eq__(self, other):
        return isinstance(other, Position) and self._b == other._b

    def __lt__(self, other):
        return self._b < other._b

    def __hash__(self):
        return hash(self._b)

    def __repr__(self):
        return "Position.from_id(%r)" % self.position_id()


def _value(loser, loser_off):
    """Points won against a loser whose checkers are `loser` (its own layout)."""
    if loser_off:
        return 1
    # The winner's home board is the loser's points 19-24 (indices 18-23); 24 is the bar.
    for i in range(18, 25):
        if loser[i]:
            return 3
    return 2


def _encode_id(b):
    buf = bytearray(16)
    return str(buf[: write_id(b, buf, 0)], "ascii")


def _decode_id(pid):
    if not isinstance(pid, str) or len(pid) != 14:
        raise ValueError("a Position ID has 14 characters: %r" % (pid,))
    raw = pid.encode()  # its bytes, not its characters: MicroPython makes each character
    for c in raw:  # a str of one, interned for good (the qstr pool grows into the heap)
        if c not in B64:
            raise ValueError("a Position ID is base64, not %r: %r" % (chr(c), pid))
    try:
        key = a2b_base64(pid + "==")
    except Exception:
        raise ValueError("a Position ID is base64: %r" % pid) from None
    if len(key) != 10:
        raise ValueError("a Position ID decodes to 10 bytes: %r" % pid)
    b = bytearray(50)  # the mover's 25, then the opponent's: the opponent comes first in the ID
    side = point = 0
    at = 25  # where the point's checkers go in b
    for j in range(80):
        bit = key[j >> 3] >> (j & 7) & 1
        if side > 1:
            if bit:
                raise ValueError("a Position ID with too many checkers: %r" % pid)
        elif bit:
            b[at + point] += 1
        else:
            point += 1
            if point == 25:
                side += 1
                point = 0
                at = 0
    if side < 2:
        raise ValueError("a Position ID with too many checkers: %r" % pid)
    return b


def _checked(b):
    """b (50 counts, the mover's 25 then the opponent's) if a board can hold it; a
    ValueError otherwise."""
    if sum(b[:25]) > 15 or sum(b[25:]) > 15:
        raise ValueError("a side has more than 15 checkers")
    for i in range(24):
        if b[i] and b[48 - i]:
            raise ValueError("both sides on point %d" % (i + 1))
    return b
