# HINT: the play the board would make (its strong level), lit until the next press: by the
# controller, by ROLL held during a person's play (the long press), never outside one.
import gc

import fakes
from control import loader
from display.view import TARGET_DICE, target_of
from gammon.notation import find_play, parse_steps
from model.game import DONE, MOVE, OPENING, OVER, ROLL, hop_text

# The board's opponent is asked through the loader, never imported here: when a test gives
# the sides back to people the loader drops its module and weights, and a reference kept
# here would hold a second copy of them (16 KB) beside the next one loaded.


def _hint(ctl, now):
    """The protocol's hint, at once (control/hint.py imported when asked: the loader drops
    it with the board's player)."""
    from control import hint

    return hint.hint(ctl, now)


def _masks(turn, hops):
    src = dst = 0
    for frm, to in hops:
        src |= 1 << target_of(turn, frm)
        dst |= 1 << target_of(turn, to)
    return src, dst


def _think(ctl, now, most=5000):
    """Ticks until the HINT being thought out is over; the ticks it took."""
    n = 0
    while ctl.hinting is not None:
        n += 1
        assert n < most, "the hint never ended"
        ctl.tick(now + n)
    return n


def _same_steps(a, b):
    return sorted(a) == sorted(b)


def _follow(ctl, now):
    """Plays the person's turn by the hint, one step at a time with buttons; each hint lit
    as the reply says and continuing the play of the first."""
    g = ctl.game
    v = ctl.view
    first = None
    while g.phase == MOVE:
        ok, r = _hint(ctl, now)
        assert ok, r
        hops = parse_steps(" ".join(r["steps"]))
        assert (v.movable, v.dests) == _masks(g.turn, hops) and v.selected == -1
        if first is None:
            first = r["play"]
            play = loader.opponent().choose(g.position, g.dice, "strong")
            assert r["play"] == str(play)
            assert _same_steps(hops, [(s[0], s[1]) for s in play.steps])
        assert r["play"] == first  # the rest of the same play
        frm, to = hops[0]
        fakes.press_target(ctl, target_of(g.turn, frm), now)
        assert ctl.hint is None and v.selected == target_of(g.turn, frm)  # the press ends it
        fakes.press_target(ctl, target_of(g.turn, to), now)
        now += 10
    return now


def test_hint_lights_the_strong_choice_and_a_person_can_follow_it():
    for layout in ("full", "minimal"):
        gc.collect()
        ctl, rec = fakes.make(layout=layout, seed=4 if layout == "full" else 6, keep=8)
        g = ctl.game
        now = 100
        turns = 0
        while g.phase != OVER and turns < 6:
            now += 10
            if g.phase == MOVE:
                now = _follow(ctl, now)
                turns += 1
            else:
                ctl.press("ROLL", now)
        rec.check()
        assert turns == 6 and not rec.of("error")
        fakes.done(ctl)


def test_hint_after_other_steps_keeps_them():
    """After a step the board would not make, the hint completes a legal play from there."""
    gc.collect()
    ctl, rec = fakes.make(seed=8, keep=8)
    g = ctl.game
    now = 100
    checked = 0
    while g.phase != OVER and checked < 3:
        now += 10
        if g.phase != MOVE:
            ctl.press("ROLL", now)
            continue
        best = loader.opponent().choose(g.position, g.dice, "strong")
        fakes.play_step(ctl, now)  # the scripted person's own step
        if g.phase == MOVE:
            ok, r = _hint(ctl, now)
            assert ok, r
            play = find_play(g.position, g.dice, r["play"])
            rest = [(s[0], s[1]) for s in play.steps]
            for s in g.steps():  # the play keeps the steps made
                rest.remove((s[0], s[1]))
            now = _finish(ctl, r, now)
            assert g.phase in (DONE, OVER) and g.turn_state.play == play
            if play != best:
                checked += 1
        while g.phase == MOVE:
            fakes.play_step(ctl, now)
    assert checked >= 2
    rec.check()
    fakes.done(ctl)


def _finish(ctl, r, now):
    """Makes the hint's remaining steps with buttons."""
    g = ctl.game
    for frm, to in parse_steps(" ".join(r["steps"])):
        fakes.press_target(ctl, target_of(g.turn, frm), now)
        fakes.press_target(ctl, target_of(g.turn, to), now)
    return now + 10


def test_no_hint_outside_a_persons_play():
    gc.collect()
    ctl, rec = fakes.make(keep=8)
    g = ctl.game
    v = ctl.view

    def refused():
        before = (v.movable, v.dests, v.selected, g.to_json())
        ok, e = _hint(ctl, 50)
        assert not ok and e["code"] == "wrong_phase" and ctl.hint is None
        assert (v.movable, v.dests, v.selected, g.to_json()) == before

    assert g.phase == OPENING
    refused()
    ctl.roll(10, (3, 1))
    ctl.press("p8", 11)
    ctl.press("p5", 12)
    ctl.press("p6", 13)
    ctl.press("p5", 14)
    assert g.phase == DONE
    refused()
    ctl.roll(15, (4, 2))  # player 1's turn
    ctl.press("MENU", 16)
    refused()  # the menu is open
    for _ in range(10):
        ctl.press("MENU", 17)
    assert ctl.menu_item == -1 and _hint(ctl, 18)[0]
    ctl.undo(19)  # no step to take back; the hint stays until a press
    assert ctl.hint is not None
    ctl.press("MENU", 20)  # any press ends it
    assert ctl.hint is None
    for _ in range(10):
        ctl.press("MENU", 21)
    assert ctl.configure("players", ["board", "human"])[0]
    assert _hint(ctl, 22)[0]  # player 1 is still a person
    ctl.configure("players", ["human", "board"])
    assert ctl.busy()
    refused()  # the board's turn
    ctl.configure("physical_dice", True)
    ctl.configure("players", ["human", "human"])
    assert ctl.move("13/9 6/4", 23)[0] and ctl.roll(24)[1]["entering"]
    refused()  # physical dice being entered
    fakes.done(ctl)


def test_roll_held_during_a_play_is_hint():
    """The long press of ROLL: its press flashes red as ever (the play is not complete),
    then the hint lights. Held while throwing, or another key held, it is nothing."""
    for layout in ("full", "minimal"):
        gc.collect()
        ctl, rec = fakes.make(layout=layout, keep=8)
        g = ctl.game
        v = ctl.view
        ctl.press("ROLL", 10)  # the opening throw, held long
        ctl.long_press("ROLL", 810)
        assert ctl.hint is None and g.phase == MOVE
        ctl.press("UNDO", 900)
        ctl.long_press("UNDO", 1700)
        assert ctl.hint is None
        ctl.press("ROLL", 2000)
        assert rec.of("error")[-1]["code"] == "wrong_phase" and v.flash_target == TARGET_DICE
        ctl.long_press("ROLL", 2800)
        assert ctl.hint is None and ctl.hinting is not None  # thought out tick by tick
        _think(ctl, 2800)
        play = loader.opponent().choose(g.position, g.dice, "strong")
        hops = [(s[0], s[1]) for s in play.steps]
        assert ctl.hint == _masks(g.turn, hops) and (v.movable, v.dests) == ctl.hint
        ctl.press("ROLL", 3000)  # the next press ends it; held again, it comes back
        assert ctl.hint is None and v.dests == 0 and v.movable == ctl.cands | v.movable
        ctl.long_press("ROLL", 3800)
        _think(ctl, 3800)
        assert ctl.hint is not None
        while g.phase == MOVE:
            fakes.play_step(ctl, 4000)
        ctl.press("ROLL", 4100)  # passes the turn and throws: not a hint when held
        ctl.long_press("ROLL", 4900)
        assert ctl.hint is None
        assert g.phase in (MOVE, ROLL)
        fakes.done(ctl)


def _persons_play(ctl, seed_turns=0):
    """Rolls until a person is to play (dice thrown), past `seed_turns` turns."""
    g = ctl.game
    now = 100
    while True:
        now += 10
        if g.phase == MOVE and len(g.codes) >= seed_turns:
            return now
        if g.phase == MOVE:
            while g.phase == MOVE:
                fakes.play_step(ctl, now)
        else:
            ctl.press("ROLL", now)


def _persons_turn(seed, seed_turns):
    """A board (its player loaded first, as the board does, while the heap is whole) at a
    person's play past `seed_turns` turns: (ctl, rec, now)."""
    gc.collect()
    loader.opponent()
    ctl, rec = fakes.make(seed=seed, keep=8)
    return ctl, rec, _persons_play(ctl, seed_turns)


def _hold_hint(ctl, now):
    """ROLL pressed during the play (refused: the red flash) and held: a HINT starts."""
    ctl.press("ROLL", now)
    ctl.long_press("ROLL", now + 800)
    assert ctl.hinting is not None and ctl.hint is None
    return now + 800


def test_held_hint_is_thought_out_in_slices_while_the_loop_goes_on():
    """A HINT held is thought out one slice a tick (the board's own player's slices), its
    thinking shown by the checkers that can move glowing (a selection is put back), and lit
    at the end: the same play the request gives at once, the same lights."""
    ctl, rec, now = _persons_turn(3, 2)
    g = ctl.game
    v = ctl.view
    movable = 0
    for pt in g.turn_state.movable():
        movable |= 1 << target_of(g.turn, pt)
    fakes.press_target(ctl, bits_first(movable), now)  # a checker picked up
    assert v.selected >= 0
    before = g.to_json()
    now = _hold_hint(ctl, now)
    assert v.selected == -1 and v.movable == movable and v.dests == 0  # thinking
    ticks = _think(ctl, now)
    assert ticks > 2  # in slices: the loop ran between them
    assert ctl.hint is not None and g.to_json() == before  # nothing played
    lit = ctl.hint
    ctl.press("UNDO", now + 100)  # ends it (nothing to undo: refused, flashed)
    ok, r = _hint(ctl, now + 200)  # the request: the same hint, at once
    assert ok and ctl.hint == lit and (v.movable, v.dests) == lit
    play = loader.opponent().choose(g.position, g.dice, "strong")
    assert r["play"] == str(play)
    rec.check()
    fakes.done(ctl)


def bits_first(mask):
    return fakes.bits(mask)[0]


def test_presses_are_taken_while_a_hint_thinks():
    """A press while the HINT thinks is taken as ever and cancels the hint (never lit
    later); ROLL held again starts a new one, which lights; MENU and a step made by the
    protocol cancel it too."""
    ctl, rec, now = _persons_turn(5, 1)
    g = ctl.game
    v = ctl.view
    now = _hold_hint(ctl, now)
    ctl.tick(now + 1)
    assert ctl.hinting is not None  # still thinking
    movable = fakes.bits(v.movable)
    fakes.press_target(ctl, movable[0], now + 2)  # a checker picked up, at once
    assert ctl.hinting is None and v.selected == movable[0]
    for i in range(300):
        ctl.tick(now + 3 + i)
    assert ctl.hint is None and v.selected == movable[0]  # the cancelled hint never lights
    fakes.press_target(ctl, movable[0], now + 400)  # put back
    assert v.selected == -1
    now = _hold_hint(ctl, now + 500)  # held again: a new hint
    _think(ctl, now)
    assert ctl.hint is not None
    ctl.press("UNDO", now + 10)
    assert ctl.hint is None
    now = _hold_hint(ctl, now + 100)
    ctl.press("MENU", now + 1)  # the menu opens; the hint is cancelled
    assert ctl.hinting is None and ctl.menu_item >= 0
    while ctl.menu_item >= 0:
        ctl.press("MENU", now + 2)
    now = _hold_hint(ctl, now + 10)
    ctl.tick(now + 1)
    t = g.turn_state  # a step of the protocol's (ctl.move): the hint is for nothing now
    frm = t.movable()[0]
    to = list(t.destinations(frm))[0]
    assert ctl.move(hop_text((frm, to, False)), now + 2)[0]
    assert ctl.hinting is not None  # dropped at its next slice, unlit
    assert _think(ctl, now + 3) == 1 and ctl.hint is None
    assert not [e for e in rec.of("error") if e["code"] not in ("wrong_phase", "illegal")]
    rec.check()
    fakes.done(ctl)


def test_hint_that_fails_is_said_and_the_play_goes_on():
    """A slice that raises (a bug, no memory) ends the hint unlit with an error event; the
    person's play goes on."""
    ctl, rec, now = _persons_turn(7, 1)
    g = ctl.game
    now = _hold_hint(ctl, now)
    h = ctl.hinting

    class Broken:
        def step(self):
            raise MemoryError("no room")

    h.plan = Broken()
    assert _think(ctl, now) == 1 and ctl.hint is None
    e = rec.of("error")[-1]
    assert e["code"] == "no_player" and "no room" in e["message"]
    assert g.phase == MOVE
    fakes.play_step(ctl, now + 10)  # the play goes on
    fakes.done(ctl)
