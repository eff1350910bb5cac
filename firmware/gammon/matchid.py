# GNU Backgammon's Match ID: the cube, the offer on the table, the dice and the match score in
# 12 base64 characters, written and parsed the same on the board (32-bit small ints: the 67
# bits are packed a bit at a time, never as one big integer) and on the host.
from binascii import b2a_base64

# (name, width) in gnubg's order, least significant bit first. `cube` is the cube's log2;
# `owner` 3 means centred; `move` is the player on roll, `turn` the player to decide (the
# opponent of a double or a resignation offered); `state` 0 none, 1 playing, 2 over,
# 3 resigned, 4 dropped; `resigned` the value offered (0: none); `jacoby_off` gnubg's 67th
# bit (set when the Jacoby rule is off, always so in a match).
FIELDS = (
    ("cube", 4),
    ("owner", 2),
    ("move", 1),
    ("crawford", 1),
    ("state", 3),
    ("turn", 1),
    ("doubled", 1),
    ("resigned", 2),
    ("die1", 3),
    ("die2", 3),
    ("length", 15),
    ("score0", 15),
    ("score1", 15),
    ("jacoby_off", 1),
)
PLAYING = 1
OVER = 2
RESIGNED = 3
DROPPED = 4


def encode(values):
    """The Match ID of `values`, a dict with every name of FIELDS (cube as its value, 1-64;
    owner -1 for a centred cube; booleans as such); ValueError when a field does not fit."""
    buf = bytearray(9)
    acc = 0  # the bits not yet in buf (fewer than 8 between fields): a small int
    bits = k = 0
    for name, width in FIELDS:
        v = values[name]
        if name == "cube":
            v = _log2(v)
        elif name == "owner" and v == -1:
            v = 3
        v = int(v)
        if not 0 <= v < (1 << width):
            raise ValueError("%s %d does not fit the Match ID" % (name, v))
        acc |= v << bits  # least significant bit first, as gnubg packs them
        bits += width
        while bits >= 8:  # a byte at a time, not a bit (a third of a `state` reply's time)
            buf[k] = acc & 255
            acc >>= 8
            bits -= 8
            k += 1
    if bits:
        buf[k] = acc
    return b2a_base64(buf).decode().strip().rstrip("=")


def decode(text):
    """The fields of a Match ID as a dict (cube as its value, owner -1 when centred);
    ValueError when `text` is not one. Read by gammon/matchid_read.py, loaded on first use:
    the host reads Match IDs, the board only writes them (issue 11's heap)."""
    from .matchid_read import decode as read

    return read(text, FIELDS)


def _log2(cube):
    n = 0
    while (1 << n) < cube:
        n += 1
    if (1 << n) != cube:
        raise ValueError("the cube is a power of two: %r" % cube)
    return n
