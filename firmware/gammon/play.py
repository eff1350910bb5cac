# Legal plays as compact codes, turned into steps, results and notation only when asked.
from kernels.movegen import HIT_SHIFT, LEN_SHIFT, ORDER_BIT, play_codes

_BAR = 25
_OFF = 0


def check_dice(dice):
    try:
        d1, d2 = dice
    except (TypeError, ValueError):
        raise ValueError("dice are two numbers: %r" % (dice,)) from None
    if not (isinstance(d1, int) and isinstance(d2, int) and 1 <= d1 <= 6 and 1 <= d2 <= 6):
        raise ValueError("dice are whole numbers 1-6: %r" % (dice,))
    return dice if type(dice) is tuple else (d1, d2)  # a tuple checked again: no new one


def die_order(dice, code):
    """The die each step of a play code used, in order."""
    d1, d2 = dice
    if d1 == d2:
        return (d1, d1, d1, d1)
    hi, lo = (d1, d2) if d1 > d2 else (d2, d1)
    return (lo, hi) if code >> ORDER_BIT & 1 else (hi, lo)


class Play:
    """One legal play: the start position, the dice and a play code."""

    def __init__(self, position, dice, code):
        self.position = position
        self.dice = dice
        self.code = code

    def __len__(self):
        return self.code >> LEN_SHIFT & 7

    @property
    def steps(self):
        """((frm, to, hit), ...) in notation numbers: 25 is the bar, 0 is off."""
        code = self.code
        order = die_order(self.dice, code)
        out = []
        for i in range(code >> LEN_SHIFT & 7):
            src = (code >> (5 * i) & 31) - 1
            to = src - order[i] + 1
            out.append((src + 1, to if to > 0 else 0, bool(code >> (HIT_SHIFT + i) & 1)))
        return tuple(out)

    @property
    def result(self):
        b = bytearray(self.position.key())
        code = self.code
        order = die_order(self.dice, code)
        for i in range(code >> LEN_SHIFT & 7):
            apply_step(b, (code >> (5 * i) & 31) - 1, order[i])
        return type(self.position)(b)  # a Position (gammon imports play: no import back)

    def __str__(self):
        return format_play(self.steps)

    def __repr__(self):
        return "<Play %s>" % self

    def __eq__(self, other):
        return (
            isinstance(other, Play)
            and self.position == other.position
            and self.result == other.result
        )

    def __hash__(self):
        return hash(self.result)


class Plays:
    """The legal plays of a roll: a read-only sequence that builds each Play when indexed.

    Holding codes instead of objects keeps even the 2,226 plays of the worst known
    position within a small heap.
    """

    def __init__(self, position, dice, codes):
        self.position = position
        self.dice = dice
        self.codes = codes

    def __len__(self):
        return len(self.codes)

    def __bool__(self):
        return len(self.codes) > 0

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self.codes)))]
        return Play(self.position, self.dice, self.codes[i])

    def __iter__(self):
        codes = self.codes
        for i in range(len(codes)):
            yield Play(self.position, self.dice, codes[i])

    def __eq__(self, other):
        if isinstance(other, Plays):
            other = list(other)
        if not isinstance(other, list) or len(other) != len(self.codes):
            return False
        for a, b in zip(self, other):  # noqa: B905 (MicroPython's zip has no strict)
            if a != b:
                return False
        return True

    def __repr__(self):
        return "<%d plays of %d-%d>" % (len(self.codes), self.dice[0], self.dice[1])


def legal_plays(position, dice):
    """Every distinct legal play of `dice` (two numbers 1-6), as GNU Backgammon counts them."""
    dice = check_dice(dice)
    return Plays(position, dice, play_codes(bytearray(position.key()), dice))


def apply_step(b, src, die):
    """Moves a checker from index `src` by `die` on a 50-byte board; returns True on a hit."""
    b[src] -= 1
    t = src - die
    if t < 0:
        return False
    b[t] += 1
    if b[48 - t]:
        b[48 - t] = 0
        b[49] += 1
        return True
    return False


def undo_step(b, src, die, hit):
    b[src] += 1
    t = src - die
    if t >= 0:
        b[t] -= 1
        if hit:
            b[48 - t] = 1
            b[49] -= 1


# Point names, 3 bytes each (0 off, 25 the bar): the notation is written into a bytearray and
# made a str once. MicroPython looks every new str up among its interned ones (a scan of
# ~1,100 names on the board), and the ~11 pieces a play's text was made of were most of its
# time: ~140,000 instructions a play here, of a `state` reply's listing ~2 ms a play there.
# One bytes object: a tuple of 26 took ~1 KB more of the heap.
_NAMES = b"off1  2  3  4  5  6  7  8  9  10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 bar"


def _put(buf, n, point):
    """Writes the name of `point` (notation number) into buf at n; returns its end."""
    if not 0 <= point <= _BAR:  # (malformed steps: the name all the same)
        name = str(point).encode()
        buf[n : n + len(name)] = name
        return n + len(name)
    i = 3 * point
    m = 3 if point == _OFF or point == _BAR else (2 if point > 9 else 1)
    for k in range(m):
        buf[n + k] = _NAMES[i + k]
    return n + m


def format_play(steps):
    """Notation of a play's steps ((frm, to, hit), ...) the way GNU Backgammon writes it.

    A checker's consecutive steps are joined (`24/13`), keeping a point where it hit on
    the way (`6/2*/1`); equal moves are counted (`8/5(2)`); the highest point comes first.
    A step never starts from off, so `frm != _OFF` only guards malformed input.
    """
    hit_points = [s[1] for s in steps if s[2]]
    paths = []  # each [frm, [to, ...]]
    # highest first: sorted on (-frm, -to) as the whole tuples reversed, for steps equal
    # there differ at most in `hit`, which a path does not keep
    for frm, to, _ in sorted(steps, reverse=True):
        for path in paths:
            if path[1][-1] == frm and frm != _OFF:
                path[1].append(to)
                break
        else:
            paths.append([frm, [to]])
    buf = bytearray(16 * len(steps) + 8)  # a point's name, "/" and "*": 5 bytes a step at most
    n = 0
    for i in range(len(paths)):
        path = paths[i]
        count = 0  # equal paths: written once, with their count, where the first is
        first = True
        for j in range(len(paths)):
            if paths[j] == path:
                count += 1
                first = first and j >= i
        frm, hops = path
        if first:
            if n:
                buf[n] = 32  # " "
                n += 1
            n = _put(buf, n, frm)
        last = len(hops) - 1
        for k in range(len(hops)):
            to = hops[k]
            hit = to in hit_points
            if hit:
                hit_points.remove(to)  # gnubg stars the first move onto a hit point only
            if first and (hit or k == last):
                buf[n] = 47  # "/"
                n = _put(buf, n + 1, to)
                if hit:
                    buf[n] = 42  # "*"
                    n += 1
        if first and count > 1:
            text = b"(" + str(count).encode() + b")"
            buf[n : n + len(text)] = text
            n += len(text)
    return str(memoryview(buf)[:n], "ascii")
