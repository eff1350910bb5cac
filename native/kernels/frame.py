# The renderer's frame primitives, native code on the board (plain Python on CPython).
from kernels.compat import MICROPY, const

if MICROPY:  # not `import micropython`: Blinka has one
    import micropython
else:
    from kernels.compat import emitters as micropython
    from kernels.compat import ptr8


GEO = const(5)  # geometry bytes per slot: base index (2), LED count, 1 if reversed, layers


@micropython.viper
def fill(buf, n: int, value: int):
    p = ptr8(buf)
    i = 0
    while i < n:
        p[i] = value
        i += 1


@micropython.viper
def copy(dst, src, n: int):
    d = ptr8(dst)
    s = ptr8(src)
    i = 0
    while i < n:
        d[i] = s[i]
        i += 1


@micropython.viper
def dim(buf, n: int, scale: int):
    p = ptr8(buf)
    i = 0
    while i < n:
        p[i] = int(p[i]) * scale >> 8
        i += 1


@micropython.viper
def uses(idx, n: int, a: int, b: int) -> int:
    """Bit 0: entry a appears in idx[:n]; bit 1: entry b does."""
    p = ptr8(idx)
    found = 0
    i = 0
    while i < n:
        e = int(p[i])
        if e == a:
            found |= 1
        elif e == b:
            found |= 2
        i += 1
    return found


@micropython.viper
def channel_sum(buf, n: int) -> int:
    p = ptr8(buf)
    total = 0
    i = 0
    while i < n:
        total += int(p[i])
        i += 1
    return total


@micropython.viper
def expand(buf, idx, table, n: int):
    """buf[3i:3i+3] = the table entry idx[i]."""
    b = ptr8(buf)
    x = ptr8(idx)
    t = ptr8(table)
    i = 0
    j = 0
    while i < n:
        e = int(x[i]) * 3
        b[j] = t[e]
        b[j + 1] = t[e + 1]
        b[j + 2] = t[e + 2]
        i += 1
        j += 3


@micropython.viper
def stacks(idx, geo, cnt, own):
    """Checkers of every stack slot: LED i of N gets the level ceil((count - i) / N)."""
    p = ptr8(idx)
    g = ptr8(geo)
    c = ptr8(cnt)
    w = ptr8(own)
    s = 0
    slots = int(len(cnt))
    while s < slots:
        o = s * GEO
        base = int(g[o]) | (int(g[o + 1]) << 8)
        n = int(g[o + 2])
        neg = int(g[o + 3])
        lay = int(g[o + 4])
        count = int(c[s])
        e0 = int(w[s]) * 10 + (lay * (lay - 1) >> 1)  # palette.stack_entry(..., level) - 1
        i = 0
        while i < n:
            e = 0
            if count > i:
                k = (count - i + n - 1) // n
                if k > lay:
                    k = lay
                e = e0 + k
            if neg:
                p[base - i] = e
            else:
                p[base + i] = e
            i += 1
        s += 1
