# The strong level's money doubles and takes (gammon/cube_money.py): Keith's race count and
# its rules counted by hand, gnubg's crashed class, and the contact margins (MicroPython too).
# tests/test_cube_gnubg.py checks crashed() against gnubg's own classification.
from gammon import Position
from gammon import cube as cb
from gammon import cube_money as cm
from gammon.cube import Terms

CENTRED = Terms(1, -1, 0, 0, 0, False, True)
OWNED = Terms(2, 0, 0, 0, 0, False, True)
THEIRS = Terms(2, 1, 0, 0, 0, False, True)


def _side(points):
    """25 counts from {point: checkers} (25 the bar), the rest borne off."""
    s = [0] * 25
    for pt, n in points.items():
        s[pt - 1] = n
    return s


def _board(me, opp):
    return Position(_side(me), _side(opp)).key()


def test_keiths_count_adds_its_penalties_to_the_pips():
    # 3 on the 1 point (+4), 2 on the 2 point (+1), 5 on the 3 point (+2), the 4 and 6 points
    # empty (+2): 47 pips, 56 counted
    b = _board({1: 3, 2: 2, 3: 5, 5: 5}, {6: 5, 5: 5, 4: 5})
    assert cm._count(b, 0) == 47 + 9
    assert cm._count(b, 25) == 75  # a smooth board: its pips alone


# smooth race boards (no penalty) whose counts are their pips: the player on roll 70
ROLLER_70 = {6: 5, 5: 4, 4: 4, 3: 1, 1: 1}
OPP = {76: {6: 6, 5: 5, 4: 3, 3: 1}, 77: {6: 6, 5: 5, 4: 4}, 78: {6: 7, 5: 4, 4: 4},
       79: {6: 8, 5: 3, 4: 4}}
NO_GAMMONS = (3000, 0, 0, 0, 0)


def test_keiths_rules_at_their_edges():
    # 70 + 10 (a seventh) exceeds 76 by 4: a double, not a redouble, a take
    for count, want in ((76, (True, False, True)), (77, (True, True, True)),
                        (78, (True, True, True)), (79, (True, True, False))):
        b = _board(ROLLER_70, OPP[count])
        assert cm._count(b, 0) == 70 and cm._count(b, 25) == count
        assert not cb.contact(b)
        double, take = cm.keith(b, False)
        redouble, take_owned = cm.keith(b, True)
        assert (double, redouble, take) == want, count
        assert take_owned == take
        # in a race the decisions are Keith's, whatever the network says
        x = cb.efficiency(b)
        assert cm.doubles(NO_GAMMONS, CENTRED, x, b) == double
        assert cm.doubles(NO_GAMMONS, OWNED, x, b) == redouble
        assert cm.takes(NO_GAMMONS, CENTRED, x, b) == take
        assert not cm.doubles(NO_GAMMONS, THEIRS, x, b)  # not its cube to turn


def test_a_race_too_good_to_double_is_played_on_for_the_gammon():
    b = _board({6: 5, 5: 5, 4: 5}, {12: 15})  # far ahead, the other has borne off nothing
    assert cm.keith(b, False) == (True, False)  # a double it would drop ...
    gammons = (4000, 2400, 0, 0, 0)
    no_jacoby = Terms(1, -1, 0, 0, 0, False, False)
    x = cb.efficiency(b)
    assert cb.action(gammons, no_jacoby, x) == cb.TOO_GOOD
    assert not cm.doubles(gammons, no_jacoby, x, b)  # ... yet worth more played on
    assert cm.doubles(NO_GAMMONS, no_jacoby, x, b)  # without gammons it cashes


CRASHED = {1: 6, 2: 4, 8: 3}  # 13 checkers left, 10 of them on its 1 and 2 points
CRASHED_OPP = {22: 2, 13: 5, 6: 5, 7: 3}


def test_crashed_is_gnubgs_class():
    b = _board(CRASHED, CRASHED_OPP)
    assert cb.contact(b) and cm.crashed(b)
    assert cm.crashed(Position(_side(CRASHED), _side(CRASHED_OPP)).swap().key())  # either side
    assert not cm.crashed(Position.start().key())
    assert cm.crashed(_board({1: 2, 8: 4}, CRASHED_OPP))  # six or fewer left
    assert not cm.crashed(_board({1: 2, 8: 4, 9: 1, 10: 4, 11: 2}, CRASHED_OPP))


def _margins(board, t):
    """(p, margin) over chances to win where Janowski's formula doubles: margin = the best
    of double/take and double/pass less no double."""
    x = cb.efficiency(board)
    for w in range(2048, 4096, 16):
        p = (w, w // 5, 0, (4096 - w) // 8, 0)
        if cb.action(p, t, x) == cb.DOUBLE:
            nd, dt, dp = cb.equities(p, t, x)
            yield p, min(dt, dp) - nd


def test_with_contact_a_double_needs_its_margin():
    b = Position.start().key()
    seen = set()
    for t in (CENTRED, OWNED):
        for p, margin in _margins(b, t):
            want = margin >= cm.MARGIN_DOUBLE
            assert cm.doubles(p, t, cb.efficiency(b), b) == want, (p, margin)
            seen.add((t.owner, want))
    assert seen >= {(-1, True), (-1, False), (0, False)}  # both sides of the margin met


def test_each_network_doubles_at_its_own_margin():
    # the 40-unit network's chances are noisier: its doubles need 0.12 a cube; the 64-unit
    # network's are the formula's own (docs/opponent.md)
    small, large = cm.network_margin(40), cm.network_margin(64)
    assert (small, large) == (cm.MARGIN_DOUBLE, cm.MARGIN_DOUBLE_64)
    assert cm.MARGIN_DOUBLE_64 < cm.MARGIN_DOUBLE
    b = Position.start().key()
    x = cb.efficiency(b)
    between = 0
    for p, margin in _margins(b, CENTRED):
        assert cm.doubles(p, CENTRED, x, b, large) == (margin >= cm.MARGIN_DOUBLE_64)
        assert cm.doubles(p, CENTRED, x, b, small) == (margin >= cm.MARGIN_DOUBLE)
        between += cm.MARGIN_DOUBLE_64 <= margin < cm.MARGIN_DOUBLE
    assert between  # doubles the larger network makes and the smaller one does not


def test_a_crashed_position_is_doubled_and_taken_only_with_a_wide_margin():
    b = _board(CRASHED, CRASHED_OPP)
    x = cb.efficiency(b)
    assert all(not cm.doubles(p, CENTRED, x, b) for p, m in _margins(b, CENTRED)
               if m < cm.MARGIN_CRASHED)
    takes = drops = 0
    for w in range(1024, 4096, 64):
        p = (w, 0, 0, 0, 0)
        nd, dt, dp = cb.equities(p, CENTRED, x)
        took = cm.takes(p, CENTRED, x, b)
        assert took == (dp - dt >= cm.MARGIN_CRASHED)
        if cb.takes(p, CENTRED, x) and not took:
            drops += 1  # a take by the formula alone, dropped here
        takes += took
    assert takes and drops


def test_with_contact_the_take_is_janowskis():
    b = Position.start().key()
    x = cb.efficiency(b)
    answers = set()
    for w in range(1024, 4096, 64):
        for t in (CENTRED, OWNED):
            p = (w, w // 4, 0, (4096 - w) // 6, 0)
            assert cm.takes(p, t, x, b) == cb.takes(p, t, x)
            answers.add(cm.takes(p, t, x, b))
    assert answers == {True, False}
