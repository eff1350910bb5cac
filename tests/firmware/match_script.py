# Test helpers: a match to points set and played with the board's buttons alone, in either
# layout, its cube decisions taken from the game's state only (so a board resumed after a
# power cut takes the same ones): in game 1 a double taken and a redouble dropped, in game 2
# (Crawford) a gammon resignation rejected and a single one accepted, in any later game a
# double taken and the game played out.
import fakes
from display.view import (
    ASK_ACCEPT,
    ASK_DROP,
    ASK_OFFER,
    ASK_TAKE,
    OFFER_DOUBLE,
    OFFER_RESIGN,
    button_of_target,
    target_of,
)
from model.game import DONE, MOVE, OVER

ANSWERS = (ASK_TAKE, ASK_DROP, ASK_ACCEPT)


def yes(ctl):
    return "DOUBLE" if ctl.layout == "full" else "SELECT"


def open_page(ctl, now):
    """DOUBLE (full layout) or MENU (minimal: LEFT and RIGHT held together)."""
    ctl.press("DOUBLE" if ctl.layout == "full" else "MENU", now)
    assert ctl.view.ask == ASK_OFFER, (ctl.view.ask, ctl.game.phase)


def set_match(ctl, length, now, cube=True):
    """MENU to the match's items, their values stepped with ROLL, then a new game."""
    ctl.press("MENU", now)
    while ctl.menu_item < 7:  # the items before "match"
        ctl.press("MENU", now)
    while ctl.settings.match_length != length:
        ctl.press("ROLL", now)
    ctl.press("MENU", now)  # cube
    if ctl.settings.cube != cube:
        ctl.press("ROLL", now)
    ctl.press("MENU", now)  # jacoby
    ctl.press("MENU", now)  # closed
    assert ctl.menu_item == -1
    ctl.press("MENU", now)  # "new": a new game, with the new terms
    ctl.press("ROLL", now)
    assert ctl.menu_item == -1 and ctl.game.match_length == length


def plan(g):
    """What the script offers now: None, "double" or a resignation's value (state only)."""
    if g.mp is None or g.phase not in (DONE, MOVE):
        return None
    m = g.mp.match
    n = len(g.codes)
    acts = len(g.mp.acts)
    if g.phase == DONE:
        if not g.may_double:
            return None
        if m.game_number == 1 and (n >= 3 and acts == 0 or n >= 8 and acts == 2):
            return "double"
        if m.game_number >= 3 and n >= 2 and acts == 0:
            return "double"
        return None
    if m.game_number == 2 and not g.steps():
        if n >= 3 and acts == 0:
            return 2
        if n >= 5 and acts == 2:
            return 1
    return None


def offer(ctl, what, now):
    """The offer with its presses: the page, then DOUBLE/SELECT or the point (full)."""
    v = ctl.view
    open_page(ctl, now)
    by = v.ask_of
    if what == "double":
        assert v.shown_kind == OFFER_DOUBLE
        ctl.press(yes(ctl), now)
    elif ctl.layout == "full":
        ctl.press(button_of_target(target_of(by, what)), now)
    else:
        for _ in range(4):
            if v.shown_kind == OFFER_RESIGN and v.shown_value == what:
                break
            ctl.press("RIGHT", now)
        ctl.press("SELECT", now)
    assert ctl.offer_waiting() and v.ask_of == 1 - by, (what, v.ask, v.ask_of)


def answer(ctl, now):
    """Takes a double of 2, drops a larger one (UNDO twice); accepts a single game's
    resignation, rejects a larger one."""
    v = ctl.view
    if v.ask == ASK_ACCEPT:
        ctl.press(yes(ctl) if v.offer_value == 1 else "UNDO", now)
    elif v.offer_value == 2 or v.ask == ASK_DROP:  # a drop asked once: taken or dropped
        ctl.press(yes(ctl) if v.offer_value == 2 else "UNDO", now)
    else:
        ctl.press("UNDO", now)
        assert v.ask == ASK_DROP
        ctl.press("UNDO", now)
    assert not ctl.offer_waiting()


def play_match(ctl, now=1000, enter=fakes.enter_script, limit=30000):
    """Plays the match to its end with buttons alone; returns the time reached."""
    g = ctl.game
    for _ in range(limit):
        now += 7
        if g.phase == OVER:
            if g.match_over:
                return now
            ctl.press("ROLL", now)  # the next game of the match
        elif ctl.view.ask in ANSWERS:
            answer(ctl, now)
        elif ctl.throw.entry:
            enter(ctl, now)
        else:
            what = plan(g)
            if what:
                offer(ctl, what, now)
            elif g.phase == MOVE:
                fakes.play_step(ctl, now)
            else:
                ctl.press("ROLL", now)
    raise AssertionError("the match did not end")
