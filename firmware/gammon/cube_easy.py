# The easy level's doubles (issue 14: weaker than the strong level's cube, better than never
# doubling): the strong level's own rules on the same one network evaluation, with blunter
# margins. Money play: gammon/cube_money.py's, but with contact a double must gain 0.15 a
# cube over no double (strong: 0.12): late, half as often in the same positions; races
# (Keith's count) and crashed positions as strong. Match play: gammon/cube.py's formula, but
# it doubles a little early, wherever doubling costs it at most 1% of the match (strong: where
# doubling gains). Never a position worth more played on (too good). Its takes are the strong
# level's. Fitted on the easy level's own games against gnubg 0-ply (bench/strength/easy.py,
# tuning seeds 7301 and 7302; docs/opponent.md): a later double lost fewer money points than
# never doubling did, yet in a match every later margin won fewer matches (the weaker side
# gains from the cube's swings), and doubling early won as many as strong's formula.
#
# API (gammon/cube_play.py): p, t, x and board as gammon/cube_money.py has them.
#   doubles(p, t, x, board) -> whether the player on roll doubles
from kernels.compat import const

from gammon import cube, cube_money

MONEY_DOUBLE = const(614)  # in P (4096 = one point a cube): 0.15
MATCH_DOUBLE = const(-655)  # in M (65536 = the whole match): -1%


def doubles(p, t, x, board):
    """Whether the player on roll doubles (see the module's comment)."""
    if not cube.may_double(t):
        return False
    if t.length == 0 and (not cube.contact(board) or cube_money.crashed(board)):
        return cube_money.doubles(p, t, x, board)
    if cube.action(p, t, x) == cube.TOO_GOOD:
        return False
    nd, dt, dp = cube.equities(p, t, x)
    return nd > dp or min(dt, dp) - nd >= (MATCH_DOUBLE if t.length else MONEY_DOUBLE)
