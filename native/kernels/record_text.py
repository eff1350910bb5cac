# The game's record as its save writes it (model/savetext.py): each finished turn in 9
# characters, its two dice and its play code in 7 hex digits. Native code on the board
# (plain Python on CPython): written a turn at a time in Python, the record was most of a
# long game's save (~3 us a turn here, ~0.5 ms on an RP2040), in one step of the loop.
from kernels.compat import MICROPY

if MICROPY:  # not `import micropython`: Blinka has one
    import micropython
else:
    from kernels.compat import emitters as micropython
    from kernels.compat import ptr8, ptr32


@micropython.viper
def turns(buf, n: int, full: int, rolls, codes, i: int, k: int) -> int:
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
