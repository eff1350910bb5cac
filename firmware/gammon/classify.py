# The class of a position, as GNU Backgammon's ClassifyPosition sorts them, so that the
# board can pick the evaluator for it: a contact network, a crashed one, a race one, the
# bear-off table. Plain loops over the 50 counts (gammon.Position.key()); nothing allocated.
from kernels.compat import const

BEAROFF = const(0)  # no contact, every checker of both sides in its home board
RACE = const(1)  # no contact
CRASHED = const(2)  # contact, and a side with few checkers left in play (crashed())
CONTACT = const(3)
NAMES = ("bearoff", "race", "crashed", "contact")


def contact(board):
    """Whether the sides of a 50-byte board (gammon.Position.key()) can still hit."""
    me = opp = -1
    for i in range(25):
        if board[i]:
            me = i
        if board[25 + i]:
            opp = i
    return me >= 0 and opp >= 0 and me + opp > 23


def crashed(board):
    """Whether a side is crashed as gnubg classifies it: six checkers or fewer left in play
    once those piled on its 1 point (and 2 point) are set aside."""
    for s in (0, 25):
        left = 0
        for i in range(25):
            left += board[s + i]
        one, two = board[s], board[s + 1]
        if left <= 6:
            return True
        if one > 1:
            if left <= 6 + one or (two > 1 and 1 + left - one - two <= 6):
                return True
        elif left <= 5 + two:
            return True
    return False


def _home(board, s):
    """Whether every checker of the side at board[s:s + 25] is on its points 1-6."""
    for i in range(s + 6, s + 25):
        if board[i]:
            return False
    return True


def classify(board):
    """BEAROFF, RACE, CRASHED or CONTACT for a 50-byte board (gnubg's classes 4-7, 8, 9
    and 10; a finished game counts as a bear-off)."""
    if contact(board):
        return CRASHED if crashed(board) else CONTACT
    return BEAROFF if _home(board, 0) and _home(board, 25) else RACE
