# The bear-off by the table instead of the network: once both sides have every checker in
# their home boards no contact can come back, and the game is a race of two independent
# bear-offs. The one-sided table (gammon/bearoff.py) gives its winning chance: the side on
# roll wins with sum over n of P_me(n) * P_opp(>= n). Where a side has all 15 checkers left,
# the table of the rolls until its first checker is off (G) gives the gammons: the side on
# roll wins one with sum over n of P_me(n) * G_opp(>= n) and loses one with sum over m of
# P_opp(m) * G_me(> m). Backgammons cannot happen. The equity is 2 P(win) - 1 plus the
# gammons at the network's values (money play, or the match score's).
from array import array

from kernels.compat import MICROPY, const

from .bearoff import ONE, ROLLS, Table, index

_PROB_ONE = const(4096)  # an equity of one point (kernels.net.PROB_ONE)
_QUARTER = const(16383)  # ONE >> 2


def exact(board, positions, gammons=False):
    """Whether the table decides the 50-byte `board` (each side's 25 counts: points 1-24,
    the bar): every checker of both sides on its points 1-6, each home board among the
    table's first `positions`, and each side with one off at least unless the table of the
    first checker off is there (`gammons`)."""
    for side in (0, 25):
        left = 0
        for i in range(side, side + 25):
            c = board[i]
            if c:
                if i - side >= 6:
                    return False
                left += c
        if (left >= 15 and not gammons) or index(board, side) >= positions:
            return False
    return True


def _at_least(table, i, out):
    """out[n] = the chance of n or more rolls for position i of `table`."""
    table.rolls(i, out)
    for n in range(ROLLS - 2, -1, -1):
        out[n] += out[n + 1]


def _chance(p, span, at_least, shift):
    """sum over n of p[n] * at_least[n + shift] out of ONE (p zero outside `span`: first |
    one past the last << 8); each product below ONE * 16383, the sum too: a small int."""
    total = 0
    end = span >> 8
    if end + shift > ROLLS:
        end = ROLLS - shift
    for n in range(span & 255, end):
        total += p[n] * (at_least[n + shift] >> 2)
    return total // _QUARTER


class Endgame:
    """Stands in for the network (`net`: kernels.net.Net) where `exact` holds, with the
    interface gammon/opponent.py's ranking uses: `after`, `values`, `set_base`,
    `equity_after`, `equity`. Equities out of 4096, for the side on roll. `first_off`: the
    table of the rolls to the first checker off, or None (then only bear-offs where each side
    has a checker off are decided)."""

    def __init__(self, net, table, first_off=None):
        self.net = net
        self.table = table
        self.first_off = first_off
        self.after = net.after  # where a play is made (opponent.score)
        self.values = net.values  # what gammons count (the network's, set by the chooser)
        self.positions = table.positions
        self._roller = 25
        self._rolls = array("I", bytes(4 * ROLLS))  # the side on roll's distribution
        self._other = array("I", bytes(4 * ROLLS))  # the other's chance of >= n rolls
        self._other_p = array("I", bytes(4 * ROLLS))  # ... of exactly n
        self._first = array("I", bytes(4 * ROLLS))  # G(>= n) of the side on roll
        self._other_first = array("I", bytes(4 * ROLLS))  # ... of the other side
        self._keys = array("i", [-1, -1, -1, -1])  # the positions those hold
        self._span = 0  # the side on roll's first roll count | one past its last << 8
        self._other_span = 0

    def exact(self, board):
        return exact(board, self.positions, self.first_off is not None)

    def set_base(self, board, roller=0):
        """As Net.set_base: the side whose counts start at `roller` is on roll; its equity."""
        self._roller = roller
        return self.equity(board, roller)

    def equity_after(self):
        """The equity of the board in `after` for the base's side on roll."""
        return self.equity(self.after, self._roller)

    def equity(self, board, roller=0):
        """2 P(win) - 1 and the gammons at `values`, out of 4096, for the side whose counts
        start at `roller` (0 or 25), on roll in the 50-byte `board` (which `exact` accepts)."""
        table = self.table
        keys = self._keys
        me = index(board, roller)
        if me != keys[0]:
            self._span = table.rolls(me, self._rolls)
            keys[0] = me
        them = index(board, 25 - roller)
        other = self._other
        if them != keys[1]:
            self._other_span = table.rolls(them, self._other_p)
            _at_least(table, them, other)
            keys[1] = them
        win = _chance(self._rolls, self._span, other, 0)
        eq = (2 * _PROB_ONE * win + ONE // 2) // ONE - _PROB_ONE
        first = self.first_off
        if first is None:
            return eq
        g = 0
        if them >= first.first:  # the other side has all 15 left: it may lose a gammon
            if them != keys[3]:
                _at_least(first, them, self._other_first)
                keys[3] = them
            wg = _chance(self._rolls, self._span, self._other_first, 0)
            g += self.values[0] * ((_PROB_ONE * wg + ONE // 2) // ONE)
        if me >= first.first:  # and so may the side on roll
            if me != keys[2]:
                _at_least(first, me, self._first)
                keys[2] = me
            lg = _chance(self._other_p, self._other_span, self._first, 1)
            g -= self.values[2] * ((_PROB_ONE * lg + ONE // 2) // ONE)
        return eq + ((g + 2048) >> 12)


def _frozen(name):
    """Module `name`'s TABLE when the image holds it frozen, else None. On MicroPython only
    the frozen modules are searched (sys.path ".frozen"): a 0.96 MB table found as a file
    would be loaded into the heap."""
    import sys

    saved = sys.path[:]
    if MICROPY:
        sys.path[:] = [".frozen"]
    try:
        return __import__(name).TABLE
    except ImportError:
        return None
    finally:
        sys.path[:] = saved


def load(net, frozen="bearoff_data", path="bearoff.bin"):
    """An Endgame for `net` from the tables frozen into the image (module `frozen`'s TABLE,
    read in flash), else from the file at `path` (kept open, read by seek); None when there
    is neither (the network then plays the bear-off too). A broken table raises ValueError."""
    source = _frozen(frozen)
    if source is None:
        try:
            source = open(path, "rb")
        except OSError:
            return None
    table = Table(source)
    return Endgame(net, table, table.following())
