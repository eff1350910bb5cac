# The cube decisions (gammon/cube.py) against GNU Backgammon's 0-ply analyses stored in
# cube_data.py, and against hand-checked cases (MicroPython too). Regenerate the data with
# tests/gen_cube.py; tests/test_cube_gnubg.py asks gnubg itself.
from gammon import Position
from gammon import cube as cb
from gammon.cube import DOUBLE, NO_DOUBLE, TOO_GOOD, Terms

TOLERANCE = 0.003  # normalized equity: probabilities rounded to 1/4096 move gnubg's by less
MARGIN = 0.01  # decisions are compared where gnubg's choice wins by more than this


def cases():
    """(pid, p, Terms, (nd, dt, dp), proper) for each stored line."""
    from cube_data import CASES

    for chunk in CASES:
        for line in chunk.split("\n"):
            if not line:
                continue
            f = line.split(" ")
            p = tuple(int(v) for v in f[1].split(","))
            c, o, n, am, ao, cr, jac = [int(v) for v in f[2:9]]
            gnu = (int(f[9]) / 1e5, int(f[10]) / 1e5, int(f[11]) / 1e5)
            yield f[0], p, Terms(c, o, n, am, ao, cr, jac), gnu, f[12]


def normalized(values, t):
    """gnubg's normalized equities for ours: money per cube unit; match through mwc2eq."""
    if t.length == 0:
        return [v / cb.P for v in values]
    win = cb.won(t, t.cube)
    lose = cb.won(t, -t.cube)
    return [2.0 * (v - lose) / (win - lose) - 1 for v in values]


def test_equities_agree_with_gnubg():
    n = 0
    worst = 0.0
    for pid, p, t, gnu, _ in cases():
        x = cb.efficiency(Position.from_id(pid).key())
        ours = normalized(cb.equities(p, t, x), t)
        for i in range(3):
            worst = max(worst, abs(ours[i] - gnu[i]))
            assert abs(ours[i] - gnu[i]) < TOLERANCE, (pid, t.length, t.away_me, ours, gnu)
        n += 1
    assert n > 150, n
    assert worst > 0  # the comparison saw real numbers


def test_decisions_agree_with_gnubg():
    doubles = takes = drops = 0
    for pid, p, t, gnu, proper in cases():
        x = cb.efficiency(Position.from_id(pid).key())
        nd, dt, dp = gnu
        act = cb.action(p, t, x)
        if proper[0] == "O":  # optional: either is right
            continue
        want = {"G": TOO_GOOD, "D": DOUBLE, "N": NO_DOUBLE}[proper[0]]
        if min(abs(dt - nd), abs(dp - nd)) > MARGIN:
            assert act == want, (pid, t.length, t.away_me, t.away_opp, proper, gnu, act)
            doubles += act == DOUBLE
        if abs(dt - dp) > MARGIN:
            take = proper[1] == "T"
            assert cb.takes(p, t, x) == take, (pid, t.length, proper, gnu)
            takes += take
            drops += not take
    assert doubles >= 5 and takes >= 20 and drops >= 5, (doubles, takes, drops)


# --- hand-checked cases (probabilities out of 4096; contact: x = 0.76)

MONEY = Terms()  # centred, Jacoby
X = cb.X_CONTACT


def _p(w, wg=0, wbg=0, lg=0, lbg=0):
    return tuple(int(v * 4096 + 0.5) for v in (w, wg, wbg, lg, lbg))


def test_clear_double_and_take():
    p = _p(0.70, 0.10, 0.0, 0.05)
    assert cb.action(p, MONEY, X) == DOUBLE
    assert cb.takes(p, MONEY, X)


def test_double_and_drop():
    p = _p(0.85, 0.05, 0.0, 0.01)
    assert cb.action(p, MONEY, X) == DOUBLE
    assert not cb.takes(p, MONEY, X)


def test_too_good_plays_on_for_the_gammon_and_cashes_without_one():
    p = _p(0.90, 0.60, 0.02, 0.0)
    assert cb.action(p, Terms(jacoby=False), X) == TOO_GOOD
    # with the Jacoby rule the gammon counts only once the cube is turned: cash it
    assert cb.action(p, MONEY, X) == DOUBLE
    # no gammon at all: double (the opponent drops)
    assert cb.action(_p(0.97), Terms(jacoby=False), X) == DOUBLE


def test_no_double_when_behind_or_the_cube_is_the_opponents():
    assert cb.action(_p(0.45, 0.1, 0, 0.1), MONEY, X) == NO_DOUBLE
    assert cb.action(_p(0.80, 0.1), Terms(2, 1), X) == NO_DOUBLE
    assert cb.action(_p(0.80, 0.1), Terms(cube_on=False), X) == NO_DOUBLE


def test_crawford_game_no_double():
    t = Terms(1, -1, 5, 3, 1, True)  # 2-4 in a 5-point match, the Crawford game
    assert not cb.may_double(t)
    assert cb.action(_p(0.9, 0.2), t, X) == NO_DOUBLE


def test_post_crawford_trailer_doubles_at_once():
    start = _p(0.52, 0.15, 0.007, 0.13, 0.007)
    for away in (2, 3, 4, 5):
        t = Terms(1, -1, 5, away, 1)
        assert cb.action(start, t, X) == DOUBLE, away
        # the leader takes at an odd away, drops (the free drop) at an even one (as gnubg)
        assert cb.takes(start, t, X) == (away % 2 == 1), away
    # the leader itself never doubles after the Crawford game: the cube is no use to it
    assert not cb.may_double(Terms(1, -1, 5, 1, 3))


def test_post_crawford_free_drop():
    # the trailer 2 away: its double leaves the match on this game, a drop 1-away all
    # square (50%): the leader drops when the trailer is the favourite, takes otherwise
    t = Terms(1, -1, 5, 2, 1)
    assert cb.action(_p(0.55, 0.1), t, X) == DOUBLE
    assert not cb.takes(_p(0.55, 0.1), t, X)
    assert cb.takes(_p(0.45, 0.1), t, X)


def test_dead_cube_never_doubles():
    t = Terms(2, 0, 7, 2, 5)  # my cube at 2 would win me the match: turning it gains nothing
    assert not cb.may_double(t)
    assert cb.action(_p(0.7), t, X) == NO_DOUBLE


def test_efficiency_by_class():
    assert cb.efficiency(Position.start().key()) == cb.X_CONTACT
    race = [0] * 25
    opp = [0] * 25
    race[5], race[6] = 10, 5  # 6 and 7 points: 95 pips, past the other side
    opp[0] = 15
    b = bytes(race + opp)
    assert not cb.contact(b)
    assert cb.efficiency(b) == cb.X_RACE_MAX  # 0.6 + 0.0025 * 95 = 0.8375: at most 0.8
    home = [0] * 25
    home[0] = 15
    assert cb.efficiency(bytes(home + opp)) == cb.X_BEAROFF


def test_resignations():
    lost = _p(0.0)
    assert cb.resign_value(lost, MONEY) == 1  # no chance, no gammon: resign a single
    assert cb.resign_value(lost, MONEY, False) == 0  # with contact: play on
    assert cb.resign_value(_p(0.01), MONEY) == 0
    gammon = _p(0.0, 0, 0, 1.0)
    assert cb.resign_value(gammon, Terms(jacoby=False)) == 2
    assert cb.resign_value(gammon, MONEY) == 1  # Jacoby: the gammon does not count
    assert cb.resign_value(_p(0.0, 0, 0, 0.5), Terms(jacoby=False)) == 0  # play on
    assert cb.resign_value(_p(0.0, 0, 0, 1.0, 1.0), Terms(jacoby=False)) == 3


def test_a_race_made_sure():
    me = [0] * 25
    opp = [0] * 25
    me[12] = 15  # all on the 13 point, none in the other's home board
    opp[0] = 2  # the other side bears off its last two at its next roll
    b = bytes(me + opp)
    # the network's doubts go: no win, a sure gammon, no backgammon; none of its wins
    assert cb.sure(_p(0.001, 0.0005, 0, 0.9, 0.2), b) == (0, 0, 0, 4096, 0)
    assert cb.resign_value(cb.sure(_p(0.001, 0, 0, 0.9, 0.2), b), Terms(jacoby=False)) == 2
    me[12] = 13
    me[5] = 1  # one off already: only a single can be lost
    b = bytes(me + opp)
    p = cb.sure(_p(0.0, 0, 0, 0.3, 0.1), b)
    assert p[3:] == (0, 0) and cb.resign_value(p, Terms(jacoby=False)) == 1


def test_race_count():
    me = [0] * 25
    opp = [0] * 25
    me[5] = 15  # 90 pips: at least 4 rolls
    opp[0] = 2  # the other side bears off its last two at its next roll
    assert cb.race_facts(bytes(me + opp)) == (True, False, False, True)  # one roll: one off
    me[5] = 0
    me[12] = 15  # all on the 13 point: 105 pips to come home first
    assert cb.race_facts(bytes(me + opp)) == (True, True, False, True)
    me[12] = 14
    me[19] = 1  # one still in the other side's home board: a backgammon is possible
    assert cb.race_facts(bytes(me + opp)) == (True, True, False, False)
    opp[0] = 0
    opp[5] = 15
    me[19] = 0
    me[12] = 13
    me[5] = 1  # 13 on the 13 point, one on the 6, one off
    assert cb.race_facts(bytes(me + opp)) == (False, False, True, True)


def test_accepting_a_resignation():
    p = _p(0.05, 0.0, 0.0, 0.6)  # the resigner's: it loses a gammon more often than not
    t = Terms(jacoby=False)
    assert not cb.accepts(p, t, X, 1)
    assert cb.accepts(p, t, X, 2)
    assert cb.accepts(_p(0.0), t, X, 1)  # all it can win is a single
    # 4 away against 5 in a 7-point match: a single leaves the resigner 50% at 4-4, more
    # than it keeps when it loses a gammon 80% of the time, less than with 20%
    m = Terms(1, -1, 7, 4, 5)
    assert not cb.accepts(_p(0.1, 0, 0, 0.8), m, X, 1)
    assert cb.accepts(_p(0.3, 0, 0, 0.2), m, X, 1)


def test_integers_stay_small():
    """The results stay small ints on a 32-bit board (|v| < 2**30) at the inputs' extremes
    too (the products inside are bounded by 2**29 by their units)."""
    big = 1 << 30
    for pid, p, t, _, _ in cases():
        x = cb.efficiency(Position.from_id(pid).key())
        for v in cb.equities(p, t, x):
            assert -big < v < big
    for w in range(0, 4097, 512):
        for g in (0, 2048, 4096 - w):
            p = (w, min(g, w), 0, min(g, 4096 - w), 0)
            for t in (MONEY, Terms(1, -1, 25, 25, 1), Terms(32, 0, 25, 25, 25)):
                for v in cb.equities(p, t, X):
                    assert -big < v < big
