# The easy level's doubles (issue 14: weaker than the strong level's cube, better than never
# doubling): the strong level's own rules on the same one network evaluation, with a blunter
# margin that makes it double late. Money play: gammon/cube_money.py's, but with contact a
# double must gain 0.15 a cube over no double (strong: 0.12), which leaves about half the
# strong level's doubles; races (Keith's count) and crashed positions as strong. Match play:
# gammon/cube.py's formula, but a double must gain 3% of the match (strong: any gain), which
# mostly only scores near a match's end allow (2 away against 2 or 1, 3 or 4 away against 1).
# A cash (no double worth more than the drop, as cube.action counts it) is made as strong
# makes it. Its takes are the strong level's. Fitted on the easy level's own games against
# gnubg 0-ply, its decisions judged by gnubg 2-ply (tuning seeds 7301 and 7302; the figures
# are in docs/opponent.md).
#
# API (gammon/cube_play.py): p, t, x and board as gammon/cube_money.py has them.
#   doubles(p, t, x, board) -> whether the player on roll doubles
from kernels.compat import const

from gammon import cube, cube_money

MONEY_DOUBLE = const(614)  # in P (4096 = one point a cube): 0.15
MATCH_DOUBLE = const(1966)  # in M (65536 = the whole match): 3%


def doubles(p, t, x, board):
    """Whether the player on roll doubles (see the module's comment)."""
    if not cube.may_double(t):
        return False
    if t.length == 0 and (not cube.contact(board) or cube_money.crashed(board)):
        return cube_money.doubles(p, t, x, board)
    if cube.action(p, t, x) != cube.DOUBLE:
        return False
    nd, dt, dp = cube.equities(p, t, x)
    return nd > dp or min(dt, dp) - nd >= (MATCH_DOUBLE if t.length else MONEY_DOUBLE)
