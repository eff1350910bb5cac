"""The bear-off table's generator (host/ledgammon/train/bearoff_table.py) against an exact
computation by brute force over every roll and every way to play it (up to 3 checkers, in
fractions), against GNU Backgammon's own bear-off evaluations (its bindings, which evaluate
such positions from its one-sided database), and its file and frozen module as the board
reads them (gammon/bearoff.py)."""

import os
import random
from array import array
from fractions import Fraction
from functools import cache
from math import comb

import numpy as np
import pytest
from gammon.bearoff import ONE, ROLLS, Table, index
from ledgammon.train import bearoff_table as bt

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = os.path.join(ROOT, "build", "bearoff.bin")  # made by conftest.py


@pytest.fixture(scope="module")
def dist():
    return bt.distributions()


def _moves(checkers: tuple[int, ...], die: int) -> set[tuple[int, ...]]:
    """Brute force on a sorted tuple of the checkers' points: every checker tried."""
    out = set()
    for k, p in enumerate(checkers):
        if p - die >= 1:
            rest = checkers[:k] + (p - die,) + checkers[k + 1 :]
        elif p == die or p == max(checkers):
            rest = checkers[:k] + checkers[k + 1 :]
        else:
            continue
        out.add(tuple(sorted(rest)))
    return out


def _plays(checkers: tuple[int, ...], dice: list[int]) -> set[tuple[int, ...]]:
    """Every position a roll can end in, each order of the dice tried."""
    if not checkers or not dice:
        return {checkers}
    out = set()
    for order in {tuple(dice), tuple(reversed(dice))}:
        for after in _moves(checkers, order[0]):
            out |= _plays(after, list(order[1:]))
    return out


@cache
def _exact(checkers: tuple[int, ...]) -> tuple[Fraction, tuple[Fraction, ...]]:
    """(mean rolls, P(n rolls) for n < 8) exactly, each roll played for the fewest rolls on
    average."""
    if not checkers:
        return Fraction(0), (Fraction(1),) + (Fraction(0),) * 7
    mean = Fraction(0)
    p = [Fraction(0)] * 8
    for a in range(1, 7):
        for b in range(1, 7):
            dice = [a] * 4 if a == b else [a, b]
            best = min((_exact(x) for x in _plays(checkers, dice)), key=lambda r: r[0])
            mean += Fraction(1, 36) * (1 + best[0])
            for n in range(7):
                p[n + 1] += Fraction(1, 36) * best[1][n]
    return mean, tuple(p)


def test_the_distributions_are_the_exact_ones_up_to_three_checkers(dist):
    p, mean = dist
    bs = bt.boards()
    for i in range(comb(3 + 6, 6)):
        checkers = tuple(sorted(q + 1 for q in range(6) for _ in range(bs[i][q])))
        m, exact = _exact(checkers)
        assert abs(mean[i] - float(m)) < 1e-12, checkers
        assert all(abs(p[i][n] - float(exact[n])) < 1e-12 for n in range(8)), checkers
        assert not p[i][8:].any()


def test_positions_are_numbered_by_gnubg_s_positionbearoff():
    gnubg = pytest.importorskip("gnubg")
    bs = bt.boards()
    for i in range(0, bt.POSITIONS, 5):
        board = list(bs[i]) + [0] * 19
        assert gnubg.positionbearoff(board, 6, 15) == i == bt.index(bs[i]) == index(board)
        assert tuple(gnubg.positionfrombearoff(i, 15, 6)[:6]) == bs[i]


def test_the_winning_chance_is_gnubg_s(dist):
    """gnubg 0-ply's cubeless chance for pure bear-offs, which it takes from its one-sided
    database (class 6, gnubg's bearoff1) for most and from its two-sided one (class 4, exact
    play to win, not to finish soonest) when both sides have few checkers."""
    gnubg = pytest.importorskip("gnubg")
    p, _ = dist
    bs = bt.boards()
    ec, ci = gnubg.evalcontext(0, 0, 1, 0, 0.0), gnubg.cubeinfo()
    rng = random.Random(3)
    seen = {4: [], 6: []}
    table = Table(open(TABLE, "rb"))
    a, b = array("I", bytes(4 * ROLLS)), array("I", bytes(4 * ROLLS))
    while len(seen[6]) < 400 or len(seen[4]) < 100:
        n = rng.choice((14, 6)) if len(seen[4]) < 100 else 14
        me, opp = (rng.randrange(1, comb(n + 6, 6)) for _ in range(2))
        board = [list(bs[opp]) + [0] * 19, list(bs[me]) + [0] * 19]  # [1] is on roll
        kind = gnubg.classify(board)
        g = gnubg.evaluate(board, ci, ec)
        ours = bt.win(p, me, opp)
        table.rolls(me, a)
        table.rolls(opp, b)
        stored = sum(a[k] / ONE * sum(b[k:]) / ONE for k in range(ROLLS))
        assert abs(stored - ours) < 3e-4
        seen[kind].append(abs(g[0] - ours))
        assert g[1] == g[2] == g[3] == g[4] == 0.0  # both have borne off: no gammon left
    # the same database (gnubg keeps 16 bits a value too): ties and rounding apart
    assert max(seen[6]) < 1e-3 and sum(seen[6]) / len(seen[6]) < 3e-5
    assert max(seen[4]) < 0.02 and sum(seen[4]) / len(seen[4]) < 0.003


def test_the_file_is_the_distributions_in_16_bits(dist):
    p, _ = dist
    data = open(TABLE, "rb").read()
    assert data[:4] == b"LGB2" and len(data) < 1_100_000
    t = Table(data)
    f = Table(open(TABLE, "rb"))
    out, out2 = array("I", bytes(4 * ROLLS)), array("I", bytes(4 * ROLLS))
    for i in range(0, bt.POSITIONS, 7):
        span = t.rolls(i, out)
        assert sum(out) == ONE
        assert max(abs(out[n] / ONE - p[i][n]) for n in range(ROLLS)) < 1e-4
        lo, end = span & 255, span >> 8
        assert out[lo] and out[end - 1] and not any(out[:lo]) and not any(out[end:])
        if i % 5 == 0:
            assert f.rolls(i, out2) == span and out2 == out


def test_a_smaller_table_and_the_frozen_module(tmp_path, capsys):
    path = str(tmp_path / "t.bin")
    assert bt.main(["--checkers", "6", path]) == 0
    assert "924 positions" in capsys.readouterr().out
    small = open(path, "rb").read()
    whole = open(TABLE, "rb").read()
    t, w = Table(small), Table(whole)
    assert t.positions == 924
    a, b = array("I", bytes(4 * ROLLS)), array("I", bytes(4 * ROLLS))
    for i in range(924):
        assert t.rolls(i, a) == w.rolls(i, b) and a == b
    mod = str(tmp_path / "bearoff_data.py")
    assert bt.main(["--checkers", "6", "--module", mod]) == 0
    scope: dict = {}
    exec(open(mod).read(), scope)
    assert scope["TABLE"] == small
    assert bt.main(["--checkers", "16", path]) == 2
    assert "--checkers" in capsys.readouterr().err


def test_a_frozen_table_is_read_in_place(tmp_path, monkeypatch):
    """gammon/endgame.load takes the frozen module's TABLE before any file."""
    from gammon.endgame import load
    from kernels.net import Net

    assert bt.write(str(tmp_path / "small_frozen_table.py"), 3, module=True) == 744
    monkeypatch.syspath_prepend(str(tmp_path))
    e = load(Net(os.path.join(ROOT, "firmware", "weights.bin")), "small_frozen_table",
             "no_such.bin")
    assert e.positions == 84 and e.table._file is None and e.first_off is None


def test_the_gammon_chances_are_gnubg_s(dist):
    """Where a side has all 15 checkers left: gnubg 0-ply's cubeless gammon chances (from its
    one-sided database's second distribution) against the first-off table's."""
    gnubg = pytest.importorskip("gnubg")
    p, _ = dist
    g, _ = bt.distributions(True)
    bs = bt.boards()
    ec, ci = gnubg.evalcontext(0, 0, 1, 0, 0.0), gnubg.cubeinfo()
    rng = random.Random(9)
    errs = []
    at_least = np.cumsum(g[:, ::-1], axis=1)[:, ::-1]  # G(>= n)
    for _ in range(300):
        fifteen = rng.randrange(bt.FIFTEEN, bt.POSITIONS)
        other = rng.randrange(1, comb(rng.choice((4, 8, 14)) + 6, 6))
        me, opp = (fifteen, other) if rng.random() < 0.5 else (other, fifteen)
        board = [list(bs[opp]) + [0] * 19, list(bs[me]) + [0] * 19]
        gw = gnubg.evaluate(board, ci, ec)
        wg = float(np.dot(p[me], at_least[opp])) if opp >= bt.FIFTEEN else 0.0
        lg = float(np.dot(p[opp][:-1], at_least[me][1:])) if me >= bt.FIFTEEN else 0.0
        errs += [abs(gw[0] - bt.win(p, me, opp)), abs(gw[1] - wg), abs(gw[3] - lg)]
        assert gw[2] == gw[4] == 0.0
    assert max(errs) < 2e-3 and sum(errs) / len(errs) < 1e-4, (max(errs), sum(errs) / len(errs))
