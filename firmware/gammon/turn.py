# A turn entered one step at a time, as on the board, accepting only steps of legal plays.
from kernels.movegen import HIT_SHIFT, LEN_SHIFT, ORDER_BIT, CodeList, play_codes, search

from .play import Play, apply_step, check_dice, die_order, undo_step
from .position import Position

# The codes of a new Turn's legal plays and its searches' scratch, for every Turn: made once
# (a press that makes a Turn or asks what can move allocates little), one search at a time.
_codes = CodeList()


def _point(src):
    return src + 1  # index 24 (bar) is 25 in notation, like every point


def _index(point):
    if not isinstance(point, int) or not 1 <= point <= 25:
        raise ValueError("not a point to move from: %r" % (point,))
    return point - 1


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
    """

    def __init__(self, position, dice):
        self.position = position
        self.dice = check_dice(dice)
        d1, d2 = self.dice
        self._board = bytearray(position.key())
        self._left = [d1] * 4 if d1 == d2 else sorted(self.dice, reverse=True)
        self._done = []  # (src index, die, hit)
        codes = play_codes(bytearray(position.key()), self.dice, _codes)
        self.count = len(codes)  # distinct legal plays
        self.length = codes[0] >> LEN_SHIFT & 7 if codes else 0  # steps in a legal play
        self._first = codes[0] if codes else 0
        # With one die playable, all plays use the same die (the larger one when it can).
        self._only_die = die_order(self.dice, self._first)[0] if self.length == 1 else 0

    @property
    def complete(self):
        return len(self._done) == self.length

    @property
    def remaining(self):
        return tuple(self._left) if not self.complete else ()

    @property
    def steps(self):
        return tuple((_point(s), max(s - d + 1, 0), h) for s, d, h in self._done)

    @property
    def result(self):
        return Position(bytes(self._board))

    @property
    def forced(self):
        return self.count == 1

    def _ok(self, src, die):
        if self.complete or (self._only_die and die != self._only_die):
            return False
        if not _legal_step(self._board, src, die):
            return False
        need = self.length - len(self._done) - 1
        if need == 0:
            return True
        hit = apply_step(self._board, src, die)
        left = self._left  # the die taken out for the search and put back where it was
        i = left.index(die)
        del left[i]
        try:
            best = search(self._board, left, _codes)
        finally:
            left.insert(i, die)
            undo_step(self._board, src, die, hit)
        return best >= need

    def _push(self, src, die):
        hit = apply_step(self._board, src, die)
        self._left.remove(die)
        self._done.append((src, die, hit))
        return (_point(src), max(src - die + 1, 0), hit)

    def _pop(self):
        src, die, hit = self._done.pop()
        undo_step(self._board, src, die, hit)
        self._left.append(die)
        self._left.sort(reverse=True)
        return (_point(src), max(src - die + 1, 0), hit)

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
                            out.append(_point(src))
                            break
        return out

    def _dice_left(self):
        out = []
        for d in self._left:
            if d not in out:
                out.append(d)
        return out

    def _routes(self, src, path, found):
        for die in self._dice_left():
            if self._ok(src, die):
                t = src - die
                dest = t + 1 if t >= 0 else 0
                route = path + [die]
                if dest not in found:
                    found[dest] = route
                if t >= 0:
                    self._push(src, die)
                    self._routes(t, route, found)
                    self._pop()

    def destinations(self, frm):
        """{to: dice} for every point the checker on `frm` can reach with one or more dice.

        When two orders of the dice reach one point, the larger die goes first.
        """
        found = {}
        self._routes(_index(frm), [], found)
        return found

    def step(self, frm, to):
        """Moves the checker on `frm` to `to`; returns the single steps made, with hits."""
        route = self.destinations(frm).get(to)
        if route is None:
            raise ValueError("not a legal move now: %s/%s" % (frm, "off" if to == 0 else to))
        src = _index(frm)
        made = []
        for die in route:
            made.append(self._push(src, die))
            src -= die
        return made

    def undo(self):
        """Takes back the last single step; returns it, or None at the start of the turn."""
        return self._pop() if self._done else None

    def code(self):
        """The play code of the steps entered, comparable with legal_plays' codes."""
        code = len(self._done) << LEN_SHIFT
        for i in range(len(self._done)):
            src, die, hit = self._done[i]
            code |= (src + 1) << (5 * i) | (1 if hit else 0) << (HIT_SHIFT + i)
        d1, d2 = self.dice
        if d1 != d2 and self._done and self._done[0][1] == min(d1, d2):
            code |= 1 << ORDER_BIT
        return code

    @property
    def play(self):
        """The finished Play (None until the turn is complete)."""
        return Play(self.position, self.dice, self.code()) if self.complete else None

    def play_forced(self):
        """Plays the only legal play, if there is exactly one; returns the steps made."""
        if self.count != 1 or self._done:
            return []
        made = []
        order = die_order(self.dice, self._first)
        for i in range(self.length):
            made.append(self._push((self._first >> (5 * i) & 31) - 1, order[i]))
        return made
