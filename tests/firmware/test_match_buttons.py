# The cube and match play with the board's buttons alone (control/cube_page.py): whole
# matches in both layouts, the light patterns asked for, refusals, and a power cut after
# every single action of a match.
import gc

import fakes
import match_script
from cuts import reference, resume_every_save
from display.view import (
    ASK_ACCEPT,
    ASK_DROP,
    ASK_NONE,
    ASK_OFFER,
    ASK_TAKE,
    MENU,
    OFFER_DOUBLE,
    OFFER_RESIGN,
    TARGET_DICE,
    target_of,
)
from model.game import DONE, MOVE, OVER, ROLL


def whole_match(layout):
    gc.collect()
    ctl, rec = fakes.make(layout=layout, seed=5, keep=0)
    match_script.set_match(ctl, 3, 10)
    g = ctl.game
    assert g.mp is not None and g.mp.match.cube_on and ctl.view.match_length == 3
    match_script.play_match(ctl)
    rec.check()
    c = rec.counts
    assert c.get("double", 0) >= 2 and c.get("take", 0) >= 1 and c.get("drop") == 1, c
    assert c.get("resign") == 2 and c.get("reject") == 1 and c.get("accept") == 1, c
    w = g.match_winner
    assert g.match_over and g.score[w] >= 3 > g.score[1 - w]
    v = ctl.view
    assert v.match_over == 1 and v.winner == w and v.match_length == 3
    assert (v.score0, v.score1) == tuple(g.score)
    past = g.games  # model/past.py's Past: the games before this one (DROPPED 3, RESIGNED 2)
    assert past[0].how == 3 and not past[0].before[2]  # a drop, not the Crawford game
    if len(past) > 1:  # game 2, the Crawford game, resigned; game 3 played out
        assert past[1].how == 2 and past[1].before[2] and g.ended == "played"
    else:
        assert g.ended == "resigned" and g.mp.before[2]
    ctl.press("ROLL", 99999)  # the match over, ROLL starts a new one
    assert g.score == [0, 0] and g.phase == MOVE and not g.match_over
    fakes.done(ctl)


def test_a_three_point_match_with_the_full_layouts_buttons():
    whole_match("full")


def test_a_three_point_match_with_the_five_buttons():
    whole_match("minimal")


def money(layout="full", cube=True):
    """A money game with the cube on (MENU), the opening thrown: (ctl, rec)."""
    gc.collect()
    ctl, rec = fakes.make(layout=layout, seed=7, keep=8)
    match_script.set_match(ctl, 0, 10, cube)
    ctl.press("ROLL", 20)
    assert ctl.game.phase == MOVE
    return ctl, rec


def finish_play(ctl, now=30):
    while ctl.game.phase == MOVE:
        fakes.play_step(ctl, now)


def test_double_is_two_presses_the_page_shows_it_and_undo_closes_it():
    ctl, rec = money()
    g = ctl.game
    v = ctl.view
    finish_play(ctl)
    assert g.phase == DONE
    nxt = 1 - g.turn
    ctl.press("DOUBLE", 40)  # the page, for the next player: the cube of 2 shown
    assert (v.ask, v.ask_of, v.shown_kind, v.shown_value) == (ASK_OFFER, nxt, OFFER_DOUBLE, 2)
    assert v.movable == 0  # after the play the next player only doubles
    ctl.press("UNDO", 41)
    assert v.ask == ASK_NONE and not ctl.offer_waiting() and g.phase == DONE
    ctl.press("DOUBLE", 42)
    ctl.press("DOUBLE", 43)
    assert ctl.offer_waiting() and g.turn == nxt and g.phase == ROLL
    assert (v.ask, v.ask_of, v.offer, v.offer_value) == (ASK_TAKE, 1 - nxt, OFFER_DOUBLE, 2)
    assert rec.of("double") == [{"event": "double", "by": nxt, "cube": 2}]
    fakes.done(ctl)


def test_while_a_double_waits_other_presses_are_refused_and_the_menu_still_opens():
    ctl, rec = money()
    g = ctl.game
    v = ctl.view
    finish_play(ctl)
    ctl.press("DOUBLE", 40)
    ctl.press("DOUBLE", 41)
    for name in ("ROLL", "p6", "BAR"):
        ctl.press(name, 50)
        assert rec.of("error")[-1]["code"] == "wrong_phase" and ctl.offer_waiting()
    ctl.press("ROLL", 51)
    assert v.flash_target == TARGET_DICE and "answer the double" in rec.of("error")[-1]["message"]
    ctl.press("MENU", 52)
    assert v.phase == MENU
    for _ in range(10):
        ctl.press("MENU", 53)
    assert ctl.menu_item == -1 and v.ask == ASK_TAKE  # closed: the offer still waits
    ctl.press("UNDO", 54)  # drop? the answerer's row turns red
    assert v.ask == ASK_DROP and ctl.offer_waiting()
    ctl.press("p1", 55)  # anything but UNDO calls it off
    assert v.ask == ASK_TAKE and ctl.offer_waiting()
    ctl.press("UNDO", 56)
    ctl.press("DOUBLE", 57)  # YES after one NO still takes
    assert not ctl.offer_waiting() and g.cube == 2 and g.cube_owner == 1 - g.turn
    assert v.cube == 2 and v.cube_owner == g.cube_owner and v.ask == ASK_NONE
    rec.check()
    fakes.done(ctl)


def test_resignations_on_ones_turn_rejected_then_accepted_higher_only():
    ctl, rec = money(cube=False)
    g = ctl.game
    v = ctl.view
    me = g.turn
    ctl.press("DOUBLE", 30)  # no double without the cube: the resignations only
    assert v.ask == ASK_OFFER and v.shown_kind == 0
    glow = fakes.bits(v.movable)
    assert glow == sorted(target_of(me, k) for k in (1, 2, 3))
    ctl.press("p%d" % (target_of(me, 2) + 1), 31)  # own point 2: a gammon
    assert (v.ask, v.ask_of, v.offer, v.offer_value) == (ASK_ACCEPT, 1 - me, OFFER_RESIGN, 2)
    assert v.movable == 0 and v.selected == -1  # no checker moves while it waits
    ctl.press("UNDO", 32)  # rejected
    assert not ctl.offer_waiting() and g.phase == MOVE and rec.of("reject")
    ctl.press("DOUBLE", 33)  # only higher now, until play goes on
    assert fakes.bits(v.movable) == [target_of(me, 3)]
    ctl.press("p%d" % (target_of(me, 1) + 1), 34)
    assert rec.of("error")[-1]["code"] == "wrong_phase" and not ctl.offer_waiting()
    ctl.press("p%d" % (target_of(me, 3) + 1), 35)
    ctl.press("DOUBLE", 36)  # accepted: a backgammon
    assert g.phase == OVER and g.winner == 1 - me and g.result == 3
    assert rec.of("over")[-1]["points"] == 3
    rec.check()
    fakes.done(ctl)


def test_five_buttons_step_through_the_offers_and_select_one():
    ctl, rec = money("minimal")
    g = ctl.game
    v = ctl.view
    me = g.turn
    ctl.press("MENU", 30)  # on one's turn with the cube on: the cube page first
    assert v.ask == ASK_OFFER and v.phase != MENU
    shown = []
    for _ in range(3):
        shown.append((v.shown_kind, v.shown_value))
        ctl.press("RIGHT", 31)
    assert shown == [(OFFER_RESIGN, 1), (OFFER_RESIGN, 2), (OFFER_RESIGN, 3)]
    assert (v.shown_kind, v.shown_value) == (OFFER_RESIGN, 1)  # round again
    ctl.press("LEFT", 32)
    ctl.press("MENU", 33)  # MENU again: the settings menu, the page closed
    assert v.phase == MENU and v.ask == ASK_NONE
    for _ in range(10):
        ctl.press("MENU", 34)
    assert ctl.menu_item == -1 and v.ask == ASK_NONE
    ctl.press("MENU", 35)
    ctl.press("LEFT", 36)  # a backgammon
    ctl.press("SELECT", 37)
    assert (v.ask, v.ask_of, v.offer_value) == (ASK_ACCEPT, 1 - me, 3)
    ctl.press("SELECT", 38)
    assert g.phase == OVER and g.result == 3 and g.winner == 1 - me
    rec.check()
    fakes.done(ctl)


def test_a_plain_game_never_loads_the_cube_page():
    """Cubeless money play, the default: no Match, the page's code not loaded by play."""
    import sys

    sys.modules.pop("control.cube_page", None)  # other tests of this module load it
    gc.collect()
    ctl, rec = fakes.make(keep=0)
    fakes.play_game(ctl)
    assert ctl.game.mp is None and "control.cube_page" not in sys.modules
    fakes.done(ctl)


def test_power_cut_after_every_action_of_a_match_resumes_alike():
    """Every save of a whole match (dice entered from a script that depends on the record
    only) resumes exactly, an offer waiting included, and played on from there ends as the
    match that was not cut."""
    settings, snaps, count, final = reference(lambda c: match_script.set_match(c, 3, 10),
                                              match_script.play_match)
    assert count > 40
    offers = resume_every_save(settings, snaps, count, final, lambda k: True,
                               match_script.play_match, 0, lambda c: c.offer_waiting())
    assert offers >= 4  # the double, the redouble, two resignations (a double in game 3)


def test_five_buttons_resign_in_cubeless_money_play_with_menu_held():
    """Cubeless money play has no cube page on MENU (the settings come first): MENU held
    opens it, and a resignation is offered and accepted with SELECT."""
    ctl, rec = money("minimal", cube=False)
    g = ctl.game
    v = ctl.view
    me = g.turn
    ctl.press("MENU", 30)  # the settings menu, as ever
    assert ctl.menu_item == 0 and v.phase == MENU
    ctl.long_press("MENU", 830)  # held: the menu closes, the offers' page opens
    assert ctl.menu_item == -1 and v.ask == ASK_OFFER and v.ask_of == me
    assert (v.shown_kind, v.shown_value) == (OFFER_RESIGN, 1)
    ctl.press("RIGHT", 840)  # a gammon
    ctl.press("SELECT", 850)
    assert (v.ask, v.ask_of, v.offer, v.offer_value) == (ASK_ACCEPT, 1 - me, OFFER_RESIGN, 2)
    ctl.press("SELECT", 860)  # accepted
    assert g.phase == OVER and g.winner == 1 - me and g.result == 2
    assert rec.of("over")[-1]["points"] == 2
    ctl.press("MENU", 870)  # the game over: MENU held has nothing to offer, refused
    ctl.long_press("MENU", 1670)
    assert ctl.menu_item == -1 and v.ask == ASK_NONE
    assert rec.of("error")[-1]["code"] == "wrong_phase"
    rec.check()
    fakes.done(ctl)
