# Checker play at the match score (gammon/score_values.py): the integer weights against a plain
# float computation from the match equity table's own bytes at every score of matches to 1-25
# points (Crawford, post-Crawford, cubes 1-64), scores with known values (DMP, the
# post-Crawford trailer's doubled gammons, a cube that wins the match anyway), the same
# reading of the table as the cube decisions', and that the weighted equity ranks by match
# winning chance. MicroPython too (tests/test_micropython.py's rules group).
from gammon import met
from gammon.match import Match
from gammon.score_values import CAP, mwc, swapped, values, weights

AWAYS = (1, 2, 3, 4, 5, 6, 7, 9, 11, 15, 25)
CUBES = (1, 2, 4)


def _entry(k):
    t = met.TABLE
    return (t[3 * k] | t[3 * k + 1] << 8 | t[3 * k + 2] << 16) / 16777216.0


def _pre(i, j):
    """The pre-Crawford table as floats, from its documented layout (met.py's comment)."""
    if i == j:
        return 0.5
    if i > j:
        return 1.0 - _pre(j, i)
    n = met.N
    return _entry(i * n - i * (i + 1) // 2 + j - i - 1)


def _post(j):
    return _entry(met.N * (met.N - 1) // 2 + j)


def _mwc(me, opp, post):
    if me <= 0:
        return 1.0
    if opp <= 0:
        return 0.0
    if post:
        return 1.0 - _post(opp - 1) if me == 1 else _post(me - 1)
    return _pre(me - 1, opp - 1)


def _float_values(me, opp, cube, crawford):
    """gnubg's gammon values, twice over (the equity's weights): plain floats."""
    post = crawford or me == 1 or opp == 1
    win = [_mwc(me - k * cube, opp, post) for k in (1, 2, 3)]
    lose = [_mwc(me, opp - k * cube, post) for k in (1, 2, 3)]
    den = win[0] - lose[0]
    return (
        2 * (win[1] - win[0]) / den,
        2 * (win[2] - win[1]) / den,
        2 * (lose[0] - lose[1]) / den,
        2 * (lose[1] - lose[2]) / den,
    ), den


def _states():
    for me in AWAYS:
        for opp in AWAYS:
            for cube in CUBES:
                yield me, opp, cube, False
            if me == 1 or opp == 1:  # the Crawford game itself
                yield me, opp, 1, True


def test_weights_match_a_float_computation_from_the_table():
    checked = 0
    for me, opp, cube, crawford in _states():
        got = weights(me, opp, cube, crawford)
        want, den = _float_values(me, opp, cube, crawford)
        for k in range(4):
            g, f = got[k], min(want[k], CAP / 4096.0)  # (capped: no 7-point score)
            # the table's entries are read in units of 2**-16: each difference may be off
            # by one unit, the weight by 8192 (1 + w / 2) / (den * 65536) of 4096 then
            slack = 1 + 8192 * (1 + f / 2) / (den * 65536)
            assert abs(g - f * 4096) <= slack, (me, opp, cube, crawford, got, want)
            checked += 1
    assert checked > 1000


def test_known_scores():
    # double match point: nothing but winning counts
    assert weights(1, 1, 1) == (0, 0, 0, 0)
    # post-Crawford, the trailer 2 away: a gammon wins the match where a single ties it at
    # DMP (1 against 1/2 from 1/2: twice a single's worth); a backgammon adds nothing; a
    # loss loses the match however it is lost
    assert weights(2, 1, 1) == (8192, 0, 0, 0)
    assert weights(1, 2, 1) == (0, 0, 8192, 0)  # the leader's side of it
    # the leader in the Crawford game: any win wins the match
    g0, b0, g1, b1 = weights(1, 5, 1, True)
    assert g0 == 0 and b0 == 0 and g1 > 0 and b1 > 0
    # a cube of 4 at 4-away, 4-away: every game decides the match
    assert weights(4, 4, 4) == (0, 0, 0, 0)
    # the cube at 2 at 3-away, 3-away: a gammon wins the match, a backgammon no more
    assert weights(3, 3, 2)[1] == 0 and weights(3, 3, 2)[0] > 0
    # far from the end the values come near money play's (4096 each)
    for g in weights(25, 25, 1):
        assert 3900 < g < 4400


def test_the_other_side_sees_the_weights_swapped():
    for me, opp, cube, crawford in _states():
        assert weights(opp, me, cube, crawford) == swapped(weights(me, opp, cube, crawford))


def test_every_weight_stays_within_the_network_s_range():
    for me in range(1, 26):
        for opp in range(1, 26):
            for cube in (1, 2, 4, 8, 16, 32, 64):
                for g in weights(me, opp, cube):
                    assert 0 <= g <= CAP


def test_values_read_the_match_and_are_none_in_money_play():
    assert values(Match(0), 0) is None
    assert values(Match(0, True, False), 1) is None
    m = Match(7)
    m.resume([3, 5], False, False, 4, 2, 0)  # 4-away against 2-away, the cube at 2
    assert values(m, 0) == weights(4, 2, 2) and values(m, 1) == weights(2, 4, 2)
    assert values(m, 1) == swapped(values(m, 0))
    c = Match(7)
    c.resume([6, 2], True, False, 5)  # the Crawford game, 1-away against 5-away
    assert values(c, 0) == weights(1, 5, 1, True)
    p = Match(7)
    p.resume([6, 5], False, True, 6)  # post-Crawford, 1-away against 2-away
    assert values(p, 1) == (8192, 0, 0, 0)


def test_the_same_reading_of_the_table_as_the_cube_decisions():
    from gammon import cube_match

    class _Terms:  # the fields cube_match.won reads (gammon.cube.Terms has them too)
        def __init__(self, me, opp, crawford):
            self.away_me, self.away_opp, self.crawford, self.length = me, opp, crawford, 25

        def post(self):
            return self.crawford or self.away_me == 1 or self.away_opp == 1

    for me, opp, cube, crawford in _states():
        t = _Terms(me, opp, crawford)
        post = t.post()
        for k in (1, 2, 3):
            assert cube_match.won(t, k * cube) == mwc(me - k * cube, opp, post)
            assert cube_match.won(t, -k * cube) == mwc(me, opp - k * cube, post)


def test_the_weighted_equity_ranks_plays_by_match_winning_chance():
    # (2 MWC - W - L) / (W - L), the equity the weights make from the outcome's chances, for
    # a spread of chances at each state (floats: the rounding of the weights allowed for)
    spreads = ((0.5, 0.2, 0.02, 0.15, 0.01), (0.8, 0.4, 0.1, 0.05, 0.0),
               (0.3, 0.05, 0.0, 0.3, 0.08), (1.0, 1.0, 0.0, 0.0, 0.0))
    for me, opp, cube, crawford in _states():
        got = weights(me, opp, cube, crawford)
        if max(got) >= CAP:
            continue  # capped: no longer exact (no such state in matches to 7)
        post = crawford or me == 1 or opp == 1
        # the chances as the board reads them (the weights' rounding alone is then left)
        win = [mwc(me - k * cube, opp, post) / 65536 for k in (1, 2, 3)]
        lose = [mwc(me, opp - k * cube, post) / 65536 for k in (1, 2, 3)]
        for w, wg, wb, lg, lb in spreads:
            chance = ((w - wg) * win[0] + (wg - wb) * win[1] + wb * win[2]
                      + (1 - w - lg) * lose[0] + (lg - lb) * lose[1] + lb * lose[2])
            norm = (2 * chance - win[0] - lose[0]) / (win[0] - lose[0])
            eq = 2 * w - 1 + (got[0] * wg + got[1] * wb - got[2] * lg - got[3] * lb) / 4096
            assert abs(eq - norm) <= 2.0 / 4096 + 1e-9, (me, opp, cube, got, eq, norm)

