# Move notation both ways: format_play, parse_steps, find_play (MicroPython too).
#
# The notation and result IDs of each play were read from GNU Backgammon's `hint` on the
# same boards (tests/gen_oracle.py shows how); the mover is still on roll in each result.
from gammon import Position, legal_plays
from gammon.notation import find_play, format_play, parse_steps
from positions import pos, raises

# name -> (me, opp) of the position the cases of that name start from; None: the start
POSITIONS = {
    "start": None,
    "bar": ({25: 1, 6: 5, 8: 3, 13: 6}, {3: 1, 6: 5, 8: 3, 13: 6}),
    "lastoff": ({6: 1}, {13: 15}),
    "off": ({6: 2, 4: 1}, {22: 2, 13: 13}),
    "twice": ({8: 2, 1: 13}, {23: 2, 13: 13}),
    "hop": ({6: 2, 8: 3, 13: 5, 24: 5}, {23: 1, 6: 5, 8: 5, 13: 4}),
    "via7": ({13: 2, 6: 5, 8: 3, 24: 5}, {18: 1, 16: 2, 6: 5, 8: 3, 13: 4}),
}
# (position name, dice, notation, result id)
CASES = (
    ("start", (6, 2), "24/18 13/11", "4HPwATDgc+RBIA"),
    ("start", (6, 2), "13/5", "4HPwATDQ5+ABMA"),
    ("bar", (3, 5), "bar/22* 13/8", "4HPwA0Dg8+ADCA"),
    ("bar", (3, 5), "bar/20 6/3", "xOfgBwDEc/ADAg"),
    ("lastoff", (6, 5), "6/off", "APD/BwAAAAAAAA"),
    ("off", (6, 3), "6/off 4/1", "APD/AQxBAAAAAA"),
    ("off", (6, 2), "6/4 6/off", "APD/AQwYAAAAAA"),
    ("twice", (3, 3), "8/5(2)", "APD/ARj/HwYAAA"),
    ("hop", (4, 1), "6/2*/1", "4PPBA0BBDj4APg"),
    ("hop", (4, 1), "6/1", "4PPBAxBBDj4APg"),
    ("hop", (4, 1), "6/5 6/2*", "4PPBA0AiDj4APg"),
    ("via7", (6, 2), "13/7*/5", "4HPwGEDQ5yAAPg"),
    ("via7", (6, 2), "13/5", "4HPwmADQ5yAAPg"),
    ("via7", (6, 2), "13/11 13/7*", "4HPwGEDg6wgAPg"),
)


def position_of(case):
    sides = POSITIONS[case[0]]
    return Position.start() if sides is None else pos(*sides)


def test_format_play():
    assert format_play(((24, 18, False), (13, 11, False))) == "24/18 13/11"
    assert format_play(((13, 11, False), (24, 18, False))) == "24/18 13/11"
    assert format_play(((25, 22, True),)) == "bar/22*"
    assert format_play(((6, 0, False),)) == "6/off"
    assert format_play(((8, 5, False), (8, 5, False))) == "8/5(2)"
    assert format_play(((6, 2, True), (2, 1, False))) == "6/2*/1"
    assert format_play(((13, 7, True), (7, 5, False))) == "13/7*/5"
    assert format_play(((13, 11, False), (11, 5, False))) == "13/5"
    assert format_play(((24, 23, False),) * 4) == "24/23(4)"
    assert format_play(((25, 20, False), (25, 20, False), (6, 1, False))) == "bar/20(2) 6/1"


def test_parse_steps():
    assert parse_steps("24/18 13/11") == [(24, 18), (13, 11)]
    assert parse_steps("bar/22*") == [(25, 22)]
    assert parse_steps("6/off") == [(6, 0)]
    assert parse_steps("8/5(2)") == [(8, 5), (8, 5)]
    assert parse_steps("6/2*/1") == [(6, 2), (2, 1)]
    assert parse_steps("13/7*/5") == [(13, 7), (7, 5)]
    assert parse_steps("25/22 6/0") == [(25, 22), (6, 0)]
    assert parse_steps("Bar/20(2) 6/OFF") == [(25, 20), (25, 20), (6, 0)]


def test_find_play():
    for case in CASES:
        p = position_of(case)
        play = find_play(p, case[1], case[2])
        assert play.result.position_id() == case[3], case
        assert str(play) == case[2], (case, str(play))
        # the text the engine writes names the same play again
        assert find_play(p, case[1], str(play)).result == play.result


def test_every_play_round_trips():
    for case in CASES:
        p = position_of(case)
        plays = legal_plays(p, case[1])
        for play in plays:
            again = find_play(p, case[1], str(play))
            assert again.result == play.result, (case[0], str(play))
            assert format_play(play.steps) == str(play)


def test_bad_notation():
    bad = (
        "",
        "   ",
        "24-18",
        "24",
        "24/",
        "/18",
        "x/1",
        "24/18/",
        "6/7",
        "24/25",
        "off/3",
        "bar/bar",
        "8/5(0)",
        "8/5(5)",
        "8/5(x)",
        "24/18*/",
        "26/20",
        "6/-1",
        "24/23 24/23 24/23 24/23 24/23",
        "13/off*",
    )
    for text in bad:
        assert raises(parse_steps, text), text
    assert raises(parse_steps, None)


def test_find_play_rejects():
    p = Position.start()
    for text in ("24/18 24/18", "24/17", "13/11 13/11", "6/off", "8/2 6/4 6/2", "24/18 13/1"):
        assert raises(find_play, p, (6, 2), text), text
    assert raises(find_play, p, (6, 2), "24/18 13/10")
    assert raises(find_play, p, (7, 2), "24/18 13/11")  # bad dice
    assert raises(find_play, p, (6, 2), "24-18")
    bar = pos({25: 1, 6: 5, 8: 3, 13: 6}, {3: 1, 6: 5, 8: 3, 13: 6})
    assert raises(find_play, bar, (3, 5), "13/10 13/8")  # the bar checker must enter first


def test_a_hit_mark_where_nothing_is_hit_names_no_play():
    """A mark `*` where nothing is hit is an illegal play; a missing mark is fine."""
    from gammon.notation import check_marks

    p = Position.start()
    for text in ("24/20*", "24/23*/20", "24/21*/20", "24/21* 6/5", "8/5* 6/5", "8/5 6/5*"):
        assert raises(find_play, p, (3, 1), text), text
    assert str(find_play(p, (3, 1), "24/20")) == "24/20"
    assert str(find_play(p, (3, 1), "8/5 6/5")) == "8/5 6/5"
    # a blot on 23 (the opponent's point 2): the marked and the unmarked play differ
    blot = pos({24: 2, 13: 5, 8: 3, 6: 5}, {2: 1, 6: 4, 8: 3, 13: 5, 24: 2})
    hit = find_play(blot, (3, 1), "24/23*/20")
    assert str(hit) == "24/23*/20" and [s[2] for s in hit.steps] == [True, False]
    assert str(find_play(blot, (3, 1), "24/21/20")) == "24/20"  # the play without the hit
    assert raises(find_play, blot, (3, 1), "24/21*/20")
    assert raises(find_play, blot, (3, 1), "24/23/20*")
    # single steps, as made
    check_marks("24/23*", [(24, 23, True)])
    check_marks("24/23", [(24, 23, True)])  # a missing mark is fine
    assert raises(check_marks, "24/23*", [(24, 23, False)])
    assert raises(check_marks, "24/23*/20", [(24, 23, False), (23, 20, True)])
    # a point is hit once a turn at most: "8/5*(2)" marks one hit
    two = pos({8: 4, 6: 5, 13: 6}, {20: 1, 6: 5, 8: 3, 13: 6})
    play = find_play(two, (3, 3), "8/5*(2) 6/3(2)")
    assert str(play) == "8/5*(2) 6/3(2)" and sum(1 for s in play.steps if s[2]) == 1
    check_marks("8/5*(2) 6/3(2)", play.steps)
    for p in legal_plays(two, (3, 3)):  # every listed play names itself, marks and all
        assert find_play(two, (3, 3), str(p)).steps == p.steps, str(p)
        check_marks(str(p), p.steps)
