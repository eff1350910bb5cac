# The board player's choice as it was made in one piece (before slices, 2026-12-01): the
# reference gammon.opponent's sliced choice must equal, play for play.
from gammon.play import Play, check_dice
from kernels.compat import const
from kernels.movegen import play_codes
from kernels.net import _play, _won

LEVELS = ("easy", "strong")
_ONE = const(4096)  # one point of equity (kernels.net.PROB_ONE)
_CANDIDATES = const(4)  # plays the look-ahead may reconsider
_CLOSE = const(819)  # ... when within 0.2 points of the best at 0-ply
BUDGET = const(2400)  # evaluations a choice may spend (about 15 ms on the unix port)
_EASY_NOISE = const(410)  # easy adds up to a tenth of a point of chance to each play
_ROLLS = (
    (1, 1),
    (2, 2),
    (3, 3),
    (4, 4),
    (5, 5),
    (6, 6),
    (1, 2),
    (1, 3),
    (1, 4),
    (1, 5),
    (1, 6),
    (2, 3),
    (2, 4),
    (2, 5),
    (2, 6),
    (3, 4),
    (3, 5),
    (3, 6),
    (4, 5),
    (4, 6),
    (5, 6),
)  # the first six come once in 36, the others twice


def _packed(dice):
    d1, d2 = dice
    return (d1 | d2 << 3) if d1 >= d2 else (d2 | d1 << 3)


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
        net = self.net
        net.set_base(board, 25)
        after = net.after
        top = []
        for i in range(len(codes)):
            code = codes[i]
            _play(after, board, code, dice)
            won = _won(after, 0)
            eq = won * _ONE if won else -net.equity_after()
            if noise:
                eq += rand(noise)
            if len(top) < keep or eq > top[-1][0]:
                j = len(top)
                while j and top[j - 1][0] < eq:
                    j -= 1
                top.insert(j, (eq, code))
                if len(top) > keep:
                    top.pop()
        self.evaluations += len(codes)
        return top

    def look_ahead(self, board, dice, code, budget):
        """Mean equity after the opponent's best 0-ply reply to each of the 21 rolls, or
        None when that would take more than `budget` evaluations."""
        after = self.after
        _play(after, board, code, _packed(dice))
        won = _won(after, 0)
        if won:
            return won * _ONE
        swapped = self.board
        swapped[:25] = after[25:]
        swapped[25:] = after[:25]
        net = self.net
        net.set_base(swapped, 25)
        reply = net.after
        total = 0
        spent = 0
        for r in range(21):
            roll = _ROLLS[r]
            codes = play_codes(swapped, roll)
            n = len(codes)
            if spent + (n or 1) > budget:
                self.evaluations += spent
                return None
            spent += n or 1
            if n == 0:
                best = net.equity(swapped, 25)
            else:
                best = 3 * _ONE
                packed = _packed(roll)
                for i in range(n):
                    _play(reply, swapped, codes[i], packed)
                    won = _won(reply, 0)
                    value = -won * _ONE if won else net.equity_after()
                    if value < best:
                        best = value
            total += best if r < 6 else 2 * best
        self.evaluations += spent
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
        close = 1
        while close < len(top) and top[close][0] >= best_eq - _CLOSE:
            close += 1
        if close > 1:
            best_eq = -4 * _ONE
            for i in range(close):
                eq = self.look_ahead(start, dice, top[i][1], BUDGET - self.evaluations)
                if eq is None:
                    break
                if eq > best_eq:
                    best_eq, best = eq, top[i][1]
        return Play(position, dice, best)
