# control/cube_actions.py: every cube action and resignation at the right and the wrong moment.
import gc

import fakes
from control.cube_actions import act
from model.game import DONE, MOVE, OPENING, OVER


def _game(length=0, cube=True, players=None):
    """A controller whose new game has the terms set, player 0's opening play made (DONE)."""
    ctl, rec = fakes.make(keep=12)
    ctl.configure("match_length", length, 0)
    ctl.configure("cube", cube, 0)
    if players:
        ctl.configure("players", players, 0)
    ctl.new_game(1)
    _opening(ctl)
    return ctl, rec


def _opening(ctl):
    assert ctl.roll(2, (3, 1))[0]
    assert ctl.move("8/5 6/5", 3)[0] and ctl.game.phase == DONE and ctl.game.turn == 0


def _refused(ctl, kind, code, value=None, by_board=False):
    """`kind` is refused with `code`, and nothing changed: not the game, its save, events."""
    g = ctl.game
    text = g.save_text()
    writes = ctl.store.writes
    mp = g.mp
    ok, e = act(ctl, kind, 9, value, by_board)
    assert not ok and e["code"] == code, (kind, e)
    assert g.save_text() == text and ctl.store.writes == writes and g.mp is mp


def _last(rec, kind):
    return rec.of(kind)[-1]


def test_double_and_take_change_the_cube_and_are_saved():
    ctl, rec = _game()
    g = ctl.game
    assert g.may_double  # player 1, instead of rolling
    ok, out = act(ctl, "double", 5)
    assert ok and out == {"by": 1, "cube": 2}
    assert _last(rec, "double") == {"event": "double", "by": 1, "cube": 2}
    assert _last(rec, "turn") == {"event": "turn", "player": 1}  # passed, as ROLL does
    assert g.turn == 1 and g.match.offer and g.cube == 1 and not g.may_double
    _refused(ctl, "double", "wrong_phase")
    _refused(ctl, "resign", "wrong_phase", 1)
    _refused(ctl, "accept", "wrong_phase")
    _refused(ctl, "reject", "wrong_phase")
    writes = ctl.store.writes
    ok, out = act(ctl, "take", 6)
    assert ok and out == {"by": 0, "cube": 2} and ctl.store.writes == writes + 1
    assert _last(rec, "take") == {"event": "take", "by": 0, "cube": 2}
    assert g.cube == 2 and g.cube_owner == 0 and not g.match.offer
    _refused(ctl, "take", "wrong_phase")
    _refused(ctl, "drop", "wrong_phase")
    _refused(ctl, "double", "illegal")  # the cube is player 0's now
    root = ctl.store.root
    ctl = g = rec = None
    gc.collect()
    ctl, _ = fakes.make(root)  # a power cut: the cube resumes where it was
    assert ctl.game.cube == 2 and ctl.game.cube_owner == 0 and ctl.game.turn == 1
    fakes.done(ctl)


def test_a_drop_ends_the_game_for_the_doubler():
    ctl, rec = _game()
    g = ctl.game
    assert act(ctl, "double", 5)[0]
    ok, out = act(ctl, "drop", 6)
    assert ok and out == {"by": 0, "winner": 1, "points": 1}
    assert _last(rec, "drop") == {"event": "drop", "by": 0, "winner": 1, "points": 1}
    assert g.phase == OVER and g.winner == 1 and g.score == [0, 1]
    assert rec.of("over")
    for kind in ("double", "take", "drop", "accept", "reject"):
        _refused(ctl, kind, "wrong_phase")
    _refused(ctl, "resign", "wrong_phase", 1)
    fakes.done(ctl)


def test_wrong_moments():
    ctl, rec = fakes.make(keep=8)
    ctl.configure("cube", True, 0)
    ctl.new_game(1)
    assert ctl.game.phase == OPENING
    _refused(ctl, "double", "wrong_phase")
    _refused(ctl, "resign", "wrong_phase", 1)
    _refused(ctl, "take", "wrong_phase")
    _refused(ctl, "accept", "wrong_phase")
    _opening(ctl)
    assert ctl.roll(4, (6, 4))[0] and ctl.game.phase == MOVE
    _refused(ctl, "double", "wrong_phase")  # the dice are thrown
    _refused(ctl, "drop", "wrong_phase")
    _refused(ctl, "reject", "wrong_phase")
    _refused(ctl, "cube", "bad_args")
    for bad in (0, 4, True, "1", None):
        _refused(ctl, "resign", "bad_args", bad)
    fakes.done(ctl)


def test_cube_off_refuses_a_double_without_the_match_code():
    ctl, rec = _game(cube=False)
    assert ctl.game.mp is None and not ctl.game.may_double
    _refused(ctl, "double", "illegal")
    assert ctl.game.mp is None
    fakes.done(ctl)


def test_resign_reject_then_only_more_then_accept():
    ctl, rec = _game()
    g = ctl.game
    assert ctl.roll(4, (6, 4))[0] and g.turn == 1
    ok, out = act(ctl, "resign", 5, 2)
    assert ok and out == {"by": 1, "value": 2}
    assert _last(rec, "resign") == {"event": "resign", "by": 1, "value": 2}
    _refused(ctl, "take", "wrong_phase")
    _refused(ctl, "resign", "wrong_phase", 3)
    ok, out = act(ctl, "reject", 6)
    assert ok and out == {"by": 0} and _last(rec, "reject") == {"event": "reject", "by": 0}
    _refused(ctl, "resign", "illegal", 2)  # rejected: only more until play goes on
    _refused(ctl, "resign", "illegal", 1)
    assert act(ctl, "resign", 7, 3)[0]
    ok, out = act(ctl, "accept", 8)
    assert ok and out == {"by": 0, "winner": 0, "points": 3}
    assert _last(rec, "accept") == {"event": "accept", "by": 0, "winner": 0, "points": 3}
    assert g.phase == OVER and g.winner == 0 and g.score == [3, 0]
    fakes.done(ctl)


def _drop_game(ctl):
    """Player 1 doubles after the opening play, player 0 drops: player 1 scores the cube."""
    _opening(ctl)
    assert act(ctl, "double", 5)[0] and act(ctl, "drop", 6)[0]


def test_crawford_and_a_dead_cube():
    ctl, rec = _game(length=3)
    g = ctl.game
    assert act(ctl, "double", 5)[0] and act(ctl, "drop", 6)[0]
    assert g.score == [0, 1] and not g.crawford
    ctl.new_game(7)
    _drop_game(ctl)
    assert g.score == [0, 2]
    ctl.new_game(8)
    assert g.crawford
    _opening(ctl)
    assert not g.may_double
    _refused(ctl, "double", "illegal")  # the Crawford game
    assert ctl.roll(9, (6, 4))[0]
    assert act(ctl, "resign", 10, 1)[0] and act(ctl, "accept", 11)[0]
    assert g.score == [1, 2] and not g.match_over
    ctl.new_game(12)
    assert not g.crawford
    _opening(ctl)
    _refused(ctl, "double", "illegal")  # player 1's cube is dead: 2 + 1 wins the match
    assert ctl.roll(13, (6, 4))[0] and ctl.move("24/14", 14)[0]
    assert g.may_double and act(ctl, "double", 15)[0]  # player 0 (1 + 1 < 3) may
    assert act(ctl, "drop", 16)[0] and g.score == [2, 2] and not g.match_over
    ctl.new_game(17)
    _opening(ctl)
    _refused(ctl, "double", "illegal")  # both cubes dead at 2-2 of 3
    assert ctl.roll(18, (6, 4))[0]
    assert act(ctl, "resign", 19, 1)[0] and act(ctl, "accept", 20)[0]
    assert g.match_over and g.match_winner == 0 and g.score == [3, 2]
    _refused(ctl, "resign", "wrong_phase", 1)
    ctl.new_game(21)  # a new match
    assert g.score == [0, 0] and not g.match_over and g.phase == OPENING
    fakes.done(ctl)


def test_the_board_decides_for_its_side_only():
    gc.collect()  # its player's weights and buffers: ~33 KB on this port
    ctl, rec = _game(players=["human", "board"])
    assert ctl.by_board(1) and not ctl.by_board(0)
    _refused(ctl, "double", "wrong_phase")  # player 1's decision: the board's
    ok, out = act(ctl, "double", 5, None, True)
    assert ok and out == {"by": 1, "cube": 2}
    _refused(ctl, "take", "wrong_phase", None, True)  # player 0's: a person's
    assert act(ctl, "take", 6)[0] and ctl.game.cube_owner == 0
    fakes.done(ctl)
