# The board player's kernels beside the network: a play made on a 50-byte board (the
# position after a candidate play, without a Position object) and a game's value once a side
# is off. Used by gammon/opponent.py; viper like the rest of native/.
from kernels.compat import MICROPY

if MICROPY:
    import micropython
else:
    from kernels.compat import emitters as micropython
    from kernels.compat import ptr8


@micropython.viper
def _won(b, side: int) -> int:
    """0 while the side whose counts start at `side` has checkers left; else 1, 2 or 3."""
    p = ptr8(b)
    i = 0
    while i < 25:
        if int(p[side + i]) != 0:
            return 0
        i += 1
    other = 25 - side
    left = 0
    in_home = 0
    i = 0
    while i < 25:
        c = int(p[other + i])
        left += c
        if i >= 18:
            in_home += c
        i += 1
    if left < 15:
        return 1
    return 3 if in_home else 2


@micropython.viper
def _play(dst, src, code: int, dice: int):
    """`dst` = 50-byte board `src` after play `code`; dice = the higher | the lower << 3."""
    d = ptr8(dst)
    s = ptr8(src)
    i = 0
    while i < 50:
        d[i] = s[i]
        i += 1
    hi = dice & 7
    lo = dice >> 3
    first_die = lo if (code >> 23) & 1 else hi  # the order bit: the lower die went first
    second_die = hi if (code >> 23) & 1 else lo
    n = (code >> 20) & 7
    i = 0
    while i < n:
        frm = ((code >> (5 * i)) & 31) - 1
        die = first_die if i == 0 else second_die
        d[frm] = int(d[frm]) - 1
        t = frm - die
        if t >= 0:
            d[t] = int(d[t]) + 1
            if int(d[48 - t]) != 0:
                d[48 - t] = 0
                d[49] = int(d[49]) + 1
        i += 1
