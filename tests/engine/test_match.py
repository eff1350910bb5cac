# The cube, resignations and match scoring against hand-checked cases (MicroPython too).
# tests/test_match_gnubg.py plays the same rules against GNU Backgammon itself.
from gammon.match import DOUBLE, DROPPED, PLAYED, RESIGN, RESIGNED, Match
from gammon.matchid import decode, encode


def raises(fn, *args):
    try:
        fn(*args)
    except ValueError:
        return True
    return False


def _snapshot(m):
    return (m.cube, m.owner, m.offer, m.offer_by, m.offer_value, m.ended, list(m.score),
            m.crawford, m.post_crawford)


def refused(m, fn, *args):
    """`fn(*args)` raises ValueError and leaves the match as it was."""
    before = _snapshot(m)
    return raises(fn, *args) and _snapshot(m) == before


def test_points_of_a_played_out_game_money_and_match():
    # (length, cube_on, jacoby, cube after takes, result) -> points
    cases = [
        (0, True, True, 1, 2, 1),  # Jacoby: a gammon counts once the cube is turned
        (0, True, True, 1, 3, 1),
        (0, True, True, 2, 2, 4),
        (0, True, True, 4, 3, 12),
        (0, True, False, 1, 2, 2),  # no Jacoby
        (0, False, True, 1, 2, 2),  # cubeless money play: gammons count (as before)
        (0, False, True, 1, 3, 3),
        (7, True, True, 1, 2, 2),  # no Jacoby in a match
        (7, True, True, 2, 3, 6),
        (7, True, True, 1, 1, 1),
    ]
    for length, cube_on, jacoby, cube, result, points in cases:
        m = Match(length, cube_on, jacoby)
        doubler = 0
        while m.cube < cube:
            m.double(doubler)
            m.take(1 - doubler)
            doubler = 1 - doubler
        m.finish(1, result)
        assert m.ended == PLAYED and m.winner == 1 and m.points == points, (length, cube, result)
        assert m.score == [0, points]


def test_the_cube_is_turned_by_its_owner_or_from_the_middle():
    m = Match(0)
    assert m.may_double(0) and m.may_double(1)
    m.double(0)
    assert m.offer == DOUBLE and m.offer_by == 0 and m.offer_value == 2 and m.deciding(0) == 1
    assert refused(m, m.take, 0)  # the doubler does not answer
    assert refused(m, m.double, 1)  # an offer is on the table
    assert refused(m, m.resign, 1, 1)
    m.take(1)
    assert (m.cube, m.owner, m.offer) == (2, 1, 0)
    assert not m.may_double(0) and m.may_double(1)
    assert refused(m, m.double, 0)
    m.double(1)
    m.take(0)
    assert (m.cube, m.owner) == (4, 0)
    for _ in range(4):  # up to 64, then no more
        m.double(m.owner)
        m.take(1 - m.offer_by)
    assert m.cube == 64 and not m.may_double(m.owner) and refused(m, m.double, m.owner)


def test_a_drop_gives_the_doubler_the_cube_before_doubling():
    m = Match(0)
    m.double(0)
    m.take(1)  # cube 2, player 1's
    m.double(1)  # offers 4
    m.drop(0)
    assert m.ended == DROPPED and m.winner == 1 and m.points == 2 and m.score == [0, 2]
    assert refused(m, m.double, 1) and refused(m, m.resign, 0, 1)
    assert refused(m, m.finish, 0, 1)
    m.next_game()
    assert (m.cube, m.owner, m.ended, m.score, m.game_number) == (1, -1, 0, [0, 2], 2)


def test_resignations_accepted_and_rejected():
    m = Match(0, True, True)
    assert refused(m, m.resign, 0, 0) and refused(m, m.resign, 0, 4)
    m.resign(0, 2)
    assert m.offer == RESIGN and m.deciding(0) == 1
    assert refused(m, m.accept, 0) and refused(m, m.take, 1) and refused(m, m.double, 1)
    m.reject(1)
    assert m.offer == 0 and not m.ended
    m.double(0)
    m.take(1)
    m.resign(0, 3)  # a backgammon, cube 2: 6 points (Jacoby counts played-out games only)
    m.accept(1)
    assert m.ended == RESIGNED and m.winner == 1 and m.points == 6 and m.score == [0, 6]
    centred = Match(0, True, True)
    centred.resign(1, 2)  # a gammon resigned with the cube in the middle counts 2 (gnubg)
    centred.accept(0)
    assert centred.points == 2


def test_crawford_and_post_crawford_in_a_five_point_match():
    m = Match(5)
    m.double(0)
    m.take(1)
    m.finish(0, 2)  # a gammon with the cube at 2: 4 points, player 0 reaches 4 = 5 - 1
    assert m.score == [4, 0] and m.crawford  # the next game is the Crawford game
    m.next_game()
    assert m.crawford and not m.may_double(0) and not m.may_double(1)
    assert refused(m, m.double, 1)
    m.finish(1, 1)
    assert m.score == [4, 1] and not m.crawford and m.post_crawford
    m.next_game()
    assert m.may_double(1)  # post-Crawford: the trailer doubles
    assert not m.may_double(0)  # the leader's cube is dead: 1 point wins the match already
    m.double(1)
    m.take(0)
    m.finish(1, 1)  # 2 points
    assert m.score == [4, 3] and not m.crawford and not m.over()
    m.next_game()
    m.finish(0, 3)  # a backgammon when one point was needed: points past 5 count as played
    assert m.over() and m.match_winner() == 0 and m.score == [7, 3]
    assert refused(m, m.next_game)


def test_a_player_reaching_match_point_in_the_crawford_game_ends_crawford_for_good():
    m = Match(3)
    m.finish(1, 2)
    assert m.crawford and m.score == [0, 2]
    m.next_game()
    m.finish(0, 2)  # both at 2 now: no second Crawford game
    assert m.score == [2, 2] and not m.crawford and m.post_crawford
    m.next_game()
    assert not m.crawford and not m.may_double(0)  # 2 + 1 wins: dead cube both ways
    m.finish(0, 1)
    assert m.over() and m.match_winner() == 0


def test_no_doubling_with_the_cube_off_and_bad_lengths():
    m = Match(0, False)
    assert not m.may_double(0) and refused(m, m.double, 0)
    assert raises(Match, 26) and raises(Match, -1) and raises(Match, "5")
    assert Match(1).length == 1 and not Match(1).crawford


def test_match_ids_round_trip_and_match_gnubgs_examples():
    # Match IDs gnubg wrote for these states (tests/test_match_gnubg.py checks thousands more)
    m = Match(5)
    assert encode(m.id_fields(1, (2, 1))) == "cAmlAAAAAAAE"  # the opening, player 1 on roll
    m.resign(0, 2)
    assert encode(m.id_fields(0)) == "MEmgAAAAAAAE"  # a gammon offered
    m.reject(1)
    m.double(0)
    assert encode(m.id_fields(0)) == "MBmgAAAAAAAE"
    m.drop(1)
    assert encode(m.id_fields(0)) == "MAygABAAAAAE"  # dropped: 1-0
    for text in ("cAmlAAAAAAAE", "MEmgAAAAAAAE", "MAygABAAAAAE", "MCumAAAAKAAE"):
        assert encode(decode(text)) == text
    assert raises(decode, "short") and raises(decode, "////////////") and raises(decode, 7)


def test_a_rejected_resignation_is_offered_again_only_higher_until_play_goes_on():
    m = Match(0)
    m.resign(0, 2)
    m.reject(1)
    assert refused(m, m.resign, 0, 2) and refused(m, m.resign, 0, 1)
    m.resign(0, 3)  # more is always allowed
    m.reject(1)
    assert refused(m, m.resign, 0, 3)
    m.went_on()  # a roll or a move (the game says so)
    m.resign(0, 1)
    m.accept(1)
    assert m.points == 1 and m.ended == RESIGNED
