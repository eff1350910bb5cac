# Match play's cubeful winning chances from cubeless probabilities, in integers, as GNU
# Backgammon's 0-ply evaluation does (its Cl2CfMatch and GetPoints): the match equity table
# (gammon/met.py) gives the chance at each score a game can end on; the live cube's cash
# points follow from the highest cube still alive down. Used by gammon/cube.py (loaded with
# it, only when cube play is on). Units: P (4096 = 1) for probabilities, M (65536 = 1) for
# match winning chances; every product stays under 2**29.
from kernels.compat import const

from gammon.met import mwc as _mwc

P = const(4096)
M = const(65536)


def div(a, b):
    """a / b rounded to the nearest integer (b != 0)."""
    if b < 0:
        a, b = -a, -b
    return (2 * a + b) // (2 * b)


def ratios(p):
    """(gammon, backgammon) rates of my wins, then of my losses, out of P."""
    w, wg, wbg, lg, lbg = p
    lose = P - w
    if w > 0:
        g0, b0 = div((wg - wbg) * P, w), div(wbg * P, w)
    else:
        g0 = b0 = 0
    if lose > 0:
        g1, b1 = div((lg - lbg) * P, lose), div(lbg * P, lose)
    else:
        g1 = b1 = 0
    return g0, b0, g1, b1


def won(t, points):
    """My chance once the game ends with me `points` up (negative: down)."""
    post = t.post()
    if points > 0:
        return _mwc(t.away_me - points, t.away_opp, post)
    return _mwc(t.away_me, t.away_opp + points, post)


def _mix(r, k, g, b, c, sign):
    """Player k's chance when it wins (sign 1) or loses (-1) a game at cube c, gammons and
    backgammons at rates g and b: the three outcomes weighted (r(k, points) as below)."""
    return (r(k, sign * c) * (P - g - b) + r(k, sign * 2 * c) * g + r(k, sign * 3 * c) * b) // P


def _cash_points(t, rates):
    """The live-cube cash points of both players (out of P) at the cube t.cube, as gnubg's
    GetPoints: from the highest cube still alive down, each player's cash point follows
    from the other's at the next cube."""
    i = t.away_me - 1
    j = t.away_opp - 1
    g = (rates[0], rates[2])
    b = (rates[1], rates[3])

    def r(k, points):  # player k's chance when k ends `points` up
        mine = won(t, points if k == 0 else -points)
        return mine if k == 0 else M - mine

    dead = t.cube
    top = 0
    while i >= 2 * dead and j >= 2 * dead:
        top += 1
        dead *= 2
    live = [[0] * (top + 2), [0] * (top + 2)]
    v = dead
    n = top
    while n >= 0:
        away = (i, j)
        for k in (0, 1):
            if i < 2 * v or j < 2 * v:
                # the doubled cube is dead; the taker's automatic redouble counts
                pv = 2 * v if away[k] < 2 * v and away[1 - k] >= 2 * v else v
                dtl = _mix(r, k, g[1 - k], b[1 - k], 2 * pv, -1)
                dtw = _mix(r, k, g[k], b[k], 2 * pv, 1)
                dp = r(k, v)
                live[k][n] = div((dtl - dp) * P, dtl - dtw) if dtl != dtw else P // 2
            else:
                rdp = r(k, -2 * v)
                dp = r(k, v)
                dtw = _mix(r, k, g[k], b[k], 2 * v, 1)
                den = rdp - dtw
                live[k][n] = P - (div(live[1 - k][n + 1] * (dp - dtw), den) if den else 0)
        v //= 2
        n -= 1
    return live[0][0], live[1][0]


def _live_cube(t):
    """Whether gnubg evaluates the cube as live at these terms (its fDoCubeful)."""
    c = t.cube
    if t.away_me <= c and t.away_opp <= c:
        return False
    if t.away_me == 2 and t.away_opp == 2:
        return False
    return not t.crawford


def match_parts(p, t):
    """(dead, live): my match winning chance (M) with a dead cube and a fully live one."""
    w = p[0]
    lose = P - w
    rates = ratios(p)
    g0, b0, g1, b1 = rates
    c = t.cube
    ww = won(t, c)
    ll = won(t, -c)
    win = (ww * (P - g0 - b0) + won(t, 2 * c) * g0 + won(t, 3 * c) * b0) // P
    loss = (ll * (P - g1 - b1) + won(t, -2 * c) * g1 + won(t, -3 * c) * b1) // P
    dead = (win * w + loss * lose) // P
    if not _live_cube(t):
        return dead, dead
    cp0, cp1 = _cash_points(t, rates)
    if t.owner != 0:  # the opponent may double: below its point it cashes
        opp_tg = P - cp1
        if w <= opp_tg:
            live = loss + div((ll - loss) * w, opp_tg) if opp_tg > 0 else loss
            return dead, live
        if t.owner == 1:
            return dead, ll + div((win - ll) * (w - opp_tg), P - opp_tg)
        if w < cp0:
            return dead, ll + div((ww - ll) * (w - opp_tg), cp0 - opp_tg)
    elif w <= cp0:
        return dead, loss + div((ww - loss) * w, cp0) if cp0 > 0 else loss
    live = ww + div((win - ww) * (w - cp0), P - cp0) if cp0 < P else win
    return dead, live


def match(p, t, x):
    """My cubeful match winning chance (M): (1 - x) dead + x live."""
    dead, live = match_parts(p, t)
    return dead + div((live - dead) * x, P)
