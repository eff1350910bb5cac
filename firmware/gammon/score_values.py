# Checker play at the match score: what a gammon and a backgammon are worth to the player on
# roll at this score and cube, from the match equity table (gammon/met.py), as the weights
# kernels.net.Net.set_values takes. Loaded only in a match to points; integers only.
#
# The usual normalisation (gnubg's gammon price): with W, G, B my match winning chance (M)
# after I win a single game, a gammon, a backgammon at the cube, and L, LG, LB after I lose
# one, an evaluation's equity 2 w - 1 + g0 wg + b0 wb - g1 lg - b1 lb, where
# g0 = 2 (G - W) / (W - L), b0 = 2 (B - G) / (W - L), g1 = 2 (L - LG) / (W - L),
# b1 = 2 (LG - LB) / (W - L), is (2 MWC - W - L) / (W - L): ranking plays by it ranks them
# by match winning chance. In money play each weight is 1 (4096 here); a gammon that cannot
# change the match (the leader at DMP, a cube that wins the match anyway) weighs 0.
from kernels.compat import const

from gammon.met import mwc

_ONE = const(4096)  # a weight of 1 (kernels.net.PROB_ONE)
CAP = const(32768)  # kernels.net.VALUE_MAX: a weight of 8 at most (no 7-point match near)


def _weight(d, den):
    """2 d / den out of 4096, rounded, within 0..CAP (8192 d < 2**29: a small int)."""
    if d <= 0:
        return 0
    w = (8192 * d + den // 2) // den
    return CAP if w > CAP else w


def weights(away_me, away_opp, cube, crawford=False):
    """(g0, b0, g1, b1) out of 4096 for the player on roll `away_me` points from winning its
    match against one `away_opp` away, the cube at `cube`; `crawford`: this game is the
    Crawford game (the games after it too, once a side is 1 away, as gnubg's table has it)."""
    post = crawford or away_me == 1 or away_opp == 1
    w1 = mwc(away_me - cube, away_opp, post)
    w2 = mwc(away_me - 2 * cube, away_opp, post)
    w3 = mwc(away_me - 3 * cube, away_opp, post)
    l1 = mwc(away_me, away_opp - cube, post)
    l2 = mwc(away_me, away_opp - 2 * cube, post)
    l3 = mwc(away_me, away_opp - 3 * cube, post)
    den = w1 - l1
    if den <= 0:  # (never with a table whose every entry a win raises)
        return _ONE, _ONE, _ONE, _ONE
    return (_weight(w2 - w1, den), _weight(w3 - w2, den), _weight(l1 - l2, den),
            _weight(l2 - l3, den))


def values(match, player):
    """The weights for `player` on roll in a gammon.match.Match, or None in money play
    (where the board keeps money play's, also under the Jacoby rule)."""
    n = match.length
    if not n:
        return None
    return weights(n - match.score[player], n - match.score[1 - player], match.cube,
                   match.crawford)


def swapped(v):
    """The same weights seen by the other side: its wins are my losses."""
    return v[2], v[3], v[0], v[1]
