# Physical dice: entering the numbers thrown, with point buttons or LEFT/RIGHT and SELECT.
import gc

import fakes
from display.view import TARGET_DICE
from model.game import DONE, MOVE, OPENING, OVER, ROLL


def physical(layout):
    gc.collect()
    ctl, rec = fakes.make(layout=layout, keep=16)
    assert ctl.configure("physical_dice", True, 1)[0]
    return ctl, rec


def test_opening_entered_with_point_buttons():
    ctl, rec = physical("full")
    v = ctl.view
    ok, res = ctl.roll(10)  # as ROLL: the entry starts
    assert ok and res["entering"] and ctl.game.phase == OPENING
    assert v.entering == 0 and v.dice[0] == 0 and v.movable == 0x3F  # player 0's p1-p6
    ctl.press("p3", 20)
    assert v.entering == 1 and v.dice[0] == 3 and v.movable == 0xFC0000  # p19-p24
    assert rec.of("entry")[-1] == {"event": "entry", "player": 0, "die": 0, "value": 3}
    ctl.press("p24", 30)  # player 1's own 1-point
    g = ctl.game
    assert g.phase == MOVE and g.turn == 0 and g.dice == (3, 1) and v.entering == -1
    assert rec.of("roll")[-1] == {"event": "roll", "player": 0, "dice": [3, 1], "opening": True}
    fakes.done(ctl)


def test_opening_tie_is_entered_again():
    ctl, rec = physical("full")
    ctl.press("ROLL", 10)
    ctl.press("p2", 20)
    ctl.press("p23", 30)  # player 1's 2: a tie
    assert rec.of("error")[-1]["code"] == "illegal" and ctl.view.flash_target == TARGET_DICE
    assert ctl.throw.entry.values == [] and ctl.game.phase == OPENING and ctl.view.entering == 0
    ctl.press("p5", 40)
    ctl.press("p19", 50)  # 5 against 6: player 1 plays 5-6
    assert ctl.game.turn == 1 and ctl.game.dice == (5, 6)
    fakes.done(ctl)


def test_illegal_entry_presses_and_undo():
    ctl, rec = physical("full")
    v = ctl.view
    ctl.press("ROLL", 10)
    ctl.press("p10", 20)  # not one of player 0's points 1-6
    assert rec.of("error")[-1]["button"] == "p10" and v.flash_target == 9 and v.flash_until == 320
    ctl.press("ROLL", 30)
    assert rec.of("error")[-1]["button"] == "ROLL" and v.flash_target == TARGET_DICE
    ctl.press("SELECT", 35)  # no number chosen yet in the full layout
    assert rec.of("error")[-1]["button"] == "SELECT"
    ctl.press("p4", 40)
    ctl.press("UNDO", 50)  # takes the 4 back
    assert ctl.throw.entry.values == [] and v.dice[0] == 0
    ctl.press("UNDO", 60)  # leaves the entry
    assert ctl.throw.entry is None and ctl.game.phase == OPENING
    fakes.done(ctl)


def test_a_turn_entered_after_the_play():
    ctl, rec = physical("full")
    ctl.roll(10, (3, 1))  # remote dice go in directly in any mode
    for b in ("p8", "p5", "p6", "p5"):
        ctl.press(b, 20)
    assert ctl.game.phase == DONE
    ctl.press("ROLL", 30)  # passes the turn; player 1 enters with their points 1-6
    g = ctl.game
    assert g.phase == ROLL and g.turn == 1 and ctl.throw.entry and ctl.view.movable == 0xFC0000
    ctl.press("p20", 40)  # player 1's 5
    ctl.press("p20", 50)
    assert g.phase == MOVE and g.dice == (5, 5) and ctl.view.dice[1] == 5
    ok, err = ctl.roll(60, (2, 2))
    assert not ok and err["code"] == "wrong_phase"
    fakes.done(ctl)


def test_minimal_layout_left_right_select():
    ctl, rec = physical("minimal")
    v = ctl.view
    ctl.press("ROLL", 10)
    assert v.entering == 0 and v.dice[0] == 1 and v.cursor == -1
    ctl.press("LEFT", 20)  # 1 -> 6
    assert v.dice[0] == 6
    ctl.press("RIGHT", 30)
    ctl.press("RIGHT", 40)
    assert v.dice[0] == 2
    ctl.press("SELECT", 50)
    assert v.entering == 1 and v.dice[0] == 2 and v.dice[1] == 2
    ctl.press("SELECT", 60)  # 2-2 at the opening: again
    assert ctl.throw.entry.values == [] and rec.of("error")[-1]["code"] == "illegal"
    for b in ("RIGHT", "RIGHT", "RIGHT", "SELECT", "LEFT", "SELECT"):
        ctl.press(b, 70)
    assert ctl.game.dice == (4, 3) and ctl.game.turn == 0 and v.cursor >= 0
    fakes.done(ctl)


def test_remote_dice_checked():
    ctl, rec = fakes.make()
    assert ctl.roll(5, (2, 2))[1]["code"] == "illegal"  # the opening needs two numbers
    assert ctl.roll(5, (0, 3))[1]["code"] == "bad_args"
    assert ctl.roll(5, "66")[1]["code"] == "bad_args"
    assert ctl.game.phase == OPENING
    assert ctl.roll(5, [6, 2]) == (True, {"dice": [6, 2], "player": 0})
    fakes.done(ctl)


def test_whole_game_with_entered_dice():
    for layout in ("full", "minimal"):
        ctl, rec = physical(layout)
        rec.keep = 0
        rec.events = []
        fakes.play_game(ctl)
        rec.check()
        assert ctl.game.phase == OVER and rec.counts.get("error", 0) == 0
        assert rec.counts["entry"] >= 2 * rec.counts["roll"]
        fakes.done(ctl)
        ctl = rec = None
        gc.collect()
