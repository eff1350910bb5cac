# A turn entered one step at a time, as on the board, accepting only steps of legal plays.
from array import array

from kernels.movegen import HIT_SHIFT, LEN_SHIFT, ORDER_BIT, play_codes, search

from .play import Play, apply_step, check_dice, die_order, undo_step
from .position import Position


class _Count:
    """A CodeList for searches that keep no codes, only their number (`n`), length and the
    last 64 (movegen's searches write 64 codes a chunk): every chunk is this one, so a
    Turn's searches, however many plays the dice have, allocate nothing."""

    chunk = array("i", bytes(256))
    n = 0

    def reset(self):
        self.n = 0
        return self.chunk

    def grow(self):
        return self.chunk

    def append(self, code):
        self.chunk[self.n & 63] = code
        self.n += 1


# Made once for every Turn, one search at a time: what a new Turn's dice can play and, after
# a step tried, whether the dice left still make a legal play.
_count = _Count()


def _hop(step):
    """A step (src index, die, hit) as (frm, to, hit) in notation numbers: a point's is its
    index + 1 (the bar, 24, is 25), off is 0."""
    src, die, hit = step
    return (src + 1, max(src - die + 1, 0), hit)


def _index(point):
    if not isinstance(point, int) or not 1 <= point <= 25:
        raise ValueError("not a point to move from: %r" % (point,))
    return point - 1


def _turn_round(b):
    """The 50-byte board `b` seen by the other player: its halves exchanged."""
    for i in range(25):
        b[i], b[i + 25] = b[i + 25], b[i]


def _legal_step(b, src, die):
    """Can a checker move from index `src` by `die` on board `b`, ignoring the other dice?"""
    if not b[src] or (src != 24 and b[24]):
        return False
    t = src - die
    if t >= 0:
        return b[48 - t] < 2
    for i in range(6, 25):
        if b[i]:
            return False
    if t == -1:
        return True
    for i in range(src + 1, 6):
        if b[i]:
            return False
    return True


class Turn:
    """The dice of one turn and the steps entered so far.

    A step is accepted only if the dice left can still complete a legal play after it,
    so the rules to use both dice and the larger die hold while the player moves.
    Routes are small ints and the searches count into one chunk, so asking what can move,
    where a checker goes and moving it allocate little (a press on the board).
    """

    def __init__(self, position, dice):
        self.position = position
        self.dice = check_dice(dice)
        d1, d2 = self.dice
        self._board = bytearray(position.key())
        # the dice left, high to low (lists written out: [d] * 4 and sorted() make more)
        self._left = [d1, d1, d1, d1] if d1 == d2 else [d1, d2] if d1 > d2 else [d2, d1]
        self.done = []  # (src index, die, hit) per single step entered (read outside)
        n = play_codes(self._board, self.dice, _count, True).n  # the board is unchanged
        self.count = n  # distinct legal plays (of doubles, counted to 2: `forced` asks)
        # One of them: every legal play has its length (steps); the only one when n is 1.
        self._first = _count.chunk[0] if n else 0
        self.length = self._first >> LEN_SHIFT & 7
        # With one die playable, all plays use the same die (the larger one when it can).
        self._only_die = die_order(self.dice, self._first)[0] if self.length == 1 else 0

    @property
    def complete(self):
        return len(self.done) == self.length

    @property
    def remaining(self):
        return tuple(self._left) if not self.complete else ()

    @property
    def steps(self):
        return tuple(_hop(s) for s in self.done)

    @property
    def result(self):
        return Position(bytes(self._board))

    def passed(self):
        """The position after the steps, seen by the other player (the turn passes): made
        from the board turned round in place and back, so only the Position is new."""
        b = self._board
        _turn_round(b)
        p = Position(b)
        _turn_round(b)
        return p

    @property
    def forced(self):
        return self.count == 1

    def _ok(self, src, die):
        if self.complete or (self._only_die and die != self._only_die):
            return False
        if not _legal_step(self._board, src, die):
            return False
        need = self.length - len(self.done) - 1
        if need == 0:
            return True
        hit = apply_step(self._board, src, die)
        left = self._left  # the die taken out for the search and put back where it was
        i = left.index(die)
        del left[i]
        try:
            best = search(self._board, left, _count, 0, need)  # found one: enough
        finally:
            left.insert(i, die)
            undo_step(self._board, src, die, hit)
        return best >= need

    def _push(self, src, die):
        """Moves a checker from index `src` by `die`; the step (src, die, hit)."""
        step = (src, die, apply_step(self._board, src, die))
        self._left.remove(die)
        self.done.append(step)
        return step

    def _pop(self):
        """Takes back the last single step; its (src index, die, hit)."""
        step = self.done.pop()
        src, die, hit = step
        undo_step(self._board, src, die, hit)
        left = self._left  # sorted high to low again: what it was before the step
        left.append(die)
        left.sort(reverse=True)
        return step

    def movable(self):
        """Points (25 = bar) holding a checker that can start a legal step now."""
        out = []
        left = self._left  # sorted high to low: each value tried once, no list made
        for src in range(24, -1, -1):
            if self._board[src]:
                prev = 0
                for k in range(len(left)):
                    die = left[k]
                    if die != prev:
                        prev = die
                        if self._ok(src, die):
                            out.append(src + 1)
                            break
        return out

    def _routes(self, src, route, found, to):
        """The points the checker on index `src` reaches, depth first and the larger die
        first, after `route` (its dice so far, 3 bits each, their number in bits 12-14):
        each point's first route into `found` ({to: route}); with `to` >= 0 only the
        route to that point, the one the whole search would find first (0 if none).
        Each die value once: `_left`, sorted, is the same again after every _pop."""
        left = self._left
        k = route >> 12
        prev = 0
        for i in range(len(left)):
            die = left[i]
            if die == prev:
                continue
            prev = die
            if self._ok(src, die):
                t = src - die
                dest = t + 1 if t >= 0 else 0
                r = (route & 4095 | die << 3 * k) + (k + 1 << 12)
                if dest == to:
                    return r
                if found is not None and dest not in found:
                    found[dest] = r
                if t >= 0:
                    self._push(src, die)
                    r = self._routes(t, r, found, to)
                    self._pop()
                    if r:
                        return r
        return 0

    def destinations(self, frm):
        """{to: dice} for every point the checker on `frm` can reach with one or more dice.

        When two orders of the dice reach one point, the larger die goes first.
        """
        found = {}
        self._routes(_index(frm), 0, found, -1)
        for to in found:
            r = found[to]
            dice = []
            for i in range(r >> 12):
                dice.append(r >> 3 * i & 7)
            found[to] = dice
        return found

    def step(self, frm, to):
        """Moves the checker on `frm` to `to`; returns the single steps made, with hits."""
        src = _index(frm)
        route = self._routes(src, 0, None, to) if isinstance(to, int) and to >= 0 else 0
        if not route:
            raise ValueError("not a legal move now: %s/%s" % (frm, "off" if to == 0 else to))
        made = []
        for i in range(route >> 12):
            die = route >> 3 * i & 7
            made.append(_hop(self._push(src, die)))
            src -= die
        return made

    def undo(self):
        """Takes back the last single step; returns it, or None at the start of the turn."""
        if not self.done:
            return None
        return _hop(self._pop())

    def code(self):
        """The play code of the steps entered, comparable with legal_plays' codes."""
        done = self.done
        code = len(done) << LEN_SHIFT
        for i in range(len(done)):
            src, die, hit = done[i]
            code |= (src + 1) << (5 * i) | (1 if hit else 0) << (HIT_SHIFT + i)
        d1, d2 = self.dice
        if d1 != d2 and done and done[0][1] == min(d1, d2):
            code |= 1 << ORDER_BIT
        return code

    @property
    def play(self):
        """The finished Play (None until the turn is complete)."""
        return Play(self.position, self.dice, self.code()) if self.complete else None

    def play_forced(self):
        """Plays the only legal play, if there is exactly one; returns the steps made."""
        if self.count != 1 or self.done:
            return []
        made = []
        order = die_order(self.dice, self._first)
        for i in range(self.length):
            made.append(_hop(self._push((self._first >> (5 * i) & 31) - 1, order[i])))
        return made
