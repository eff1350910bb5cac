# The strong level's money cube decisions where the network's probabilities alone decide
# badly: they are off by about 0.1 in the chance to win with contact (noise, which no mapping
# of the outputs removes) and biased against the leader in races. Measured against GNU
# Backgammon 2-ply (bench/strength/calib.py, docs/opponent.md): in a race Keith's count
# decides double and take; with contact a double must beat no double by a margin fitted to
# gnubg; a crashed position (gnubg's class) is doubled and taken only with wide margins.
# Match play keeps gammon/cube.py's decisions as they are (they meet their target).
#
# API (gammon/cube_play.py): p, t and x as gammon/cube.py has them (the player on roll's, the
# doubler's), `board` the 50-byte Position.key() with the player on roll's counts first.
#   doubles(p, t, x, board, margin=MARGIN_DOUBLE) -> whether the player on roll doubles in
#       money play, `margin` the contact margin of the network the chances come from
#   network_margin(hidden) -> that margin for a network of `hidden` units
#   takes(p, t, x, board) -> whether its opponent takes that double
#   keith(board, owned) -> (double, take): Keith's race count for the player on roll
#   crashed(board) -> whether either side has crashed (gnubg's ClassifyPosition)
from kernels.compat import const

from gammon import cube
from gammon.classify import crashed  # noqa: F401 (the API's: cube_money.crashed)

# Fitted on noisy gnubg self-play and on the board's own money games against gnubg 0-ply (the
# tuning seeds of docs/opponent.md, never the reported ones), in P (4096 = one point a cube),
# for each network the board ships: the 40-unit one's chances are noisier than the 64-unit
# one's, whose doubles are best as the formula makes them.
MARGIN_DOUBLE = const(500)  # contact, 40 units: a double must gain 0.12 a cube
MARGIN_DOUBLE_64 = const(0)  # contact, 64 units (or more): the formula's double
MARGIN_CRASHED = const(2458)  # crashed: a double or a take must gain 0.6 (in effect, never)


def _count(board, s):
    """Keith's count of the side whose 25 counts start at `s`: its pips, plus 2 for each
    checker past one on its 1 point, 1 for each past one on its 2 point and past three on
    its 3 point, 1 for each of its 4, 5 and 6 points empty."""
    n = 0
    for i in range(25):
        n += board[s + i] * (i + 1)
    one, two, three = board[s], board[s + 1], board[s + 2]
    if one > 1:
        n += 2 * (one - 1)
    if two > 1:
        n += two - 1
    if three > 3:
        n += three - 3
    for i in range(3, 6):
        if not board[s + i]:
            n += 1
    return n


def keith(board, owned):
    """Keith's rules for the player on roll of a race: add a seventh to its count; it doubles
    when that exceeds the other's count by at most 4 (redoubles, `owned`, by at most 3), and
    the other takes when it exceeds it by at least 2 (compared in sevenths: small ints)."""
    d7 = 8 * _count(board, 0) - 7 * _count(board, 25)
    return d7 <= (21 if owned else 28), d7 >= 14


def network_margin(hidden):
    """The contact double's margin for a network of `hidden` units."""
    return MARGIN_DOUBLE_64 if hidden >= 64 else MARGIN_DOUBLE


def doubles(p, t, x, board, margin=MARGIN_DOUBLE):
    """Whether the player on roll doubles (money play; see the module's comment)."""
    if not cube.may_double(t):
        return False
    act = cube.action(p, t, x)
    if not cube.contact(board):
        double, take = keith(board, t.owner == 0)
        # the network still says when a double that would be dropped is worth more played on
        return double and not (act == cube.TOO_GOOD and not take)
    if act != cube.DOUBLE:
        return False
    nd, dt, dp = cube.equities(p, t, x)
    if nd > dp:  # a cash: nothing to gain by playing on
        return True
    return min(dt, dp) - nd >= (MARGIN_CRASHED if crashed(board) else margin)


def takes(p, t, x, board):
    """Whether the opponent of the player on roll takes its double (p, t and x the
    doubler's)."""
    if not cube.contact(board):
        return keith(board, t.owner == 0)[1]
    nd, dt, dp = cube.equities(p, t, x)
    return dp - dt >= (MARGIN_CRASHED if crashed(board) else 0)
