# The one-sided bear-off table as the board reads it (gammon/bearoff.py) and plays by it
# (gammon/endgame.py): gnubg's position numbers, exact small cases worked by hand, the file
# and an in-memory copy read alike with nothing allocated, the winning chance against a float
# reference, and the chooser's bear-off play, the table's best at 0-ply. The tables are made
# under build/ by tests/conftest.py (host/ledgammon/train/bearoff_table.py).
import sys

from gammon import Position, legal_plays
from gammon.bearoff import ONE, ROLLS, Table, index
from gammon.endgame import Endgame, exact, load
from gammon.opponent import Opponent, _bearoff, chance
from kernels.net import Net
from xorshift import XorShift32

MICROPY = sys.implementation.name == "micropython"
TABLE = "build/bearoff.bin"  # the runners start in the repository's root
SMALL = "build/bearoff-3.bin"  # the same for up to 3 checkers (84 positions)
WEIGHTS = "firmware/weights.bin"


def _home(*points):
    """25 counts with a checker on each of `points` (1-6)."""
    c = [0] * 25
    for p in points:
        c[p - 1] += 1
    return c


def _rolls(table, counts):
    out = [0] * ROLLS
    from array import array

    a = array("I", bytes(4 * ROLLS))
    span = table.rolls(index(counts), a)
    for n in range(ROLLS):
        out[n] = a[n]
    return out, span


_NET = Net(WEIGHTS)  # one for the module's tests, read while the heap is whole
with open(SMALL, "rb") as _f:
    _SMALL_DATA = _f.read()  # (740 bytes: in a fragmented heap later, MemoryError)


def _network():
    return _NET


def _open():
    try:
        return open(TABLE, "rb")
    except OSError:
        raise AssertionError("no %s: python -m ledgammon.train.bearoff_table" % TABLE) from None


def test_positions_are_numbered_as_gnubg_numbers_them():
    # gnubg.positionfrombearoff(i, 15, 6) for these i (checked with its bindings)
    assert index([0] * 6) == 0
    for p in range(1, 7):
        assert index(_home(p)) == p
    assert index(_home(1, 1)) == 7 and index(_home(1, 2)) == 8 and index(_home(1, 6)) == 12
    assert index(_home(2, 2)) == 13 and index(_home(6, 6)) == 27 and index(_home(1, 1, 1)) == 28
    assert index([0, 0, 0, 0, 0, 15]) == 54263
    board = bytes(25) + bytes([0, 0, 0, 0, 0, 15] + [0] * 19)
    assert index(board, 25) == 54263  # a side of a 50-byte board


def test_small_cases_worked_by_hand():
    with _open() as f:
        table = Table(f)
        assert table.positions == 54264
        assert _rolls(table, [0] * 6) == ([ONE] + [0] * 31, 0 | 1 << 8)
        for p in (1, 2, 3):  # any roll takes one checker off from the 3 point (1-1: 4 pips)
            assert _rolls(table, _home(p))[0][:3] == [0, ONE, 0], p
        # the 4 point: 1-2 and 2-1 miss; the 5: 1-1, 1-2, 1-3 (and reversed) miss; the 6:
        # 1-1, 1-2, 1-3, 1-4, 2-3 miss (9 of 36), each leaving one roll to go
        assert _rolls(table, _home(4))[0][:4] == [0, 61894, 3641, 0]  # 34/36, 2/36
        assert _rolls(table, _home(5))[0][:4] == [0, 56433, 9102, 0]  # 31/36 (rounded
        six, span = _rolls(table, _home(6))  # down one so that they sum to 65535), 5/36
        assert six[:4] == [0, 49151, 16384, 0] and span == 1 | 3 << 8  # 27/36, 9/36
        assert _rolls(table, _home(1, 1))[0][:3] == [0, ONE, 0]
        # fifteen on the six point: at least 4 rolls (6-6 four times, 36**-4, which rounds
        # to 0 of 65535), at most 30 (90 pips, 3 a roll at least); all sum to one
        rolls, span = _rolls(table, [0, 0, 0, 0, 0, 15])
        lo, end = span & 255, span >> 8
        assert 4 < lo < end <= 31 and rolls[lo] > 0 and rolls[end - 1] > 0
        assert not any(rolls[:lo]) and not any(rolls[end:]) and sum(rolls) == ONE


def test_the_file_and_a_copy_in_memory_read_alike():
    data = _SMALL_DATA
    from array import array

    a = array("I", bytes(4 * ROLLS))
    b = array("I", bytes(4 * ROLLS))
    with _open() as f:
        whole = Table(f)
        small = Table(data)
        assert small.positions == 84  # the boards of up to 3 checkers come first
        for i in range(84):
            assert whole.rolls(i, a) == small.rolls(i, b), i
            assert a == b and sum(a) == ONE, i
    for bad in (data[:-1], b"XXXX" + data[4:], data[:20]):
        try:
            Table(bad)
        except ValueError:
            continue
        raise AssertionError("a broken table was read")
    try:
        small.rolls(84, a)
    except IndexError:
        pass
    else:
        raise AssertionError("a position past the table was read")


def test_a_look_up_and_an_equity_allocate_nothing():
    from array import array

    net = _network()
    out = array("I", bytes(4 * ROLLS))
    with _open() as f:
        endgame = Endgame(net, Table(f))
        board = bytes(_home(1, 2, 6, 6) + _home(3, 3, 5))
        if MICROPY:
            import micropython

            micropython.heap_lock()
        try:
            endgame.table.rolls(54263, out)
            eq = endgame.equity(board, 0)
            eq2 = endgame.equity(board, 25)
        finally:
            if MICROPY:
                micropython.heap_unlock()
        assert -4096 < eq < 4096 and -4096 < eq2 < 4096


def _side(below, most=14):
    counts = [0] * 25
    for _ in range(1 + below(most)):
        counts[min(below(6), below(6))] += 1
    return counts


def test_the_winning_chance_against_a_float_reference():
    """2 P(win) - 1, P(win) = sum over n of P_me(n) P_opp(>= n), against floats from the
    same distributions; and the side on roll always does at least as well as the same
    side not on roll."""
    below = XorShift32(5).below
    with _open() as f:
        endgame = Endgame(_network(), Table(f))
        table = endgame.table
        for _ in range(60):
            me, opp = _side(below), _side(below)
            board = bytes(me + opp)
            pm = _rolls(table, me)[0]
            po = _rolls(table, opp)[0]
            win = 0.0
            for n in range(ROLLS):
                win += pm[n] / ONE * sum(po[n:]) / ONE
            eq = endgame.equity(board, 0)
            assert abs(eq - (2 * win - 1) * 4096) <= 2, (me, opp, eq, win)
            assert endgame.equity(bytes(opp + me), 25) == eq  # the same side, stored second
            assert eq >= -endgame.equity(board, 25) - 2  # being on roll never hurts
        # the bounds: a sure win, a sure loss
        assert endgame.equity(bytes(_home(1) + _home(6, 6, 6)), 0) == 4096
        assert endgame.equity(bytes(_home(6, 6, 6, 6, 6) + _home(1)), 0) == -4096


def test_the_table_decides_only_bear_offs_with_no_gammon_left():
    fourteen = [0, 0, 0, 0, 0, 14] + [0] * 19
    assert exact(bytes(_home(1, 2) + _home(3)), 54264)
    assert exact(bytes(fourteen + fourteen), 54264)
    assert not exact(bytes(_home(1, 2, 7) + _home(3)), 54264)  # a checker outside home
    bar = _home(1)
    bar[24] = 1
    assert not exact(bytes(bar + _home(3)), 54264)
    fifteen = [0, 0, 0, 0, 0, 15] + [0] * 19  # none off: a gammon can be lost
    assert not exact(bytes(fifteen + _home(3)), 54264)
    assert not exact(bytes(_home(3) + fifteen), 54264)
    assert exact(bytes(_home(1, 2) + _home(3)), 84)
    assert not exact(bytes(_home(1, 2, 2, 2) + _home(3)), 84)  # beyond a 3-checker table


def _choices(below, count, make):
    """`count` (position, dice, plays) from make() and a random roll, each with two plays
    or more."""
    made = 0
    while made < count:
        pos = make()
        dice = (1 + below(6), 1 + below(6))
        plays = legal_plays(pos, dice)
        if len(plays) >= 2:
            made += 1
            yield pos, dice, plays


def _values(endgame, plays):
    """Each play's result (its key) with the mover's equity by the table (money play)."""
    values = {}
    for p in plays:
        after = p.result
        won = after.outcome()
        values[after.key()] = 4096 * won if won else -endgame.equity(after.key(), 25)
    return values


def test_the_chooser_plays_the_table_s_best_bear_off_at_both_levels():
    net = _network()
    below = XorShift32(11).below
    with _open() as f:
        endgame = Endgame(net, Table(f))
        opp = Opponent(net, endgame)
        plain = Opponent(net)
        seen = 0
        for pos, dice, plays in _choices(below, 12, lambda: Position(_side(below),
                                                                     _side(below))):
            seen += 1
            values = _values(endgame, plays)
            best = max(values.values())
            play = opp.choose(pos, dice, "strong")
            assert values[play.result.key()] == best, (pos.position_id(), dice)
            assert opp.evaluations == len(plays)  # 0-ply: no look-ahead on a table's values
            again = opp.choose(pos, dice, "strong")
            assert again.result.key() == play.result.key()  # deterministic
            easy = opp.choose(pos, dice, "easy", chance(seen))
            assert values[easy.result.key()] >= best - 410  # its noise: a tenth of a point
        # where gammons are left the network decides, as before
        pos = Position([0, 0, 0, 0, 0, 15] + [0] * 19, _home(3))
        a = opp.choose(pos, (6, 5), "strong")
        b = plain.choose(pos, (6, 5), "strong")
        assert a.result.key() == b.result.key() and opp.evaluations == plain.evaluations


def test_the_player_takes_the_table_only_where_there_is_one():
    e = _bearoff(_NET, TABLE)
    assert e.positions == 54264 and e.first_off is not None
    e.table._file.close()
    assert _bearoff(_NET, "build/no_such_table.bin") is None  # nor loads its code then


def test_the_board_loads_the_table_frozen_or_from_its_file():
    e = load(_NET, "no_such_module", TABLE)  # no image holds it frozen here: the file
    assert e.positions == 54264 and e.net is _NET
    first = e.first_off  # the rolls to the first checker off, for the positions of 15
    assert first.first == 38760 and first.positions == 54264 - 38760
    rolls = [0] * ROLLS
    from array import array

    a = array("I", bytes(4 * ROLLS))
    first.rolls(index([15, 0, 0, 0, 0, 0]), a)
    assert list(a[:3]) == [0, ONE, 0]
    # fifteen on the six point: off in one roll only with a 6 or an exact 6 in one checker's
    # steps (5-1, 4-2, 3-3, 2-2): 17 of 36; 5-2 cannot bear the checker on the 1 point off
    span = first.rolls(index([0, 0, 0, 0, 0, 15]), a)
    for n in range(ROLLS):
        rolls[n] = a[n]
    assert abs(rolls[1] - 17 * ONE / 36) <= 1 and sum(rolls) == ONE and span & 255 == 1
    try:
        first.rolls(38759, a)  # 14 checkers: not in the first-off table
    except IndexError:
        pass
    else:
        raise AssertionError("a position of 14 in the first-off table")
    e.table._file.close()
    assert load(_NET, "no_such_module", "build/no_such_table.bin") is None  # the network


def test_the_gammon_chances_against_a_float_reference():
    """A side with all 15 left: 2 P(win) - 1 + P(win a gammon) - P(lose one), money play,
    against floats: P(win gammon) = sum P_me(n) G_opp(>= n), P(lose one) = sum P_opp(m)
    G_me(> m), G the rolls to the first checker off."""
    from array import array

    below = XorShift32(23).below
    e = load(_NET, "no_such_module", TABLE)
    a = array("I", bytes(4 * ROLLS))

    def dist(table, i):
        table.rolls(i, a)
        return [a[n] / ONE for n in range(ROLLS)]

    def tail(d):  # the chance of n or more
        out = d[:]
        for n in range(ROLLS - 2, -1, -1):
            out[n] += out[n + 1]
        return out + [0.0]

    import gc

    for _ in range(40):
        gc.collect()  # floats are heap objects on MicroPython
        me = _side(below)
        opp = [0] * 25
        for _ in range(15):
            opp[below(6)] += 1
        if below(2):
            me, opp = opp, me
        board = bytes(me + opp)
        i, j = index(me), index(opp)
        pm, po = dist(e.table, i), dist(e.table, j)
        po_tail = tail(po)
        win = sum(pm[n] * po_tail[n] for n in range(ROLLS))
        wg = lg = 0.0
        if j >= 38760:
            go = tail(dist(e.first_off, j))
            wg = sum(pm[n] * go[n] for n in range(ROLLS))
        if i >= 38760:
            gm = tail(dist(e.first_off, i))
            lg = sum(po[m] * gm[m + 1] for m in range(ROLLS))
        assert e.exact(board) and not exact(board, 54264)  # a gammon is left
        eq = e.equity(board, 0)
        assert abs(eq - (2 * win - 1 + wg - lg) * 4096) <= 3, (me, opp, eq, win, wg, lg)
    e.table._file.close()


def test_the_chooser_plays_for_the_gammon_by_the_table():
    e = load(_NET, "no_such_module", TABLE)
    opp = Opponent(_NET, e)
    below = XorShift32(31).below
    def far_ahead():  # the mover far ahead of a side of 15: gammons are in play
        them = [0] * 25
        for _ in range(15):
            them[min(below(6), below(6))] += 1
        return Position(_side(below, 6), them)

    for pos, dice, plays in _choices(below, 8, far_ahead):
        values = _values(e, plays)
        play = opp.choose(pos, dice, "strong")
        assert values[play.result.key()] == max(values.values()), (pos.position_id(), dice)
        assert opp.evaluations == len(plays)
    e.table._file.close()
