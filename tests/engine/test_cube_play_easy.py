# The easy level's cube (gammon/cube_easy.py through gammon/cube_play.py) on constructed
# probabilities: where it doubles, where it does not though the strong level would (its late
# money doubles), where it does though strong would not (its early match doubles), that it
# takes and drops as the strong level does, and that it never turns a cube it may not
# (MicroPython too).
from gammon import Position
from gammon import cube as cb
from gammon import cube_easy as ce
from gammon import cube_money as cm
from gammon.cube import Terms
from gammon.cube_play import answer, decide
from gammon.match import Match

START = Position.start()
BOARD = START.key()  # contact, not crashed
X = cb.efficiency(BOARD)
CENTRED = Terms(1, -1, 0, 0, 0, False, True)
OWNED = Terms(2, 0, 0, 0, 0, False, True)
SCORE_55 = Terms(1, -1, 7, 5, 5, False, False)  # a 7-point match at 2-2
SCORE_22 = Terms(1, -1, 7, 2, 2, False, False)  # ... at 5-5

# (win, win gammon, win backgammon, lose gammon, lose backgammon) out of 4096
LATE = (2687, 1200, 0, 200, 0)  # money: a double gains 0.134 a cube, strong's margin 0.12
CLEAR = (2728, 1200, 0, 200, 0)  # money: it gains 0.151 a cube
MODEST = (2560, 1200, 0, 200, 0)  # money: it gains 0.079 a cube, the 64-unit margin 0
TOO_GOOD = (3179, 1200, 0, 200, 0)  # at an owned cube and at 2-2: worth more played on
EVEN = (2048, 400, 0, 400, 0)
MATCH_EARLY = (2620, 655, 0, 369, 0)  # 2-2: a double costs 0.65% of the match
MATCH_TOO_EARLY = (2456, 614, 0, 410, 0)  # 2-2: it costs 1.34%
AT_22 = (2041, 0, 0, 400, 0)  # 5-5 (each 2 away): a double gains 3.04%; at 2-2 it costs 3.6%


class FakeNet:
    """A network that sees the probabilities it is given (kernels.net.Net's two calls), of
    the Pico's size (the money double's margin is the network's)."""

    def __init__(self, p, hidden=40):
        self.p = p
        self.hidden = hidden

    def equity(self, board, side):
        return 0

    def probabilities(self):
        return self.p


def _gain(p, t):
    nd, dt, dp = cb.equities(p, t, X)
    return min(dt, dp) - nd


def _strong(p, t):
    return cb.doubles(p, t, X) if t.length else cm.doubles(p, t, X, BOARD)


def test_money_doubles_later_than_the_strong_level():
    assert cm.MARGIN_DOUBLE <= _gain(LATE, CENTRED) < ce.MONEY_DOUBLE
    assert _strong(LATE, CENTRED) and not ce.doubles(LATE, CENTRED, X, BOARD)
    assert _gain(CLEAR, CENTRED) >= ce.MONEY_DOUBLE
    assert _strong(CLEAR, CENTRED) and ce.doubles(CLEAR, CENTRED, X, BOARD)


def test_no_double_when_nothing_is_gained_or_the_game_is_worth_more_played_on():
    for t in (CENTRED, OWNED, SCORE_55):
        assert not ce.doubles(EVEN, t, X, BOARD)
    assert cb.action(TOO_GOOD, OWNED, X) == cb.TOO_GOOD
    assert not ce.doubles(TOO_GOOD, OWNED, X, BOARD)


def test_match_doubles_a_little_earlier_than_the_strong_level():
    assert ce.MATCH_DOUBLE <= _gain(MATCH_EARLY, SCORE_55) < 0
    assert ce.doubles(MATCH_EARLY, SCORE_55, X, BOARD) and not _strong(MATCH_EARLY, SCORE_55)
    assert _gain(MATCH_TOO_EARLY, SCORE_55) < ce.MATCH_DOUBLE
    assert not ce.doubles(MATCH_TOO_EARLY, SCORE_55, X, BOARD)
    assert not ce.doubles(AT_22, SCORE_55, X, BOARD)
    assert _gain(AT_22, SCORE_22) > 0
    assert ce.doubles(AT_22, SCORE_22, X, BOARD) and _strong(AT_22, SCORE_22)
    # too good stays too good: played on for the gammon, as strong does
    assert cb.action(TOO_GOOD, SCORE_55, X) == cb.TOO_GOOD
    assert not ce.doubles(TOO_GOOD, SCORE_55, X, BOARD)


def test_a_race_and_a_crashed_board_are_the_strong_levels():
    # a race: 70 pips (plus a seventh) against 77, Keith's count doubles whatever the network
    me = [1, 0, 1, 4, 4, 5] + [0] * 19
    opp = [0, 0, 0, 4, 5, 6] + [0] * 19
    race = Position(me, opp).key()
    assert not cb.contact(race)
    x = cb.efficiency(race)
    for p in (EVEN, LATE, (3000, 0, 0, 0, 0)):
        for t in (CENTRED, OWNED):
            assert ce.doubles(p, t, x, race) == cm.doubles(p, t, x, race)
    assert ce.doubles(EVEN, CENTRED, x, race)


def test_never_a_cube_it_may_not_turn():
    strong_cash = (4000, 0, 0, 0, 0)
    for t in (Terms(2, 1, 0, 0, 0, False, True),  # the opponent's cube
              Terms(1, -1, 7, 1, 3, True, False),  # the Crawford game
              Terms(2, 0, 7, 2, 5, False, False),  # dead: 2 away with the cube at 2
              Terms(1, -1, 7, 1, 3, False, False),  # the leader 1 away after Crawford
              Terms(1, -1, 0, 0, 0, False, True, cube_on=False)):  # no cube
        for p in (strong_cash, AT_22, CLEAR):
            for x in (0, X):
                assert not ce.doubles(p, t, x, BOARD)


def test_decide_at_the_easy_level_through_the_match():
    net = FakeNet(CLEAR)
    m = Match(0, True, True)
    assert decide(net, START, m, 0, "easy") == "double"
    assert decide(FakeNet(LATE), START, m, 0, "easy") is None
    assert decide(FakeNet(LATE), START, m, 0, "strong") == "double"
    # the strong level's margin is its network's; the easy level's stays blunter
    assert decide(FakeNet(MODEST), START, m, 0, "strong") is None
    assert decide(FakeNet(MODEST, 64), START, m, 0, "strong") == "double"
    assert decide(FakeNet(MODEST, 64), START, m, 0, "easy") is None
    m.double(0)
    m.take(1)  # player 1 owns the cube now: player 0 may not redouble
    assert decide(net, START, m, 0, "easy") is None
    m = Match(7, True, False)
    m.resume([2, 2], False, False, 3)
    assert decide(FakeNet(AT_22), START, m, 0, "easy") is None  # 5 away: too early
    assert decide(FakeNet(MATCH_EARLY), START, m, 0, "easy") == "double"
    assert decide(FakeNet(MATCH_EARLY), START, m, 0, "strong") is None
    m = Match(7, True, False)
    m.resume([5, 5], False, False, 3)
    assert decide(FakeNet(AT_22), START, m, 0, "easy") == "double"
    m = Match(7, True, False)
    m.resume([4, 6], True, False, 3)  # the Crawford game
    assert decide(FakeNet(AT_22), START, m, 0, "easy") is None
    m = Match(7, True, False)
    m.resume([5, 4], False, False, 3, 2, 0)  # player 0 owns a dead cube at 2 (2 away)
    assert decide(FakeNet((4000, 0, 0, 0, 0)), START, m, 0, "easy") is None


def test_takes_and_drops_are_the_strong_levels():
    cases = ((EVEN, "take"), (LATE, "take"), ((3900, 0, 0, 0, 0), "drop"),
             ((3300, 300, 0, 100, 0), None), (AT_22, None), (MATCH_EARLY, None))
    for n, score in ((0, None), (7, [2, 2]), (7, [5, 5]), (7, [4, 2])):
        for p, want in cases:
            m = Match(n, True, n == 0)
            if score:
                m.resume(score, False, False, 3)
            m.double(0)
            easy = answer(FakeNet(p), START, m, 0, "easy")
            assert easy == answer(FakeNet(p), START, m, 0, "strong")
            if want and n == 0:
                assert easy == want, p
    # the plain rule of before took at 25% to win or more: now 22% with no gammons is a take
    # (money's take point with a live cube is lower), 27% against many gammons a drop
    m = Match(0, True, True)
    m.double(0)
    assert answer(FakeNet((3195, 0, 0, 0, 0)), START, m, 0, "easy") == "take"
    assert answer(FakeNet((2990, 1400, 0, 0, 0)), START, m, 0, "easy") == "drop"


def test_money_doubles_are_a_subset_of_strongs_and_match_doubles_a_superset():
    terms = (CENTRED, OWNED, Terms(1, -1, 0, 0, 0, False, False), SCORE_55, SCORE_22,
             Terms(1, -1, 7, 3, 6, False, False), Terms(2, 0, 7, 4, 2, False, False))
    seen = [0, 0]  # money: strong's doubles easy leaves; match: easy's early ones
    for w in range(1600, 4096, 160):
        for wg in (0, w // 8, w // 3):
            p = (w, wg, 0, (4096 - w) // 4, 0)
            for t in terms:
                easy, strong = ce.doubles(p, t, X, BOARD), _strong(p, t)
                if t.length:
                    assert easy or not strong, (p, t.away_me)
                    seen[1] += easy and not strong
                else:
                    assert strong or not easy, (p, t.owner)
                    seen[0] += strong and not easy
    assert seen[0] and seen[1]  # they do differ, both ways
