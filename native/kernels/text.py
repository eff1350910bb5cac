# Text kernels, native code on the board (plain Python on CPython), one pass each and nothing
# allocated: the serial link's text check (strict UTF-8 and JSON's rules on control
# characters), the save's record and template text (model/savetext.py) and gnubg's Position
# ID (gammon/position.py, the save, `state`). One module: each module of its own costs the
# heap its table and name, and the link, the save and the rules are all always loaded.
#
# MicroPython's decoder accepts overlong forms, encoded surrogates and code points above
# U+10FFFF, its JSON parser accepts raw control characters inside strings and decodes
# "\ud800" into bytes that are not UTF-8: a request line that passes this check has none of
# that, so whatever the board echoes from it is valid UTF-8 JSON. The board's own lines are
# checked with it too before they go out.
from kernels.compat import MICROPY

if MICROPY:  # not `import micropython`: Blinka has one
    import micropython
else:
    from kernels.compat import emitters as micropython
    from kernels.compat import ptr8, ptr32


@micropython.viper
def bad_at(buf, a: int, b: int) -> int:
    """The offset of the first byte of buf[a:b] that breaks the rules, or -1.

    Rules: UTF-8 as RFC 3629 has it (shortest form, no surrogates, at most U+10FFFF); no
    control character (below 0x20) inside a JSON string, and none outside one but tab and
    carriage return; no `\\u` escape of a surrogate (D800-DFFF) inside a string.
    """
    p = ptr8(buf)
    i = a
    instr = 0  # inside a JSON string
    esc = 0  # in a string: 1 after a backslash, 2 after "\u", 3 after "\ud"
    while i < b:
        c = int(p[i])
        if c < 0x80:
            if c < 0x20:
                if instr or (c != 9 and c != 13):
                    return i
            elif instr:
                if esc == 0:
                    if c == 0x5C:
                        esc = 1
                    elif c == 0x22:
                        instr = 0
                elif esc == 1:
                    esc = 0
                    if c == 0x75:  # "u"
                        esc = 2
                elif esc == 2:
                    esc = 0
                    if c == 0x64 or c == 0x44:  # "d" / "D"
                        esc = 3
                else:
                    c |= 0x20  # lower case
                    if c == 0x38 or c == 0x39 or (c >= 0x61 and c <= 0x66):
                        return i - 3  # \uD8.. to \uDF..: a surrogate
                    esc = 0
            elif c == 0x22:
                instr = 1
            i += 1
            continue
        esc = 0
        # a lead byte: how many continuation bytes, and the range of the first of them
        lo = 0x80
        hi = 0xBF
        if c < 0xC2:
            return i  # a continuation byte alone, or an overlong 2-byte form (C0, C1)
        if c < 0xE0:
            need = 1
        elif c < 0xF0:
            need = 2
            if c == 0xE0:
                lo = 0xA0  # overlong below
            elif c == 0xED:
                hi = 0x9F  # surrogates above
        elif c < 0xF5:
            need = 3
            if c == 0xF0:
                lo = 0x90  # overlong below
            elif c == 0xF4:
                hi = 0x8F  # above U+10FFFF
        else:
            return i
        if i + need >= b:
            return i  # cut short
        d = int(p[i + 1])
        if d < lo or d > hi:
            return i
        k = 2
        while k <= need:
            d = int(p[i + k])
            if d < 0x80 or d > 0xBF:
                return i
            k += 1
        i += need + 1
    return -1


# The game's record as its save writes it: each finished turn in 9 characters, its two dice
# and its play code in 7 hex digits. Written a turn at a time in Python, the record was most
# of a long game's save (~3 us a turn here, ~0.5 ms on an RP2040), in one step of the loop.
@micropython.viper
def record_turns(buf, n: int, full: int, rolls, codes, i: int, k: int) -> int:
    """Writes turns i, i + 1, ... (below k) of the record into buf from n, each while n is at
    most `full` and the turn's 9 bytes fit in buf; how many it wrote. rolls: bytes, d1 * 8 +
    d2 a turn; codes: array("i") of play codes (28 bits); both at least k long."""
    b = ptr8(buf)
    r = ptr8(rolls)
    c = ptr32(codes)
    top = int(len(buf)) - 9
    if full > top:
        full = top
    j = i
    while j < k and n <= full:
        roll = r[j]
        b[n] = 48 + (roll >> 3)
        b[n + 1] = 48 + (roll & 7)
        v = c[j]
        d = 8
        while d > 1:
            h = v & 15
            b[n + d] = h + 48 if h < 10 else h + 87  # 0-9, a-f
            v >>= 4
            d -= 1
        n += 9
        j += 1
    return j - i


@micropython.viper
def text_run(buf, n: int, full: int, src, i: int) -> int:
    """Copies the bytes of src from i into buf from n until a byte under 32 (a save
    template's marker: model/savetext.py), the end of src, or n past `full` (or buf's end);
    how many it copied. Byte by byte in Python, the template's ~150 bytes were most of a
    save's fixed cost (~60 us here)."""
    b = ptr8(buf)
    s = ptr8(src)
    end = int(len(src))
    size = int(len(buf))
    j = i
    while j < end and n <= full and n < size:
        c = s[j]
        if c < 32:
            break
        b[n] = c
        n += 1
        j += 1
    return j - i


B64 = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


# gnubg's Position ID, written where it goes (a `state` reply's text, the save's record): in
# Python its 80 bits one at a time were ~35 us here, a third of a `state` reply.
@micropython.viper
def write_id(b, buf, n: int) -> int:
    """Writes gnubg's Position ID of the 50 bytes `b` (the mover's 25, then the opponent's)
    into buf from n (80 bits in 14 characters of base64; 16 bytes are written, the last 2
    scratch) and returns its end. Allocates nothing."""
    s = ptr8(b)
    o = ptr8(buf)
    t = ptr8(B64)
    i = 0  # the point (0-49, the player not on roll first) whose bits come next
    c = int(s[25])  # its checkers still to write
    v = 0  # the bits of a group of 3 bytes (least significant first in each byte)
    g = 0  # the bit's place in its group of 24
    j = 0
    while j < 80:  # a 1-bit a checker, a 0-bit after each point; zeros to the end
        if i < 50:
            if c:
                v |= 1 << (16 - (g & 0x18) + (g & 7))
                c -= 1
            else:
                i += 1
                if i < 25:
                    c = int(s[i + 25])
                elif i < 50:
                    c = int(s[i - 25])
        if g == 23 or j == 79:  # 4 characters; of the last byte's, 2 count
            o[n] = t[(v >> 18) & 63]
            o[n + 1] = t[(v >> 12) & 63]
            o[n + 2] = t[(v >> 6) & 63]
            o[n + 3] = t[v & 63]
            n += 4
            v = 0
            g = 0
        else:
            g += 1
        j += 1
    return n - 2
