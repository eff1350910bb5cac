# Cube decisions from cubeless probabilities, in integers: money play by Janowski's formulas,
# match play through the match equity table (gammon/met.py), as GNU Backgammon does at 0-ply.
# Loaded only when cube play is on. Units: probabilities and money equities in P (4096 = 1,
# the network's), match winning chances in M (65536 = 1); every product stays under 2**29.
#
# API (also for bench/strength): a player's view of the match is `Terms(cube, owner, length,
# away_me, away_opp, crawford, jacoby)` (owner -1 centred, 0 mine, 1 the opponent's; away 0
# in money play) or `terms(match, player)`; `p` is (win, win gammon, win backgammon, lose
# gammon, lose backgammon) out of P for the player on roll, gammons counting backgammons
# (kernels.net.Net.probabilities()); `x` the cube efficiency, `efficiency(board)`.
#   equities(p, t, x) -> (nd, dt, dp): no double, double/take, double/pass for the player on
#       roll (money: equity per cube unit, P = 1 point; match: winning chance, M = 1)
#   action(p, t, x) -> NO_DOUBLE, DOUBLE or TOO_GOOD (a double the opponent should drop but
#       worth more played on); doubles(p, t, x); takes(p, t, x) (p and t the doubler's)
#   sure(p, board) -> p corrected by what a race makes certain (no contact only)
#   resign_value(p, t, race) -> 0 or the 1/2/3 to offer; accepts(p, t, x, value) (p and t the
#       resigner's)
from kernels.compat import const

from gammon.classify import contact  # noqa: F401 (the API's: cube.contact)
from gammon.cube_match import M, P, div, match, won  # noqa: F401 (M: the API's unit)

NO_DOUBLE = const(0)
DOUBLE = const(1)
TOO_GOOD = const(2)
ACTIONS = ("no double", "double", "too good")
# Cube efficiency (Janowski's x) by position class, out of P, fitted to gnubg's 0-ply
# cubeful equities (tests/gen_cube.py --fit; docs/opponent.md): with contact 0.76; in a race
# 0.6 + 0.0025 * the roller's pips, at most 0.8; a bear-off (every checker home) 0.6.
X_CONTACT = const(3113)
_X_RACE_BASE = const(245760)  # 0.6 * P, in hundredths
_X_RACE_PIP = const(1024)  # 0.0025 * P, in hundredths
_X_RACE_MIN = const(2458)
X_RACE_MAX = const(3277)
X_BEAROFF = const(2458)


class Terms:
    """The match as seen by one player (see the module's comment)."""

    def __init__(self, cube=1, owner=-1, length=0, away_me=0, away_opp=0, crawford=False,
                 jacoby=True, cube_on=True):
        self.cube_on = bool(cube_on)  # off: cubeless, nobody doubles
        self.cube = cube
        self.owner = owner
        self.length = length
        self.away_me = away_me
        self.away_opp = away_opp
        self.crawford = bool(crawford)
        self.jacoby = bool(jacoby) and length == 0

    def doubled(self):
        """The terms after this player doubles and the opponent takes."""
        return Terms(self.cube * 2, 1, self.length, self.away_me, self.away_opp,
                     self.crawford, self.jacoby, self.cube_on)

    def post(self):
        """Whether this game is the Crawford game or after it: the next is post-Crawford."""
        return self.length and (self.crawford or self.away_me == 1 or self.away_opp == 1)


def terms(match, player):
    """Terms for `player` from a gammon.match.Match."""
    owner = match.owner
    if owner >= 0:
        owner = 0 if owner == player else 1
    n = match.length
    away_me = n - match.score[player] if n else 0
    away_opp = n - match.score[1 - player] if n else 0
    return Terms(match.cube, owner, n, away_me, away_opp, match.crawford,
                 match.jacoby and match.cube_on, match.cube_on)


def efficiency(board):
    """Janowski's x for the position (the player on roll's 25 counts first), out of P."""
    if contact(board):
        return X_CONTACT
    home = True
    pips = 0
    for i in range(25):
        pips += board[i] * (i + 1)
        if i >= 6 and (board[i] or board[25 + i]):
            home = False
    if home:
        return X_BEAROFF
    x = (_X_RACE_BASE + _X_RACE_PIP * pips) // 100
    return _X_RACE_MIN if x < _X_RACE_MIN else X_RACE_MAX if x > X_RACE_MAX else x


# --- money play (Janowski)


def _money_live(big_w, big_l, w, owner, jacoby):
    """The equity with a fully live cube (x = 1): piecewise linear in the chance `w`."""
    den = big_w + big_l + P // 2
    tp = div((big_l - P // 2) * P, den)  # the take point
    cp = div((big_l + P) * P, den)  # the cash point
    if owner < 0:
        if w < tp:
            return -P if jacoby else -big_l + div((big_l - P) * w, tp)
        if w < cp:
            return -P + div(2 * P * (w - tp), cp - tp)
        return P if jacoby else P + div((big_w - P) * (w - cp), P - cp)
    if owner == 0:
        if w < cp:
            return -big_l + div((P + big_l) * w, cp)
        return P + div((big_w - P) * (w - cp), P - cp)
    if w < tp:
        return -big_l + div((big_l - P) * w, tp)
    return -P + div((big_w + P) * (w - tp), P - tp)


def money_parts(p, owner, jacoby):
    """(dead, live): the cubeless equity and the fully live cube's, per cube unit."""
    w, wg, wbg, lg, lbg = p
    gp = 0 if jacoby and owner < 0 else 1  # the Jacoby rule: gammons count once turned
    dead = 2 * w - P + gp * (wg - lg + wbg - lbg)
    if w <= 0 or w >= P:
        return dead, dead
    big_w = P + div((wg + wbg) * P, w)
    big_l = P + div((lg + lbg) * P, P - w)
    return dead, _money_live(big_w, big_l, w, owner, jacoby)


def money(p, owner, jacoby, x):
    """Cubeful money equity per cube unit: (1 - x) dead + x live."""
    dead, live = money_parts(p, owner, jacoby)
    return dead + div((live - dead) * x, P)


# --- decisions


def may_double(t):
    """Whether doubling can gain at these terms (gnubg's GetDPEq): the cube centred or mine,
    no Crawford game, a cube that does not win me the match already, and not the leader
    after the Crawford game."""
    if t.owner == 1 or t.crawford or not t.cube_on:
        return False
    if t.length:
        return t.away_me > t.cube  # (so never the leader 1 away after the Crawford game)
    return t.cube_on


def equities(p, t, x):
    """(no double, double/take, double/pass) for the player on roll: money equity per cube
    unit (P) or match winning chance (M)."""
    if not t.cube_on:
        x = 0
    if t.length == 0:
        nd = money(p, t.owner, t.jacoby, x)
        dt = 2 * money(p, 1, False, x)
        return nd, dt, P
    return match(p, t, x), match(p, t.doubled(), x), won(t, t.cube)


def action(p, t, x):
    """NO_DOUBLE, DOUBLE or TOO_GOOD (gnubg's FindBestCubeDecision, beavers off)."""
    if not may_double(t):
        return NO_DOUBLE
    nd, dt, dp = equities(p, t, x)
    if dt >= nd and dp >= nd:
        return DOUBLE
    if nd > dp:  # the opponent would drop, yet the game played on is worth more ...
        return TOO_GOOD if p[1] > 0 else DOUBLE  # ... for its gammons; none: cash
    return NO_DOUBLE


def optimal(p, t, x):
    """What the position is worth to the player on roll, its cube action played well."""
    nd, dt, dp = equities(p, t, x)
    if action(p, t, x) == DOUBLE:
        return dt if dt < dp else dp
    return nd


def doubles(p, t, x):
    """Whether the player on roll doubles."""
    return action(p, t, x) == DOUBLE


def takes(p, t, x):
    """Whether the opponent of the player on roll (p, t and x are the doubler's) takes."""
    nd, dt, dp = equities(p, t, x)
    return dt < dp


def equity_of(value, t):
    """What ending the game now with me `value` points a cube up (negative: down) is worth,
    in the units of equities()."""
    if t.length == 0:
        return value * P
    return won(t, value * t.cube)


def race_facts(board):
    """What the rules and a count of rolls make sure for the player on roll of a 50-byte
    board without contact: (no win, sure gammon, no gammon, no backgammon). Bearing off takes
    it at least max(pips / 24, checkers / 4) rolls (one to get home and start) against at
    most the opponent's pips / 2 (every die moves a pip); a checker borne off saves the
    gammon, none left in the opponent's home board or on the bar the backgammon."""
    pips = left = outside = 0
    opp_pips = 0
    back = False
    for i in range(25):
        n = board[i]
        pips += n * (i + 1)
        left += n
        if i >= 6:
            outside += n * (i - 5)
        if i >= 18 and n:
            back = True
        opp_pips += board[25 + i] * (i + 1)
    opp_max = (opp_pips + 1) // 2
    rolls = max((pips + 23) // 24, (left + 3) // 4)
    first = (outside + 1 + 23) // 24  # all home, then one checker off
    return rolls > opp_max, left == 15 and first > opp_max, left < 15, not back


def sure(p, board):
    """The probabilities `p` of a position without contact (50-byte `board`) corrected by
    what race_facts and the rules make certain for both sides (the network's estimates are
    least sure at the ends: a backgammon that cannot happen, a gammon already saved)."""
    w, wg, wbg, lg, lbg = p
    no_win, sure_gammon, no_gammon, no_backgammon = race_facts(board)
    left = 0
    back = False
    for i in range(25):
        n = board[25 + i]
        left += n
        if i >= 18 and n:
            back = True
    if no_win or sure_gammon:
        w = wg = wbg = 0
    if left < 15:  # the opponent has borne off: it cannot lose a gammon
        wg = wbg = 0
    if not back:
        wbg = 0
    if no_gammon:
        lg = lbg = 0
    elif sure_gammon:
        lg = P - w
    if no_backgammon:
        lbg = 0
    wg = min(wg, w)
    lg = min(lg, P - w)
    return w, wg, min(wbg, wg), lg, min(lbg, lg)


def resign_value(p, t, race=True):
    """The resignation the player on roll offers (1, 2 or 3), or 0: only without contact
    (`race`; p corrected by sure()), when it has no chance left to win and the result is
    sure."""
    w, wg, wbg, lg, lbg = p
    if not race or w > 0:
        return 0
    if not (t.length > 0 or not t.jacoby or t.owner >= 0) or lg <= 0:
        return 1  # (or gammons do not count: the Jacoby rule, the cube centred)
    if lbg >= P:
        return 3
    if lg >= P and lbg <= 0:
        return 2
    return 0


def accepts(p, t, x, value):
    """Whether the opponent of the player on roll accepts its resignation of `value`: when
    that gives it at least what it expects to win (p, t and x are the resigner's)."""
    return equity_of(-value, t) <= optimal(p, t, x)
