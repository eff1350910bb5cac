# Checker play at the match score: the network's weighted equity is the plain formula on its
# outputs (money play's weights: today's equity, exactly); the board's choice at a score is a
# plain reference's (every play ranked from the other side's view with its weights, the
# look-ahead's replies from the mover's); at DMP it plays for the win and post-Crawford, the
# trailer, for the gammon, where money play makes another play (so the checks can fail).
# MicroPython too (tests/test_micropython.py, a process of its own).
import sys

from gammon import Position, legal_plays
from gammon.dice import Dice, SeededBytes
from gammon.opponent import _ROLLS, BUDGET, Opponent
from gammon.score_values import swapped, weights
from kernels.net import MONEY, VALUE_MAX, Net
from positions import raises

MICROPY = sys.implementation.name == "micropython"
WEIGHTS = "firmware/weights.bin"  # the runners start in the repository's root
DMP = weights(1, 1, 1)  # nothing but winning counts
TRAILER = weights(2, 1, 1)  # post-Crawford, 2-away against 1-away: a gammon wins the match
LEADER = weights(1, 2, 1)
CRAWFORD = weights(1, 3, 1, True)  # the leader in the Crawford game: (0, 0, g1, b1)

_opp = None


def opponent():
    global _opp
    if _opp is None:
        _opp = Opponent(Net(WEIGHTS))
    return _opp


def _positions(seed, count):
    """Positions met in a seeded game of the board against itself (money play)."""
    dice = Dice(SeededBytes(seed))
    opp = opponent()
    p = Position.start()
    n = 0
    while n < count:
        roll = dice.roll()
        play = opp.choose(p, roll, "strong")
        if play is not None:
            yield p, roll
            n += 1
            p = play.result
            if p.outcome():
                p = Position.start()
                continue
        p = p.swap()


def _plain(v, o):
    return 2 * o[0] - 4096 + ((v[0] * o[1] + v[1] * o[2] - v[2] * o[3] - v[3] * o[4] + 2048) >> 12)


def test_the_weighted_equity_is_the_plain_formula_on_the_outputs():
    net = opponent().net
    sets = (MONEY, (0, 0, 0, 0), DMP, TRAILER, CRAWFORD, (VALUE_MAX,) * 4, (1, 4095, 8191, 3))
    checked = 0
    for p, _ in _positions(21, 12 if MICROPY else 4):
        board = p.key()
        for roller in (0, 25):
            for v in sets:
                net.set_values(v)
                e = net.equity(board, roller)
                o = net.probabilities()
                assert e == _plain(v, o), (p.position_id(), v)
                s = v[0] * o[1] + v[1] * o[2] - v[2] * o[3] - v[3] * o[4]
                f = 2 * o[0] - 4096 + s / 4096
                assert abs(e - f) <= 0.5
                # the incremental evaluation weighs the same
                assert net.set_base(board, roller) == e
                checked += 1
    net.set_values(None)
    assert checked >= 4 * 2 * len(sets)


def test_money_play_s_values_give_today_s_equity_exactly():
    net = opponent().net
    net.set_values(None)
    assert tuple(net.values) == MONEY
    for p, _ in _positions(22, 10 if MICROPY else 3):
        for roller in (0, 25):
            e = net.equity(p.key(), roller)
            o = net.probabilities()
            assert e == 2 * o[0] - 4096 + o[1] - o[3] + o[2] - o[4]  # the formula of before


def test_bad_values_are_refused_and_change_nothing():
    from gammon.score_values import CAP

    assert CAP == VALUE_MAX  # the weights the score gives are the network's to take
    net = opponent().net
    net.set_values(DMP)
    for bad in ((0, 0, 0, VALUE_MAX + 1), (-1, 0, 0, 0), (0, 0, 0)):
        assert raises(net.set_values, bad)
        assert tuple(net.values) == DMP
    net.set_values(None)
    assert tuple(net.values) == MONEY


def _code_of(position, dice, text):
    for play in legal_plays(position, dice):
        if str(play) == text:
            return play.code
    raise AssertionError("no play %s" % text)


def _picks(pid, dice, values):
    play = opponent().choose(Position.from_id(pid), dice, "strong", None, values)
    return str(play)


def _win_chance(position, dice, text):
    """The mover's chance to win after the play (the network at 0-ply)."""
    net = opponent().net
    for play in legal_plays(position, dice):
        if str(play) == text:
            net.equity(play.result.key(), 25)
            return 4096 - net.probabilities()[0]
    raise AssertionError(text)


# Found by playing the board's games at both weights (the shipped network's choices): at DMP
# running a back checker out with the 6 wins more (the network: 27.0% against 25.5%) for far
# more gammons lost (36.7% against 20.1%), which money play will not pay.
DMP_CASE = ("2M6YAQMzbuAAJg", (6, 1), "24/23 22/16", "24/23 13/7")
# post-Crawford, the trailer 2-away: with 5-4, hitting on its 3 point for the gammon (its
# only way to win the match at once; 20.5% against 15.2%) rather than money play's quiet 13/8
TRAILER_CASE = ("wu8GYAjYTsMJBA", (5, 4), "15/11 8/3*", "15/11 13/8")


def test_at_double_match_point_the_board_plays_for_the_win():
    pid, dice, dmp, money = DMP_CASE
    assert _picks(pid, dice, DMP) == dmp
    p = Position.from_id(pid)
    assert _win_chance(p, dice, dmp) > _win_chance(p, dice, money)


def test_the_dmp_check_fails_with_money_play_s_values():
    pid, dice, dmp, money = DMP_CASE
    assert _picks(pid, dice, None) == money != dmp


def test_the_post_crawford_trailer_plays_for_the_gammon_money_play_does_not():
    pid, dice, trailer, money = TRAILER_CASE
    assert _picks(pid, dice, TRAILER) == trailer
    assert _picks(pid, dice, None) == money != trailer
    # and a leader's weights, gammons lost counting double, do not make that hit either
    assert _picks(pid, dice, LEADER) != trailer


def _after(net, result, mine):
    """The mover's equity after a play (`result`, the mover's view, the other side to roll)."""
    won = result.outcome()
    if won > 0:
        return 4096 + (mine[0] if won > 1 else 0) + (mine[1] if won > 2 else 0)
    net.set_values(swapped(mine))
    return -net.equity(result.key(), 25)


def _reply_value(net, reply, mine):
    """The mover's equity after the other side's reply (`reply`: the replier's view)."""
    won = reply.outcome()
    if won > 0:
        return -(4096 + (mine[2] if won > 1 else 0) + (mine[3] if won > 2 else 0))
    net.set_values(mine)
    return net.equity(reply.key(), 25)  # the mover, the side at 25 here, on roll


def _ahead(net, result, mine, budget):
    """The look-ahead's mean, or None past `budget`; and the evaluations it spent."""
    won = result.outcome()
    if won > 0:
        return 4096 + (mine[0] if won > 1 else 0) + (mine[1] if won > 2 else 0), 0
    other = result.swap()
    total = spent = 0
    for r in range(21):
        roll = (_ROLLS[2 * r], _ROLLS[2 * r + 1])
        replies = legal_plays(other, roll)
        n = len(replies)
        if spent + (n or 1) > budget:
            return None, spent
        spent += n or 1
        if n == 0:
            net.set_values(mine)
            best = net.equity(result.key(), 0)
        else:
            best = min(_reply_value(net, q.result, mine) for q in replies)
        total += best if r < 6 else 2 * best
    return total // 36, spent


def _reference(position, dice, mine):
    """The strong choice at the score, plainly: its play's code."""
    net = opponent().net
    plays = legal_plays(position, dice)
    ranked = [(_after(net, q.result, mine), i) for i, q in enumerate(plays)]
    ranked.sort(key=lambda t: (-t[0], t[1]))  # best first, ties in the generator's order
    top = ranked[:4]
    close = 1
    while close < len(top) and top[close][0] >= top[0][0] - 819:
        close += 1
    best = top[0][1]
    if close > 1:
        used = len(plays)
        best_eq = None
        for _, i in top[:close]:
            eq, spent = _ahead(net, plays[i].result, mine, BUDGET - used)
            used += spent
            if eq is None:
                break
            if best_eq is None or eq > best_eq:
                best_eq, best = eq, i
    net.set_values(None)
    return plays[best].code


def test_the_choice_at_the_score_is_the_plain_reference_s():
    opp = opponent()
    checked = 0
    for k, (p, roll) in enumerate(_positions(23, 6 if MICROPY else 2)):
        for mine in (TRAILER, CRAWFORD) if MICROPY or k == 0 else (TRAILER,):
            got = opp.choose(p, roll, "strong", None, mine)
            assert got.code == _reference(p, roll, mine), (p.position_id(), roll, mine)
            checked += 1
    for pid, roll, _, _ in (DMP_CASE, TRAILER_CASE):  # two where the score changes the play
        p = Position.from_id(pid)
        for mine in (DMP, TRAILER):
            assert opp.choose(p, roll, "strong", None, mine).code == _reference(p, roll, mine)
            checked += 1
    assert checked >= 5


def test_the_easy_level_and_the_kept_steps_rank_at_the_score_too():
    opp = opponent()
    pid, dice, dmp, money = DMP_CASE
    p = Position.from_id(pid)
    # no chance: easy is the 0-ply ranking, which already prefers the DMP play here
    easy = opp.choose(p, dice, "easy", None, DMP)
    assert str(easy) == dmp and str(opp.choose(p, dice, "easy", None, None)) == money
    # the best play of the two the filter keeps... at the score
    c = opp.think(p, dice, "strong", None, lambda code: code in (_code_of(p, dice, dmp),
                                                                 _code_of(p, dice, money)), DMP)
    while not c.step():
        pass
    assert str(c.play) == dmp
