# The save text of a game (model/savefile.py reads it back), written a few hundred bytes at a
# time into one buffer made at start-up: a press's save builds no string, tuple or list.
from kernels.compat import MICROPY, const

VERSION = const(2)
PLAIN = (0, False, True)  # model/game.py's PLAIN: cubeless money play
_SIZE = const(320)
FULL = const(256)  # a piece goes out once this much is written (every field is < 64 bytes)
_HEX = b"0123456789abcdef"
_B64 = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


class Out:
    """The save being written: bytes into `buf`, handed on as a piece when `full`."""

    def __init__(self):
        self.buf = bytearray(_SIZE)
        self.mv = memoryview(self.buf)
        self.key = bytearray(10)  # a Position ID's 80 bits
        self.n = 0
        self.full = FULL

    def piece(self):
        """What is written so far, and the buffer emptied. A piece is good until the
        next is made: MicroPython's files take the buffer itself; CPython's text files
        take only str."""
        n = self.n
        self.n = 0
        return self.mv[:n] if MICROPY else str(self.mv[:n], "ascii")

    def lit(self, b):
        """Bytes `b` (a constant: no slice made)."""
        buf = self.buf
        n = self.n
        for i in range(len(b)):
            buf[n + i] = b[i]
        self.n = n + len(b)

    def num(self, v):
        """The decimal digits of int `v` (a bool as 0 or 1, as "%d" writes it)."""
        buf = self.buf
        n = self.n
        v = int(v)
        if v < 0:
            buf[n] = 45  # "-"
            n += 1
            v = -v
        k = n
        while True:
            buf[k] = 48 + v % 10
            v //= 10
            k += 1
            if not v:
                break
        self.n = k
        k -= 1
        while n < k:  # the digits came last first
            buf[n], buf[k] = buf[k], buf[n]
            n += 1
            k -= 1

    def pair(self, p):
        """[a,b] of the two numbers of `p`, or null."""
        if p:
            self.lit(b"[")
            self.num(p[0])
            self.lit(b",")
            self.num(p[1])
            self.lit(b"]")
        else:
            self.lit(b"null")

    def pid(self, b):
        """gnubg's Position ID of the 50 bytes `b` (gammon.position's layout), as
        Position.position_id() writes it: 80 bits in base64, 14 characters."""
        key = self.key
        for i in range(10):
            key[i] = 0
        bit = 0
        for side in (25, 0):  # the player not on roll comes first
            for i in range(25):
                for _ in range(b[side + i]):  # that many 1-bits, then a 0-bit
                    key[bit >> 3] |= 1 << (bit & 7)
                    bit += 1
                bit += 1
        buf = self.buf
        n = self.n
        for i in range(0, 10, 3):  # 3 bytes, 4 characters; the last byte alone, 2
            v = key[i] << 16
            if i < 9:
                v |= key[i + 1] << 8 | key[i + 2]
            for s in (18, 12, 6, 0):
                buf[n] = _B64[v >> s & 63]
                n += 1
        self.n = n - 2

    def hex7(self, c):
        """Play code `c` in 7 hex digits."""
        buf = self.buf
        n = self.n
        for d in range(7):
            buf[n + 6 - d] = _HEX[c & 15]
            c >>= 4
        self.n = n + 7


_out = Out()  # made once: one save at a time


def pieces(g, full=FULL):
    """Game `g`'s save as pieces of about `full` bytes or fewer (see Out.piece), and a
    finished game's record (a str) as a piece of its own, in a match."""
    o = _out
    o.n = 0
    o.full = full
    o.lit(b'{"v":')
    o.num(VERSION)
    o.lit(b',"n":')
    o.num(g.game_number)
    o.lit(b',"ph":')
    o.num(g.phase)
    o.lit(b',"t":')
    o.num(g.turn)
    o.lit(b',"o":')
    o.pair(g.opening)
    o.lit(b',"d":')
    o.pair(g.dice)
    o.lit(b',"s":[')
    t = g.turn_state
    for i in range(t.entered if t else 0):
        if o.n > o.full:
            yield o.piece()
        frm, to = t.hop_points(i)
        if i:
            o.lit(b",")
        o.lit(b"[")
        o.num(frm)
        o.lit(b",")
        o.num(to)
        o.lit(b"]")
    if o.n > o.full:
        yield o.piece()
    o.lit(b'],"w":')
    o.num(-1 if g.winner is None else g.winner)
    o.lit(b',"r":')
    o.num(g.result or 0)
    o.lit(b',"id":"')
    o.pid(g.position.key())
    o.lit(b'"')
    if g.start:
        if o.n > o.full:
            yield o.piece()
        o.lit(b',"st":["')
        o.pid(g.start[0].key())
        o.lit(b'",')
        o.num(g.start[1])
        o.lit(b"]")
    # The record: 9 characters a turn, d1 d2 and the play code in 7 hex digits; the cube
    # actions and resignations 5 each: slot in 3 hex digits, action, player.
    o.lit(b',"f":')
    o.num(g.first)
    o.lit(b',"h":"')
    rolls = g.rolls
    codes = g.codes
    buf = o.buf
    for j in range(len(codes)):
        if o.n > o.full:
            yield o.piece()
        r = rolls[j]
        buf[o.n] = 48 + (r >> 3)
        buf[o.n + 1] = 48 + (r & 7)
        o.n += 2
        o.hex7(codes[j])
    if o.n > o.full:
        yield o.piece()
    t = g.terms
    mp = g.mp
    p = g.plain if not mp else mp.match.score
    o.lit(b'","m":[')
    o.num(t[0])
    o.lit(b",")
    o.num(t[1])
    o.lit(b",")
    o.num(t[2])
    o.lit(b'],"sc":[')
    o.num(p[0])
    o.lit(b",")
    o.num(p[1])
    o.lit(b"]")
    if mp and (mp.acts or t != PLAIN):  # the cube, offer, actions, past
        yield from mp.chunks(o)
    o.lit(b"}")
    yield o.piece()


def text(piece):
    """A piece as a str (it is good only until the next piece is made)."""
    return piece if isinstance(piece, str) else str(piece, "ascii")


def save_text(g):
    """The whole save text of game `g` in one string (tests, hosts)."""
    out = []
    for p in pieces(g):
        out.append(text(p))
    return "".join(out)
