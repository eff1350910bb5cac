# The board's cube and resignation decisions in real positions with its own network
# (gammon/cube_play.py); test_autoplay_cube_game.py has them through the controller.
from control.loader import weights_path
from gammon import Position
from gammon import cube as cb
from gammon.cube_play import advice, answer, decide
from gammon.match import Match
from gammon.opponent import shared


def _net():
    return shared(weights_path()).net


def _side(points):
    """25 counts from {point: checkers} (25 the bar)."""
    s = [0] * 25
    for pt, n in points.items():
        s[pt - 1] = n
    return s


# the player on roll is far behind in a race: 15 checkers on its 13 point against an
# opponent about to bear off its last two
LOST_GAMMON = Position(_side({13: 15}), _side({1: 2}))
# the same race, a checker borne off already: it loses a single, surely
LOST_SINGLE = Position(_side({6: 14}), _side({1: 2}))
# the player on roll has closed its board on two checkers and is far ahead
CRUSHING = Position(_side({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 3, 8: 2}),
                    _side({25: 2, 14: 3, 12: 5, 13: 5}))


def test_the_start_is_no_double_and_a_take():
    net = _net()
    for m in (Match(0, True, True), Match(7, True, False)):
        assert decide(net, Position.start(), m, 0) is None
        m.double(0)
        assert answer(net, Position.start(), m, 0) == "take"


def test_a_crushing_position_is_doubled_and_dropped_or_played_on():
    net = _net()
    m = Match(0, True, False)  # money without the Jacoby rule: gammons count
    what = decide(net, CRUSHING, m, 0)
    a = advice(net, CRUSHING, m, 0)
    assert a["action"] in ("double", "too good") and a["units"] == "equity"
    assert what == ("double" if a["action"] == "double" else None)
    assert a["double_pass"] == 1000 and a["win"] > 800
    m.double(0)
    assert answer(net, CRUSHING, m, 0) == "drop"
    assert advice(net, CRUSHING, m, 0)["action"] == "drop"


def test_no_double_in_the_crawford_game_nor_with_the_opponents_cube():
    net = _net()
    m = Match(5, True, False)
    m.resume([2, 4], True, False, 3)  # the Crawford game: the leader 1 away
    assert m.crawford
    assert decide(net, CRUSHING, m, 0) is None
    assert advice(net, CRUSHING, m, 0)["action"] == "no double"
    m = Match(0, True, True)
    m.resume([0, 0], False, False, 1, 2, 1)  # player 1 owns the cube at 2
    assert decide(net, CRUSHING, m, 0) is None


def test_resigns_a_lost_race_and_its_answers():
    net = _net()
    m = Match(0, True, False)
    assert decide(net, LOST_GAMMON, m, 0) == ("resign", 2)
    assert decide(net, LOST_SINGLE, m, 0) == ("resign", 1)
    jacoby = Match(0, True, True)  # centred cube: the gammon would count as one
    assert decide(net, LOST_GAMMON, jacoby, 0) == ("resign", 1)
    assert decide(net, Position.start(), m, 0) is None  # contact: never
    # offered to the board: a gammon it is sure to win is accepted, a single refused
    m.resign(0, 1)
    assert answer(net, LOST_GAMMON, m, 0) == "reject"
    m.reject(1)
    m.resign(0, 2)
    assert answer(net, LOST_GAMMON, m, 0) == "accept"
    # a rejected resignation is offered again only higher
    m = Match(0, True, False)
    m.resign(0, 1)
    m.reject(1)
    assert decide(net, LOST_SINGLE, m, 0) is None or decide(net, LOST_SINGLE, m, 0)[1] > 1


def test_the_easy_level_doubles_by_its_rule():
    # gammon/cube_easy.py: the strong level's rules with blunter margins, so in money play it
    # doubles only where strong does, in a match wherever strong does (and a little earlier);
    # it takes and drops as strong (tests/engine/test_cube_play_easy.py)
    net = _net()
    for m in (Match(0, True, True), Match(0, True, False), Match(7, True, False)):
        for pos in (CRUSHING, Position.start(), LOST_SINGLE):
            easy = decide(net, pos, m, 0, "easy") == "double"
            strong = decide(net, pos, m, 0) == "double"
            assert (strong or not easy) if m.length == 0 else (easy or not strong)
    m = Match(0, True, True)
    m.double(0)
    assert answer(net, CRUSHING, m, 0, "easy") == answer(net, CRUSHING, m, 0) == "drop"
    assert cb.P == 4096


def test_match_advice_is_in_winning_chances():
    net = _net()
    m = Match(7, True, False)
    m.resume([2, 3], False, False, 3)
    a = advice(net, Position.start(), m, 0)
    assert a["units"] == "mwc" and 0 < a["no_double"] < 1000
    assert a["action"] == "no double"

