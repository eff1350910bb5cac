"""The board's cube arithmetic against GNU Backgammon itself (its bindings): the match
equity table it ships, and 0-ply cube analyses at random match states of positions from
play. tests/engine/test_cube.py checks the same on stored cases under MicroPython too."""

import os
import random
import re

import pytest

gnubg = pytest.importorskip("gnubg")

import gnubg_cube as gc  # noqa: E402 (after importorskip)
from gammon import Position, met  # noqa: E402
from gammon import cube as cb  # noqa: E402
from gammon import cube_money as cm  # noqa: E402

XML = os.path.join(os.path.dirname(gnubg.__file__), "data", "met", "Kazaross-XG2.xml")


def test_the_table_is_gnubgs_kazaross_xg2():
    pre, post, post1 = gnubg.met(25)
    assert post == post1  # one post-Crawford row for both players
    assert "Kazaross XG2" in gnubg.show("matchequitytable")
    for i in range(25):
        for j in range(25):
            assert abs(met.pre(i, j) / 65536 - pre[i][j]) <= 2**-17, (i, j)
        assert abs(met.post(i) / 65536 - post[i]) <= 2**-17, i
    # and the file's decimals: the stored 2**-24 units give every one of them back
    text = open(XML).read()
    rows = [re.findall(r"<me>([0-9.]+)</me>", r)
            for r in text.split("<pre-crawford-table")[1].split("</pre-crawford")[0]
            .split("<row>")[1:]]
    raw = met.TABLE
    k = 0
    for i in range(25):
        for j in range(i + 1, 25):
            v = raw[3 * k] | raw[3 * k + 1] << 8 | raw[3 * k + 2] << 16
            assert round(v / 2**24, 6) == float(rows[i][j]), (i, j)
            k += 1
    assert len(raw) == 3 * (300 + 25)


def _random_terms(rng):
    if rng.random() < 0.3:
        owner = rng.choice((-1, 0))
        return cb.Terms(1 if owner < 0 else rng.choice((2, 4)), owner, 0, 0, 0, False,
                        rng.random() < 0.5)
    n = rng.choice((3, 5, 7, 9, 11, 13, 17, 25))
    while True:
        am, ao = rng.randint(1, n), rng.randint(1, n)
        cube = rng.choice((1, 1, 2, 4))
        owner = -1 if cube == 1 else 0
        if am > cube and not (am == 1 or ao == 1) or (ao == 1 and am > 1 and cube == 1):
            return cb.Terms(cube, owner, n, am, ao, False, False)


def test_cube_analyses_at_random_states_agree_with_gnubg():
    gc.init(0)
    rng = random.Random(5)
    worst = 0.0
    n = 0
    for pid in gc.positions(400, 11)[::4]:
        p = tuple(int(round(v * 4096)) for v in gc.probabilities(pid))
        x = cb.efficiency(Position.from_id(pid).key())
        for _ in range(3):
            t = _random_terms(rng)
            score = (t.length - t.away_me, t.length - t.away_opp) if t.length else (0, 0)
            r = gc.analyse(pid, t.cube, t.owner, t.length, score, False, t.jacoby)
            if r is None:
                continue
            ours = cb.equities(p, t, x)
            if t.length:
                win, lose = cb.won(t, t.cube), cb.won(t, -t.cube)
                ours = [2.0 * (v - lose) / (win - lose) - 1 for v in ours]
            else:
                ours = [v / 4096 for v in ours]
            for i in range(3):
                worst = max(worst, abs(ours[i] - r[i]))
            assert max(abs(ours[i] - r[i]) for i in range(3)) < 0.004, (pid, vars(t), ours, r)
            n += 1
    assert n > 200, n
    print("worst difference %.5f over %d analyses" % (worst, n))


def test_crashed_is_gnubgs_crashed_class():
    """gammon/cube_money.crashed is gnubg's ClassifyPosition: crashed (9) against contact (10)."""
    gc.init(0)
    crashed = contact = 0
    for pid in gc.positions(3000, 13):
        board = Position.from_id(pid).key()
        if not cb.contact(board):
            continue
        klass = gnubg.classify(gnubg.positionfromid(pid))
        assert cm.crashed(board) == (klass == 9), (pid, klass)
        crashed += klass == 9
        contact += klass == 10
    assert crashed > 20 and contact > 1000, (crashed, contact)


def test_keiths_count_decides_races_as_gnubg_does():
    """In races where the player on roll leads, Keith's double and take (cube_money.keith) are
    gnubg 0-ply's in all but a few (measured: 98-99% of 430 money decisions)."""
    gc.init(0)
    n = same_double = same_take = 0
    for pid in gc.positions(4000, 19)[::2]:
        board = Position.from_id(pid).key()
        if gnubg.classify(gnubg.positionfromid(pid)) != 8 or gc.probabilities(pid)[0] < 0.5:
            continue
        for owner in (-1, 0):
            r = gc.analyse(pid, 1 if owner < 0 else 2, owner, 0, (0, 0), False, True)
            if r is None:
                continue
            proper = r[3]
            double, take = cm.keith(board, owner == 0)
            same_double += double == proper.startswith(("Double", "Redouble", "Too good"))
            same_take += take == proper.endswith(("take", "beaver"))
            n += 1
    assert n >= 100, n
    assert same_double >= 0.95 * n and same_take >= 0.95 * n, (n, same_double, same_take)


def test_the_judge_allows_no_beaver():
    """The board allows no beaver, so its judge must not: gnubg refuses `set beavers off`
    (it wants a number) and would keep its default of 3."""
    gc.init(0)
    assert gc.beavers() == "No beavers allowed in money sessions."


def test_positions_are_classed_as_gnubg_classes_them():
    from gammon.classify import NAMES, classify

    gc.init(0)
    gnubg_class = {4: "bearoff", 5: "bearoff", 6: "bearoff", 7: "bearoff", 8: "race",
                   9: "crashed", 10: "contact"}
    seen = dict.fromkeys(NAMES, 0)
    for pid in gc.positions(3000, 17):
        name = NAMES[classify(Position.from_id(pid).key())]
        assert name == gnubg_class[gnubg.classify(gnubg.positionfromid(pid))], pid
        seen[name] += 1
    assert min(seen.values()) >= 20, seen
