# The bear-off by the table instead of the network: once both sides have every checker in
# their home boards (no contact can come back) and each has borne one off (no gammon is left),
# the game is a race of two independent bear-offs, and the one-sided table (gammon/bearoff.py)
# gives its winning chance: the side on roll wins with sum over n of P_me(n) * P_opp(>= n).
# Its equity is then 2 P(win) - 1 at any score. Elsewhere the network decides.
from array import array

from kernels.compat import MICROPY, const

from .bearoff import ONE, ROLLS, Table, index

_PROB_ONE = const(4096)  # an equity of one point (kernels.net.PROB_ONE)
_QUARTER = const(16383)  # ONE >> 2


def exact(board, positions):
    """Whether the table decides the 50-byte `board` (each side's 25 counts: points 1-24,
    the bar): every checker of both sides on its points 1-6, each side with one off at
    least, and each home board among the table's first `positions`."""
    for side in (0, 25):
        left = 0
        for i in range(side, side + 25):
            c = board[i]
            if c:
                if i - side >= 6:
                    return False
                left += c
        if left >= 15 or index(board, side) >= positions:
            return False
    return True


class Endgame:
    """Stands in for the network (`net`: kernels.net.Net) where `exact` holds, with the
    interface gammon/opponent.py's ranking uses: `after`, `values`, `set_base`,
    `equity_after`, `equity`. Equities out of 4096, for the side on roll."""

    def __init__(self, net, table):
        self.net = net
        self.table = table
        self.after = net.after  # where a play is made (opponent.score)
        self.values = net.values  # a game won now counts as the network says
        self.positions = table.positions
        self._roller = 25
        self._rolls = array("I", bytes(4 * ROLLS))  # the side on roll's distribution
        self._other = array("I", bytes(4 * ROLLS))  # the other's chance of >= n rolls
        self._roll_index = -1
        self._other_index = -1
        self._span = 0  # the side on roll's first roll count | one past its last << 8

    def exact(self, board):
        return exact(board, self.positions)

    def set_base(self, board, roller=0):
        """As Net.set_base: the side whose counts start at `roller` is on roll; its equity."""
        self._roller = roller
        return self.equity(board, roller)

    def equity_after(self):
        """The equity of the board in `after` for the base's side on roll."""
        return self.equity(self.after, self._roller)

    def equity(self, board, roller=0):
        """2 P(win) - 1 out of 4096 for the side whose counts start at `roller` (0 or 25),
        on roll in the 50-byte `board` (which `exact` accepts)."""
        table = self.table
        i = index(board, roller)
        if i != self._roll_index:
            self._span = table.rolls(i, self._rolls)
            self._roll_index = i
        i = index(board, 25 - roller)
        other = self._other
        if i != self._other_index:
            table.rolls(i, other)
            for n in range(ROLLS - 2, -1, -1):  # P(>= n)
                other[n] += other[n + 1]
            self._other_index = i
        rolls = self._rolls
        total = 0
        for n in range(self._span & 255, self._span >> 8):
            total += rolls[n] * (other[n] >> 2)  # below ONE * 16383 < 2**30: a small int
        win = total // _QUARTER  # out of ONE
        return (2 * _PROB_ONE * win + ONE // 2) // ONE - _PROB_ONE


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
    """An Endgame for `net` from the table frozen into the image (module `frozen`'s TABLE,
    read in flash), else from the file at `path` (kept open, read by seek); None when there
    is neither (the network then plays the bear-off too). A broken table raises ValueError."""
    source = _frozen(frozen)
    if source is None:
        try:
            source = open(path, "rb")
        except OSError:
            return None
    return Endgame(net, Table(source))
