# HINT on a person's cube decision (control/hint_cube.py): ROLL held on the cube page or while
# an offer waits (its press refused there) lights the board's advice in the decider's cube
# row, steady dots (green: act, red: do not) until the next press, as the LEDs show it; the
# `hint` request returns it with its equities; with no cube decision of a person's the errors
# stay and nothing is lit.
from hw.output import FakeStrip

STRIP = FakeStrip(452)  # first, as on the board (see test_renderer.py)

import gc  # noqa: E402

import fakes  # noqa: E402
from control import loader  # noqa: E402
from display.palette import E_CUBE, E_ERR, E_YES  # noqa: E402
from display.view import (  # noqa: E402
    ADVICE_ACCEPT,
    ADVICE_DOUBLE,
    ADVICE_DROP,
    ADVICE_NO_DOUBLE,
    ADVICE_REJECT,
    ADVICE_TAKE,
    ADVICE_TOO_GOOD,
    ASK_DROP,
)
from gammon import Position  # noqa: E402
from model.game import DONE, MOVE, OPENING, ROLL  # noqa: E402

# The renderer, the board's player and the cube's code are imported once the player is
# loaded (_game): its network is made while the heap is whole, as on the board.

DARK = (0, 0, 0)
# Races (no contact: the board's money decisions are Keith's count), player 0 on roll, each
# side's own points: far ahead (a double, dropped) and a little ahead (no double; taken)
AHEAD = ({1: 3, 2: 3, 3: 3, 4: 3, 5: 3}, {6: 5, 8: 5, 13: 5})
CLOSE = ({6: 5, 5: 4, 4: 3, 3: 2, 2: 1}, {6: 4, 5: 4, 4: 3, 3: 2, 2: 1, 8: 1})
# far behind, a gammon sure
GAMMONED = ({19: 5, 18: 5, 13: 5}, {1: 3, 2: 3, 3: 3, 4: 3, 5: 3})


def cube_advice(ctl):
    from control.autoplay import cube_advice as advice

    return advice(ctl)


def act(ctl, kind, now, value=None):
    from control.cube_actions import act as cube_act

    return cube_act(ctl, kind, now, value)


def hint(ctl, now):
    from control.hint import hint as one_go

    return one_go(ctl, now)


def _position(mine, theirs):
    a = [0] * 25
    b = [0] * 25
    for k, n in mine.items():
        a[k - 1] = n
    for k, n in theirs.items():
        b[k - 1] = n
    return Position(a, b)


def _game(layout="full", players=None, seed=1, jacoby=True):
    """A money game with the cube, the board's player loaded first (as the board does,
    while the heap is whole): (ctl, rec, renderer)."""
    gc.collect()
    loader.opponent()
    from display.renderer import Renderer
    from hw.boards import pico

    ctl, rec = fakes.make(layout=layout, seed=seed, keep=8)
    assert ctl.configure("cube", True)[0] and ctl.configure("jacoby", jacoby)[0]
    if players:
        assert ctl.configure("players", players)[0]
    ctl.new_game(0)
    return ctl, rec, Renderer(pico, STRIP, 0)


def _at(ctl, race, now, turn=0):
    """The race `race` (the player on roll's points, the other's) with `turn` to roll."""
    g = ctl.game
    g.setup(_position(*race), turn)
    ctl.changed(now)
    assert g.phase == ROLL and g.turn == turn


def _rows(r, ctl, name, steps=8):
    """Segment `name` as the strip shows it over `steps` steps of the animation clock."""
    from display.renderer import STEP_MS, segment_pixels
    from hw.boards import pico

    out = []
    for k in range(steps):
        r.render(ctl.view, k * STEP_MS)
        out.append([STRIP.rgb(i) for i in segment_pixels(pico, name)])
    return out


def _dots(r, e, between=None):
    c = r.colours.rgb(e)
    b = DARK if between is None else r.colours.rgb(between)
    return [c, b, c, b, c, b]


def _held(ctl, rec, now):
    """ROLL pressed (refused: a cube decision is asked) and held: the advice."""
    ctl.press("ROLL", now)
    assert rec.of("error")[-1]["code"] == "wrong_phase"
    ctl.long_press("ROLL", now + 800)
    return now + 800


def test_the_advice_words_are_the_views_codes():
    from control.hint_cube import ACTIONS

    words = ("double", "no double", "too good", "take", "drop", "accept", "reject")
    codes = (ADVICE_DOUBLE, ADVICE_NO_DOUBLE, ADVICE_TOO_GOOD, ADVICE_TAKE, ADVICE_DROP,
             ADVICE_ACCEPT, ADVICE_REJECT)
    for w, c in zip(words, codes):  # noqa: B905 (MicroPython has no strict=)
        assert ACTIONS.index(w) + 1 == c


def test_roll_held_on_the_cube_page_lights_the_advice_to_double():
    """Before the throw: the page opened (DOUBLE, or MENU with five buttons), ROLL held lights
    green dots in the person's own row, steady while the page's offer blinks in the other;
    the next press ends it. ROLL with the page closed throws, as ever: no hint."""
    for layout, page in (("full", "DOUBLE"), ("minimal", "MENU")):
        ctl, rec, r = _game(layout)
        v = ctl.view
        _at(ctl, AHEAD, 100)
        ctl.press(page, 110)
        assert ctl.page is not None and ctl.menu_item == -1
        now = _held(ctl, rec, 120)
        a = cube_advice(ctl)
        assert a["kind"] == "double" and a["action"] == "double" and a["player"] == 0
        assert ctl.hinting is not None or ctl.hint is not None
        ctl.tick(now + 1)
        assert ctl.hinting is None and (v.advice, v.advice_of) == (ADVICE_DOUBLE, 0)
        assert ctl.page is not None  # the page stays open: DOUBLE (SELECT) doubles
        assert all(row == _dots(r, E_YES) for row in _rows(r, ctl, "cube0"))  # steady
        other = _rows(r, ctl, "cube1")
        assert [r.colours.rgb(E_CUBE)] + [DARK] * 5 in other and [DARK] * 6 in other
        ctl.press("UNDO", now + 10)  # the page closes; the advice goes with the press
        assert ctl.hint is None and v.advice == 0 and ctl.page is None
        assert _rows(r, ctl, "cube0", 1)[0] == [r.colours.rgb(E_CUBE)] + [DARK] * 5
        ctl.press("ROLL", now + 20)  # throws
        ctl.long_press("ROLL", now + 820)
        assert ctl.game.phase == MOVE and ctl.hint is None and ctl.hinting is None
        rec.check()
        fakes.done(ctl)


def test_the_hint_request_says_the_advice_with_its_equities_and_lights_it():
    ctl, rec, r = _game()
    v = ctl.view
    _at(ctl, CLOSE, 100)
    ok, out = hint(ctl, 110)  # no page needed: the request asks for it
    a = cube_advice(ctl)
    assert ok and out == {"cube": a} and a["action"] == "no double"
    assert a["units"] == "equity" and a["double_pass"] == 1000
    assert -3000 <= a["no_double"] <= 3000 and -6000 <= a["double_take"] <= 6000
    assert (v.advice, v.advice_of) == (ADVICE_NO_DOUBLE, 0)
    assert _rows(r, ctl, "cube0", 1)[0] == _dots(r, E_ERR)
    ctl.press("p6", 120)  # any press ends it (refused here: no dice)
    assert v.advice == 0
    fakes.done(ctl)


def test_a_double_offered_to_a_person_lights_take_or_drop_in_their_row():
    """The answerer's row shows the advice steady over the offer's blinking bar while their
    turn LED still blinks the question; the first NO (drop?) ends it."""
    for race, action, code in ((AHEAD, "drop", ADVICE_DROP), (CLOSE, "take", ADVICE_TAKE)):
        ctl, rec, r = _game()
        v = ctl.view
        _at(ctl, race, 100)
        assert act(ctl, "double", 110)[0] and ctl.offered_to() == 1
        now = _held(ctl, rec, 120)
        a = cube_advice(ctl)
        assert a["kind"] == "take" and a["player"] == 1 and a["action"] == action
        assert (v.advice, v.advice_of) == (code, 1)
        rows = _rows(r, ctl, "cube1")  # (the colours are the renderer's once it drew)
        assert all(row == _dots(r, E_YES if action == "take" else E_ERR) for row in rows)
        turn = [row[0] for row in _rows(r, ctl, "turn1")]
        assert DARK in turn and [c for c in turn if c != DARK]  # the question still blinks
        assert hint(ctl, now)[1] == {"cube": a}  # the request: the same advice
        ctl.press("UNDO", now + 10)  # drop?
        assert v.advice == 0 and v.ask == ASK_DROP
        assert _rows(r, ctl, "cube1", 1)[0] == [r.colours.rgb(E_ERR)] * 6
        rec.check()
        fakes.done(ctl)


def test_a_resignation_offered_to_a_person_lights_accept_or_reject():
    """A single game resigned: taken with the Jacoby rule (gammons do not count before a
    double), refused without it when a gammon is sure."""
    for race, jacoby, action, code in (((AHEAD[1], AHEAD[0]), True, "accept", ADVICE_ACCEPT),
                                       (GAMMONED, False, "reject", ADVICE_REJECT)):
        ctl, rec, r = _game(jacoby=jacoby)
        v = ctl.view
        _at(ctl, race, 100)
        assert act(ctl, "resign", 110, 1)[0] and ctl.offered_to() == 1
        _held(ctl, rec, 120)
        a = cube_advice(ctl)
        assert a["kind"] == "accept" and a["player"] == 1 and a["action"] == action
        assert (v.advice, v.advice_of) == (code, 1)
        rows = _rows(r, ctl, "cube1", 2)
        want = _dots(r, E_YES if action == "accept" else E_ERR)
        assert rows == [want, want]
        fakes.done(ctl)


def test_no_cube_decision_of_a_persons_keeps_the_errors_and_lights_nothing():
    ctl, rec, r = _game(players=["human", "board"])
    g = ctl.game
    v = ctl.view

    def refused(code="wrong_phase"):
        ok, e = hint(ctl, 50)
        assert not ok and e["code"] == code, e
        assert ctl.hint is None and v.advice == 0

    assert g.phase == OPENING
    refused()  # the opening throw: no cube decision
    _at(ctl, CLOSE, 100)
    ctl.press("DOUBLE", 110)
    ctl.press("DOUBLE", 120)  # the person doubles: the board is to answer
    assert ctl.offered_to() == 1 and ctl.busy()
    ctl.press("ROLL", 130)
    ctl.long_press("ROLL", 930)  # the board's decision: nothing
    assert ctl.hint is None and ctl.hinting is None and v.advice == 0
    refused()
    fakes.done(ctl)
    ctl, rec, r = _game()
    v = ctl.view
    _at(ctl, CLOSE, 100)
    assert act(ctl, "double", 110)[0] and act(ctl, "take", 120)[0]
    _at(ctl, CLOSE, 130, 0)  # the cube is player 1's: player 0 cannot double
    refused()
    _at(ctl, CLOSE, 140, 1)
    assert act(ctl, "double", 150)[0]  # player 1 redoubles: an offer waits
    ctl.press("MENU", 160)
    assert ctl.menu_item >= 0
    refused()  # the menu is open
    fakes.done(ctl)
    ctl, rec, r = _game()
    assert ctl.configure("cube", False)[0]
    ctl.new_game(0)
    _at(ctl, CLOSE, 100)  # cubeless money play: no cube at all
    refused()
    fakes.done(ctl)


def test_a_change_of_the_game_takes_the_advice_away():
    ctl, rec, r = _game()
    v = ctl.view
    _at(ctl, AHEAD, 100)
    assert hint(ctl, 110)[0] and v.advice == ADVICE_DOUBLE
    assert act(ctl, "double", 120)[0]  # the protocol's double: the question is another
    assert ctl.hint is None and v.advice == 0
    fakes.done(ctl)


def test_once_a_play_is_complete_the_next_player_asks_before_doubling():
    """DOUBLE instead of ROLL: the next player's page, ROLL held there is their advice, lit
    in their own row (player 1's)."""
    ctl, rec, r = _game()
    g = ctl.game
    v = ctl.view
    _at(ctl, CLOSE, 100, 1)  # player 1 to roll, then player 0 may double after its play
    assert ctl.roll(110, (6, 5))[0]
    while g.phase == MOVE:
        fakes.play_step(ctl, 120)
    assert g.phase == DONE and g.turn == 1
    ctl.press("DOUBLE", 130)
    assert ctl.page is not None and ctl.page.by == 0
    _held(ctl, rec, 140)
    a = cube_advice(ctl)
    assert a["kind"] == "double" and a["player"] == 0 and v.advice_of == 0
    assert v.advice == ACTIONS_CODES[a["action"]]
    rows = _rows(r, ctl, "cube0", 2)
    assert rows[0] == rows[1] and rows[0][1] == DARK and rows[0][0] != DARK
    fakes.done(ctl)


ACTIONS_CODES = {"double": ADVICE_DOUBLE, "no double": ADVICE_NO_DOUBLE,
                 "too good": ADVICE_TOO_GOOD}
