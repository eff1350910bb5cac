# Turn: a play entered step by step keeps to the rules at every step (MicroPython too).
#
# Result IDs and counts were computed with GNU Backgammon (findbestmoves and `hint`, see
# tests/gen_oracle.py), the mover still on roll.
from gammon import Position, legal_plays
from gammon.turn import Turn
from positions import ids, pos, raises

LONE = {24: 1, 1: 14}
# 24/18 10/9 or 24/17 (gnubg: 2 plays); 10/4 first would leave the 1 unplayable (23, 3 held)
BOTH_DICE = pos({24: 1, 10: 1, 1: 13}, {2: 2, 22: 2, 13: 11})
# their blot on my 7-point: 13/7*/5 hits on the way, 13/11/5 does not (15 plays of 6-2)
BLOT_ON_7 = pos({24: 2, 13: 5, 8: 3, 6: 5}, {18: 1, 6: 5, 8: 3, 13: 4, 2: 2})
BLOT_ON_9 = pos({24: 2, 13: 5, 8: 3, 6: 5}, {16: 1, 6: 5, 8: 3, 13: 4, 2: 2})


def test_start_31_step_by_step():
    p = Position.start()
    t = Turn(p, (3, 1))
    assert not t.complete
    assert sorted(t.remaining) == [1, 3]
    assert sorted(t.movable()) == [6, 8, 13, 24]
    assert sorted(t.destinations(8)) == [4, 5, 7]
    assert sorted(t.destinations(24)) == [20, 21, 23]
    made = t.step(8, 5)
    assert [s[:2] for s in made] == [(8, 5)]
    assert t.remaining == (1,)
    assert t.steps == ((8, 5, False),)
    assert t.play is None
    t.step(6, 5)
    assert t.complete and t.remaining == ()
    assert str(t.play) == "8/5 6/5"
    assert t.play.result.position_id() in ids(legal_plays(p, (3, 1)))
    assert t.play.result == [q for q in legal_plays(p, (3, 1)) if str(q) == "8/5 6/5"][0].result


def test_both_dice_rule():
    assert BOTH_DICE.position_id() == "BsD/AQz/H0AAIA"
    t = Turn(BOTH_DICE, (6, 1))
    assert sorted(t.movable()) == [10, 24]
    assert sorted(t.destinations(10)) == [9]  # not 4: the 1 could not be played after it
    assert raises(t.step, 10, 4)
    assert sorted(t.destinations(24)) == [17, 18]  # 23 is held: 24/17 goes through 18
    t.step(24, 18)
    assert t.remaining == (1,)
    assert sorted(t.movable()) == [10, 18]  # 10/9 or 18/17
    assert t.undo() == (24, 18, False)
    assert t.step(24, 17) == [(24, 18, False), (18, 17, False)]
    assert t.complete
    assert t.play.result.position_id() == "BsD/AQz/H0BAAA"
    t.undo()
    t.step(10, 9)
    assert t.play.result.position_id() == "BsD/AQz/HyCAAA"


def test_larger_die_rule():
    p = pos(LONE, {10: 2, 6: 13})  # 24/18 or 24/21 but never both: the 6 must be played
    t = Turn(p, (6, 3))
    assert t.movable() == [24]
    assert sorted(t.destinations(24)) == [18]
    assert raises(t.step, 24, 21)
    assert raises(t.step, 24, 15)
    t.step(24, 18)
    assert t.complete and t.remaining == ()
    assert t.play.result.position_id() == "4P/DAAD/PwCAAA"
    # only the smaller die can move: then it must
    t = Turn(pos(LONE, {7: 2, 10: 2, 6: 11}), (6, 3))
    assert sorted(t.destinations(24)) == [21]
    t.step(24, 21)
    assert t.complete


def test_undo_back_to_start():
    p = Position.start()
    t = Turn(p, (6, 5))
    movable = sorted(t.movable())
    assert t.undo() is None
    t.step(24, 13)  # both dice in one move: two single steps
    assert len(t.steps) == 2 and t.complete
    assert t.undo() is not None
    assert not t.complete and len(t.steps) == 1
    assert t.undo() is not None
    assert t.undo() is None
    assert t.steps == () and sorted(t.remaining) == [5, 6]
    assert sorted(t.movable()) == movable
    t.step(13, 7)
    t.step(13, 8)
    assert str(t.play) == "13/8 13/7"


def test_multi_die_destination_hits_on_the_way():
    assert BLOT_ON_7.position_id() == "hs/BgwDgc/ABMA"
    t = Turn(BLOT_ON_7, (6, 2))
    dests = t.destinations(13)
    assert sorted(dests) == [5, 7, 11]
    made = t.step(13, 5)  # the larger die first: through the blot on 7
    assert made == [(13, 7, True), (7, 5, False)]
    assert t.complete
    assert t.play.result.position_id() == "hs/BA0DQ5+ABMA"
    assert str(t.play) == "13/7*/5"
    # the same checker, one die at a time through 11: no hit
    t = Turn(BLOT_ON_7, (6, 2))
    t.step(13, 11)
    t.step(11, 5)
    assert t.steps == ((13, 11, False), (11, 5, False))
    assert t.play.result.position_id() == "hs/BgwDQ5+ABMA"
    assert t.play.result.position_id() in ids(legal_plays(BLOT_ON_7, (6, 2)))


def test_doubles_through_intermediate_points():
    t = Turn(BLOT_ON_9, (2, 2))
    assert sorted(t.destinations(13)) == [5, 7, 9, 11]
    made = t.step(13, 5)  # 13/11/9*/7/5
    assert [s[:2] for s in made] == [(13, 11), (11, 9), (9, 7), (7, 5)]
    assert [s[2] for s in made] == [False, True, False, False]
    assert t.complete and t.remaining == ()
    assert t.play.result.position_id() == "hs/BA0DQ5+ABMA"
    t.undo()
    assert t.remaining == (2,) and not t.complete
    t.undo()
    t.undo()
    assert t.remaining == (2, 2, 2)
    t.step(11, 9)  # the checker stopped on 11: on over the blot
    assert t.steps[-1] == (11, 9, True)


def test_complete_after_the_dice_that_can_be_played():
    t = Turn(pos(LONE, {13: 2, 6: 13}), (4, 4))  # only two 4s can move
    assert sorted(t.destinations(24)) == [16, 20]
    t.step(24, 20)
    assert not t.complete
    t.step(20, 16)
    assert t.complete and t.remaining == ()
    assert t.play.result.position_id() == "4P8DBgD/PwAgAA"
    assert t.movable() == []


def test_no_legal_move_is_complete_at_once():
    p = pos({25: 1, 6: 5, 8: 3, 13: 6}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3})
    t = Turn(p, (6, 4))
    assert t.complete
    assert t.movable() == []
    assert t.steps == ()
    assert t.play is not None and t.play.result == p


def test_bar_first_and_bear_off():
    t = Turn(pos({25: 2, 6: 5, 8: 3, 13: 5}, {3: 1, 6: 5, 8: 3, 13: 6}), (3, 1))
    assert t.movable() == [25]  # nothing moves while a checker is on the bar
    assert sorted(t.destinations(25)) == [22, 24]  # not 21: the second checker must enter
    assert t.step(25, 22) == [(25, 22, True)]
    t.step(25, 24)
    assert t.complete and t.play.result.position_id() == "4HPwA0Dgc/ABJA"
    # bearing off: 4/off with a 6 (the highest point), then 2/off with the 5
    t = Turn(pos({1: 1, 2: 1, 4: 1}, {19: 3, 20: 12}), (6, 5))
    assert t.movable() == [4]
    assert 0 in t.destinations(4)
    t.step(4, 0)
    assert t.movable() == [2]
    t.step(2, 0)
    assert t.complete and t.play.result.position_id() == "AADc/wMBAAAAAA"


def test_bad_steps():
    t = Turn(Position.start(), (3, 1))
    for frm, to in ((7, 4), (8, 9), (24, 0), (26, 20), (0, 0), (6, 1)):
        assert raises(t.step, frm, to), (frm, to)
    assert t.steps == ()
    assert raises(Turn, Position.start(), (0, 3))
    assert raises(Turn, Position.start(), (7, 1))


ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]
WALK_POSITIONS = ("4HPwATDgc/ABMA", "xOfgBwDgc/ABUA", "gP8fAAjj7gAAAA", "hs/BIwDgc/ABMA")


def test_every_legal_play_can_be_entered():
    for pid in WALK_POSITIONS:
        p = Position.from_id(pid)
        for dice in ROLLS:
            movable = Turn(p, dice).movable()
            for q in legal_plays(p, dice):
                assert q.steps[0][0] in movable, (pid, dice, str(q))
                t = Turn(p, dice)
                for frm, to, hit in q.steps:
                    assert t.step(frm, to) == [(frm, to, hit)], (pid, dice, str(q))
                assert t.complete and t.play.result == q.result, (pid, dice, str(q))


def test_random_walks_end_in_legal_plays():
    seed = 12345  # a small LCG: the same walks on MicroPython and CPython
    for pid in WALK_POSITIONS:
        p = Position.from_id(pid)
        for dice in ROLLS:
            for _ in range(3):
                t = Turn(p, dice)
                moves = 0
                while not t.complete and moves < 40:
                    movable = t.movable()
                    assert movable, (pid, dice, t.steps)
                    seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
                    frm = movable[seed % len(movable)]
                    dests = sorted(t.destinations(frm))
                    assert dests, (pid, dice, frm)
                    t.step(frm, dests[(seed >> 8) % len(dests)])
                    if (seed >> 16) % 5 == 0:
                        t.undo()
                    moves += 1
                assert t.complete
                assert is_legal(p, dice, t.play.result), (pid, dice, t.steps)


def is_legal(p, dice, result):
    """Whether some legal play gives `result` (the plays are walked, not kept)."""
    plays = legal_plays(p, dice)
    if not plays:
        return result == p
    for q in plays:
        if q.result == result:
            return True
    return False


def test_a_search_with_a_goal_answers_as_the_whole_search():
    """gammon.turn asks only whether the dice left can still be played out: movegen's
    search stops at the first sequence of `goal` moves. Its answer (length >= goal) is the
    whole search's, and the board is left as it was."""
    from gammon.dice import Dice, SeededBytes
    from kernels.movegen import LEN_SHIFT, CodeList, play_codes, search

    out = CodeList()
    dice = Dice(SeededBytes(77))
    p = Position.start()
    stopped = cut = 0
    for _ in range(60):  # positions of a seeded game, both sides, one at a time (64 KB)
        b = bytearray(p.key())
        before = bytes(b)
        for d in range(1, 7):
            for left in ((d,), (d, d), (d, d, d), (d, d, d, d)):
                full = search(b, left, out)
                whole = out.n
                for goal in range(1, len(left) + 1):
                    best = search(b, left, out, 0, goal)
                    assert (best >= goal) == (full >= goal), (before, left, goal)
                    assert best <= full and bytes(b) == before
                    stopped += out.n < whole
            for d2 in range(1, d + 1):  # a Turn's count of plays: to 2 (is it forced?)
                full = play_codes(b, (d, d2), out).n
                first = out[0] if full else 0
                two = play_codes(b, (d2, d), out, True).n
                assert min(full, 2) <= two <= full and (two == 1) == (full == 1)
                assert not full or out[0] >> LEN_SHIFT & 7 == first >> LEN_SHIFT & 7
                if full == 1:
                    assert out[0] == first  # the forced play itself
                assert bytes(b) == before
                cut += two < full
        roll = dice.roll()
        plays = legal_plays(p, roll)
        if len(plays):
            p = plays[dice.die() * 7 % len(plays)].result
        plays = None
        p = p.swap()
    assert stopped > 100 and cut > 20  # the goal did cut searches short
