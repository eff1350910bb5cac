# The board's own player: ranks the legal plays with the network and picks one by level, in
# slices, so the board's loop keeps turning (LEDs, buttons, serial) while it thinks.
# "strong" looks one roll ahead on its closest candidates; "easy" plays a sensible move
# picked at random among the near-best ones. Work is bounded by a count of evaluations, not
# by a clock, so a choice is repeatable, the slowest one is known and a slice is the same
# amount of work on every board (SLICE evaluations: ~0.2 ms on the unix port, ~40 ms on an
# RP2040, where the whole strong choice takes 0.6 s on average and 1.8 s at worst).
# In a match the network's equities count gammons and backgammons at the score (`values`,
# gammon/score_values.py, set on the network at the start of a choice); money play's count
# each once, as before.
from gc import collect

from kernels.apply import _play, _won
from kernels.compat import const
from kernels.movegen import CodeList, play_codes

from .play import Play, check_dice

LEVELS = ("easy", "strong")
_ONE = const(4096)  # one point of equity (kernels.net.PROB_ONE)
_CANDIDATES = const(4)  # plays the look-ahead may reconsider
_CLOSE = const(819)  # ... when within 0.2 points of the best at 0-ply
_BOUND = const(65536)  # beyond any equity: 1 + twice kernels.net.VALUE_MAX is 17 points
BUDGET = const(2400)  # evaluations a choice may spend (about 15 ms on the unix port)
SLICE = const(32)  # evaluations a slice may spend (Choice.step): ~0.15 ms on the unix port
_KEEPS = const(16)  # a slice's share for one call of a Choice's `keeps` (a step search)
_EASY_NOISE = const(410)  # easy adds up to a tenth of a point of chance to each play
_CHUNKS = const(4)  # 64-code chunks the play-code list keeps between choices (256 plays)
_CHUNK_SHIFT = const(6)  # a CodeList's codes: chunks[i >> 6][i & 63] (kernels/movegen.py)
_CHUNK_MASK = const(63)
# The 21 rolls, the first six (the doubles) once in 36, the others twice: two bytes each (one
# bytes object, not 21 tuples: heap)
_ROLLS = (
    b"\x01\x01\x02\x02\x03\x03\x04\x04\x05\x05\x06\x06"
    b"\x01\x02\x01\x03\x01\x04\x01\x05\x01\x06\x02\x03\x02\x04\x02\x05\x02\x06"
    b"\x03\x04\x03\x05\x03\x06\x04\x05\x04\x06\x05\x06"
)


def _packed(dice):
    d1, d2 = dice
    return (d1 | d2 << 3) if d1 >= d2 else (d2 | d1 << 3)


def won_value(values, won, first):
    """What a game won now (1-3: single, gammon, backgammon) is worth to its winner, whose
    weights are values[first] (a gammon) and values[first + 1] (a backgammon): 4096 for a
    single game, each more by its weight (money play: 4096, 8192, 12288)."""
    if won == 1:
        return _ONE
    v = _ONE + values[first]
    return v + values[first + 1] if won == 3 else v


def score(net, board, code, packed):
    """The mover's equity (4096 = one point) after play `code` on 50-byte `board`, the
    network's base being `board`: the position is made in net.after, no Position needed.
    The network's values are the other side's (on roll after the play)."""
    after = net.after
    _play(after, board, code, packed)
    won = _won(after, 0)
    return won_value(net.values, won, 2) if won else -net.equity_after()


def keep_best(top, keep, eq, code):
    """(eq, code) into `top`, best first, when it is among the `keep` best."""
    if len(top) < keep or eq > top[-1][0]:
        j = len(top)
        while j and top[j - 1][0] < eq:
            j -= 1
        top.insert(j, (eq, code))
        if len(top) > keep:
            top.pop()


def replies_base(net, swapped, after, board, code, dice):
    """The game's value for the mover (1-3) when play `code` on 50-byte `board` ends the
    game, else 0 with `swapped` the board after it, the other side's counts first (its turn
    to reply), as the network's base (`after`: scratch)."""
    _play(after, board, code, _packed(dice))
    won = _won(after, 0)
    if not won:
        swapped[:25] = after[25:]
        swapped[25:] = after[:25]
        net.set_base(swapped, 25)
    return won


def close_ones(top):
    """How many of `top` (best first) are close enough to the best to look ahead on."""
    close = 1
    while close < len(top) and top[close][0] >= top[0][0] - _CLOSE:
        close += 1
    return close


def chance(seed):
    """rand(n) in [0, n) for the easy level from a 16-bit `seed` (one draw of the board's
    dice generator a choice): a small LCG (x * 75 + 74 mod 65537), so the hundreds of calls
    of one choice allocate nothing and stay small ints on a 32-bit board."""
    state = [seed & 0xFFFF]

    def rand(n):
        state[0] = (state[0] * 75 + 74) % 65537
        return state[0] % n

    return rand


class Choice:
    """One choice made in slices: each step() spends about SLICE evaluations, or the number its
    caller gives (the frame's budget is the caller's), and returns True once `play` is known
    (None: nothing can move). One choice at a time per Opponent: a choice interrupted by
    another (a hint, a test) starts again at its next step."""

    def __init__(self, opp, position, dice, level, rand, keeps, values):
        self.opp = opp
        self.values = values
        self.position = position
        self.dice = dice
        self.level = level
        self.rand = rand
        self.keeps = keeps
        self.play = None
        self.done = False
        self.slices = 0
        self._gen = None

    def step(self, evaluations=SLICE):
        if self.done:
            return True
        opp = self.opp
        if opp.current is not self or self._gen is None:
            opp.current = self
            self._gen = opp._choose(self)
        opp.left = opp.given = evaluations
        self.slices += 1
        try:
            next(self._gen)
        except StopIteration:
            self.done = True
        except Exception:
            self._gen = None  # a retry starts again
            raise
        if self.done:
            self._gen = None
            opp.current = None
            opp.codes.reset()  # the chunks of a rare position of hundreds of plays go
        return self.done


class Opponent:
    """Chooses plays for a side; `evaluations` counts the network calls of the last choice.
    Its boards and play-code lists are made once, with it."""

    def __init__(self, net, endgame=None):
        self.net = net
        self.endgame = endgame  # gammon/endgame.py: the bear-off by its table, or None
        self.start = bytearray(50)  # the position chosen for
        self.board = bytearray(50)  # a candidate's result, the other side on roll
        self.after = bytearray(50)
        self.roll = bytearray(2)  # the reply roll the look-ahead is on (_ROLLS)
        self.codes = CodeList(_CHUNKS)  # kept: searches write codes without allocating
        self.evaluations = 0
        self.left = 0  # evaluations the slice under way may still spend
        self.given = 0  # ... of those it was given
        self.current = None  # the Choice under way
        self.collect = collect  # a choice's first: autoplay.Bot sets its app's idle one

    def think(self, position, dice, level="strong", rand=None, keeps=None, values=None):
        """A Choice of the play this level makes, to be made by its step() calls.

        `rand(n)` gives a number below n (chance()) for the easy level. With `keeps(code)`
        (the level then does not matter) the choice is the best play at 0-ply that `keeps`
        accepts: a play that keeps the steps already made. `values`: the mover's (g0, b0,
        g1, b1) at the match score (gammon/score_values.py), None in money play.
        """
        if level not in LEVELS:
            raise ValueError("unknown level %r" % (level,))
        return Choice(self, position, check_dice(dice), level, rand, keeps, values)

    def choose(self, position, dice, level="strong", rand=None, values=None):
        """The Play this level makes, or None when nothing can move: a Choice in one go."""
        c = self.think(position, dice, level, rand, None, values)
        while not c.step():
            pass
        return c.play

    def evaluator(self, board):
        """The network, or the bear-off table where it decides exactly (gammon/endgame.py):
        its 0-ply ranking is then the play, with no look-ahead."""
        e = self.endgame
        return e if e is not None and e.exact(board) else self.net

    def play_codes(self, board, dice):
        """movegen.play_codes into this opponent's kept lists (the same codes, same order)."""
        return play_codes(board, dice, self.codes)

    def _choose(self, c):
        """The choice as a generator: it yields whenever the slice's evaluations are spent.
        It starts with a collection of the heap, a slice of its own: the play-code lists may
        grow by thousands of codes, which a heap full of garbage (and of stale pointers that
        a collection made deeper in the search would find) cannot give."""
        self.collect()  # gc.collect, or the app's Collector.soon: in its idle step next
        yield
        self.evaluations = 0
        mine = c.values
        net = self.net
        # the plays are scored from the other side's view (on roll after them), the
        # look-ahead's replies from the mover's
        net.set_values(None if mine is None else (mine[2], mine[3], mine[0], mine[1]))
        start = self.start
        start[:] = c.position.key()
        dice = c.dice
        top = []
        if c.keeps is not None:
            yield from self._rank(start, dice, top, 1, None, 0, c.keeps)
        elif c.level == "easy":
            noise = _EASY_NOISE if c.rand else 0
            yield from self._rank(start, dice, top, 1, c.rand, noise, None)
        else:
            yield from self._rank(start, dice, top, _CANDIDATES, None, 0, None)
            if top:
                best_eq, best = top[0]
                close = close_ones(top)
                if close > 1 and self.evaluator(start) is net:
                    net.set_values(mine)
                    best_eq = -_BOUND
                    for i in range(close):
                        budget = BUDGET - self.evaluations
                        eq = yield from self._ahead(start, dice, top[i][1], budget)
                        if eq is None:
                            break
                        if eq > best_eq:
                            best_eq, best = eq, top[i][1]
                top[0] = (best_eq, best)
        c.play = Play(c.position, dice, top[0][1]) if top else None

    def _rank(self, board, dice, top, keep, rand, noise, keeps):
        """Into `top`: the `keep` best (equity, code) of `dice` on 50-byte `board`, best
        first; with `keeps`, the best play it accepts. Equities (4096 = one point) are for
        the mover; with `noise`, each play's score is moved by rand(noise) (easy)."""
        codes = self.play_codes(board, dice)
        self.left -= 1 + (len(codes) >> 3)  # the search, as long as plays / 8 evaluations
        packed = _packed(dice)
        net = self.evaluator(board)
        net.set_base(board, 25)
        for i in range(len(codes)):
            if self.left <= 0:
                yield
            self.left -= 1
            code = codes[i]
            eq = score(net, board, code, packed)
            if noise:
                eq += rand(noise)
            if keeps is None:
                keep_best(top, keep, eq, code)
            elif not top or eq > top[0][0]:
                self.left -= _KEEPS
                if keeps(code):
                    top[:] = [(eq, code)]
        self.evaluations += len(codes)

    def _ahead(self, board, dice, code, budget):
        """Mean equity after the opponent's best 0-ply reply to each of the 21 rolls, or
        None when that would take more than `budget` evaluations."""
        net = self.net
        swapped = self.board
        won = replies_base(net, swapped, self.after, board, code, dice)
        if won:
            return won_value(net.values, won, 0)  # (the mover's values: it is on roll)
        total = 0
        spent = 0
        for r in range(21):
            if self.left < self.given:  # a reply's move search starts a slice of its own:
                yield  # after a slice's evaluations, a doubles reply's made it ~250-300 us
            roll = self.roll
            roll[0] = _ROLLS[2 * r]
            roll[1] = _ROLLS[2 * r + 1]
            codes = self.play_codes(swapped, roll)
            n = len(codes)
            self.left -= 1 + (n >> 3)  # the search of the replies
            if spent + (n or 1) > budget:
                self.evaluations += spent
                return None
            spent += n or 1
            if n == 0:
                best = net.equity(swapped, 25)
                self.left -= 1
            else:
                best = yield from self._replies(swapped, codes, n, _packed(roll))
            total += best if r < 6 else 2 * best
        self.evaluations += spent
        return total // 36

    def _replies(self, board, codes, n, packed):
        """The least, for the mover, of -score of each of the n replies `codes` on 50-byte
        `board` (the network's base), one evaluation each. score() written out, its names
        bound once and the codes read from their chunks: 95% of a strong choice's
        evaluations are replies, and a call and a lookup each were ~15% of one."""
        net = self.net
        after = net.after
        equity_after = net.equity_after
        values = net.values
        chunks = codes.chunks
        best = _BOUND
        left = self.left
        for i in range(n):
            if left <= 0:
                self.left = left
                yield
                left = self.left
            left -= 1
            _play(after, board, chunks[i >> _CHUNK_SHIFT][i & _CHUNK_MASK], packed)
            won = _won(after, 0)
            value = -won_value(values, won, 2) if won else equity_after()  # -score
            if value < best:
                best = value
        self.left = left
        return best


_shared = None


def _bearoff(net, table):
    """gammon/endgame.load's Endgame, or None. Its modules are loaded only when there is a
    table: the file `table`, or an image with the firmware frozen (which may hold it, and
    whose code costs no heap); and in a heap too cut up for them the network plays
    bear-offs too, rather than no player at all."""
    try:
        from os import stat

        stat(table)
    except OSError:
        if not (globals().get("__file__") or "").startswith(".frozen"):
            return None
    try:
        from .endgame import load

        return load(net, path=table)
    except MemoryError:
        return None


def shared(weights="weights.bin", table="bearoff.bin"):
    """One Opponent for the whole board, its network made on first use from `weights` (a
    path, or the blocks kernels.weights.read gave): about 16 KB with its buffers; with the
    bear-off table frozen into the image or in the file `table` (gammon/endgame.load: about
    3 KB more), when the heap has room for it."""
    global _shared
    if _shared is None:
        from kernels.net import Net

        net = Net(weights)
        _shared = Opponent(net, _bearoff(net, table))
    return _shared
