# The board player's choice as it was made in one piece (before slices, 2026-12-01): the
# reference gammon.opponent's sliced choice must equal, play for play. It shares with it what
# slicing does not touch (the rolls, a play's score, the list of the best, the close ones,
# the replies' base); what it checks is the order of the work and its accounting.
from gammon.opponent import (
    _ROLLS,
    BUDGET,
    LEVELS,
    _packed,
    close_ones,
    keep_best,
    replies_base,
    score,
)
from gammon.play import Play, check_dice
from kernels.compat import const
from kernels.movegen import play_codes

_ONE = const(4096)  # one point of equity (kernels.net.PROB_ONE)
_CANDIDATES = const(4)  # plays the look-ahead may reconsider
_EASY_NOISE = const(410)  # easy adds up to a tenth of a point of chance to each play


class Reference:
    """Chooses plays for a side; `evaluations` counts the network calls of the last choice."""

    def __init__(self, net):
        self.net = net
        self.board = bytearray(50)
        self.after = bytearray(50)
        self.evaluations = 0

    def best(self, board, dice, keep, rand=None, noise=0):
        """The `keep` best [(equity, code)] of `dice` on 50-byte `board`, best first.

        Equities (4096 = one point) are for the mover; with `noise`, each play's score is
        moved by a random amount below it (the easy level's judgement).
        """
        codes = play_codes(board, dice)
        dice = _packed(dice)
        self.net.set_base(board, 25)
        top = []
        for i in range(len(codes)):
            eq = score(self.net, board, codes[i], dice)
            keep_best(top, keep, eq + rand(noise) if noise else eq, codes[i])
        self.evaluations += len(codes)
        return top

    def look_ahead(self, board, dice, code, budget):
        """The mover's equity averaged over the 21 rolls of the reply, each replied to at
        its best at 0-ply; None past `budget` evaluations (the choice's)."""
        net = self.net
        won = replies_base(net, self.board, self.after, board, code, dice)
        if won:
            return won * _ONE
        total = 0
        for r in range(21):
            roll = _ROLLS[2 * r : 2 * r + 2]  # two bytes a roll
            codes = play_codes(self.board, roll)
            if self.evaluations + (len(codes) or 1) > budget:  # the choice's whole budget
                return None
            self.evaluations += len(codes) or 1
            if not codes:
                best = net.equity(self.board, 25)
            else:
                packed = _packed(roll)
                best = min(-score(net, self.board, codes[i], packed) for i in range(len(codes)))
            total += best if r < 6 else 2 * best
        return total // 36

    def choose(self, position, dice, level="strong", rand=None):
        """The Play this level makes, or None when nothing can move.

        `rand(n)` gives a number below n (the board's dice generator) for the easy level.
        """
        if level not in LEVELS:
            raise ValueError("unknown level %r" % (level,))
        dice = check_dice(dice)
        self.evaluations = 0
        start = bytearray(position.key())
        if level == "easy":
            top = self.best(start, dice, 1, rand, _EASY_NOISE if rand else 0)
            return Play(position, dice, top[0][1]) if top else None
        top = self.best(start, dice, _CANDIDATES)
        if not top:
            return None
        best_eq, best = top[0]
        close = close_ones(top)
        if close > 1:
            best_eq = -4 * _ONE
            for i in range(close):
                eq = self.look_ahead(start, dice, top[i][1], BUDGET)
                if eq is None:
                    break
                if eq > best_eq:
                    best_eq, best = eq, top[i][1]
        return Play(position, dice, best)
