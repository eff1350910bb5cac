# Controller: opening, selection and destinations, illegal presses, undo, no move, bear-off.
import gc

import fakes
from display.view import BLINK_MS, FLASH_MS, ROLL_MS, TARGET_DICE, TARGET_OFF
from hw.storage import Store
from hw.ticks import ticks_add
from model.game import DONE, MOVE, OPENING, OVER, ROLL
from positions import pos


def mask(*targets):
    m = 0
    for t in targets:
        m |= 1 << t
    return m


# Player 0 to play 6-2: their blot on player 0's 7-point; 13/7*/5 hits on the way.
BLOT_ON_7 = pos({24: 2, 13: 5, 8: 3, 6: 5}, {18: 1, 6: 5, 8: 3, 13: 4, 2: 2})
CLOSED = pos({25: 1, 1: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3})
RACE_END = pos({2: 1, 1: 1}, {6: 15})  # two checkers left, the opponent has none off


def setup(position, turn=0, dice=None, layout="full"):
    gc.collect()
    ctl, rec = fakes.make(layout=layout, keep=16)
    ctl.game.setup(position, turn)
    if dice:
        assert ctl.roll(10, dice)[0]
    else:
        ctl.changed(10)
    rec.events = []
    return ctl, rec


def test_opening_roll_with_buttons():
    ctl, rec = fakes.make(seed=5, keep=16)
    v = ctl.view
    assert ctl.game.phase == OPENING and v.phase == OPENING and v.dice[0] == 0
    assert v.pts0[24] == 2 and v.pts0[6] == 5 and v.pts1[1] == 2 and v.pts1[19] == 5
    ctl.press("ROLL", 100)
    g = ctl.game
    rolls = rec.of("roll")
    assert len(rolls) == 1 and rolls[0]["opening"] is True
    a, b = rolls[0]["dice"]
    assert a != b and g.turn == (0 if a > b else 1) and rolls[0]["player"] == g.turn
    assert g.phase == MOVE and g.dice == (a, b) and (v.dice[0], v.dice[1]) == (a, b)
    assert v.rolling_until == 700 and v.turn == g.turn and v.movable
    fakes.done(ctl)


def test_destinations_through_a_hit_and_undo():
    ctl, rec = setup(BLOT_ON_7, dice=(6, 2))
    v = ctl.view
    assert v.movable & mask(12) and not v.movable & mask(11)
    ctl.press("p13", 20)
    assert v.selected == 12
    assert v.dests == mask(10, 6, 4)  # 13/11, 13/7*, 13/7*/5
    ctl.press("p5", 30)
    steps = rec.of("step")
    assert [(s["from"], s["to"], s["hit"]) for s in steps] == [(13, 7, True), (7, 5, False)]
    assert ctl.game.phase == DONE and v.dice_used[0] == 2 and v.dice_used[1] == 2
    assert v.bar[1] == 1 and v.pts1[7] == 0 and v.pts0[5] == 1 and v.selected == -1
    assert ctl.state(False)["steps"] == ["13/7*", "7/5"]
    ctl.press("UNDO", 40)  # also after the play is complete
    assert ctl.game.phase == MOVE and v.pts0[7] == 1 and v.dice_used[0] == 2
    assert v.dice_used[1] == 0
    ctl.press("UNDO", 50)
    assert v.bar[1] == 0 and v.pts1[7] == 1 and v.pts0[13] == 5 and v.dice_used[0] == 0
    assert len(rec.of("undo")) == 2 and rec.of("undo")[1]["hit"] is True
    ctl.press("UNDO", 60)  # nothing left to take back: the dice flash
    err = rec.of("error")[-1]
    assert err["code"] == "illegal" and err["button"] == "UNDO"
    assert v.flash_target == TARGET_DICE and v.flash_until == 360
    fakes.done(ctl)


def test_illegal_presses_flash():
    ctl, rec = setup(BLOT_ON_7, dice=(6, 2))
    v = ctl.view
    ctl.press("p20", 100)  # no checker of the mover there
    assert rec.of("error")[-1]["code"] == "illegal"
    assert v.flash_target == 19 and v.flash_until == 400 and v.selected == -1
    ctl.press("p24", 110)
    ctl.press("p1", 120)  # not a destination of the 24
    assert v.flash_target == 0 and v.selected == 23 and rec.of("error")[-1]["button"] == "p1"
    ctl.press("UNDO", 130)  # UNDO first drops a selection
    assert v.selected == -1 and v.dests == 0
    ctl.press("ROLL", 140)  # the play is not finished
    assert rec.of("error")[-1]["code"] == "wrong_phase" and v.flash_target == TARGET_DICE
    ctl.press("BOGUS", 150)
    assert rec.of("error")[-1]["code"] == "bad_args" and v.flash_until == 450
    changed = v.changed
    ctl.press("OFF", 160)
    assert v.flash_target == TARGET_OFF and v.changed > changed
    rec.check()
    fakes.done(ctl)


def test_presses_out_of_turn_flash():
    ctl, rec = fakes.make()
    ctl.press("p6", 5)
    assert rec.of("error")[-1]["code"] == "wrong_phase" and ctl.view.flash_target == 5
    ok, err = ctl.undo(6)
    assert not ok and err["code"] == "illegal"
    fakes.done(ctl)


def test_no_legal_move_blinks_and_passes():
    ctl, rec = setup(CLOSED, turn=0)
    v = ctl.view
    ok, res = ctl.roll(1000, (6, 5))
    assert ok and res["dice"] == [6, 5]
    assert rec.of("nomove") == [{"event": "nomove", "player": 0, "dice": [6, 5]}]
    assert rec.of("turn")[-1]["player"] == 1
    g = ctl.game
    assert g.phase == ROLL and g.turn == 1 and g.history == [[0, 6, 5, 0]]
    assert v.turn == 1 and v.blink_until == 2500 and v.dice[0] == 6 and v.dice_used[0] == 2
    ctl.tick(2000)
    assert v.dice[0] == 6
    ctl.tick(2500)
    assert v.dice[0] == 0
    ctl.press("ROLL", 3000)
    assert g.turn == 1 and g.phase in (MOVE, DONE)
    fakes.done(ctl)


def test_deadlines_expire_across_the_ticks_wrap():
    """ticks_ms wraps (2**30 ms, about 12 days, on the board): deadlines set just before the
    wrap fall due just after it, and tick() sets them back to 0 (none) when they do."""
    ctl, rec = setup(CLOSED, turn=0)
    v = ctl.view
    start = ticks_add(0, -FLASH_MS)  # a deadline landing on 0 ('none') is moved to 1
    ctl.press("p20", start)
    assert v.flash_target == 19 and v.flash_until == 1
    ctl.tick(0)
    assert v.flash_until == 1
    ctl.tick(1)
    assert v.flash_until == 0
    now = ticks_add(0, -100)
    ctl.press("p20", now)
    assert ctl.roll(now, (6, 5))[0] and rec.of("nomove")  # blinks; the dice roll first
    flash, rolling, blink = FLASH_MS - 100, ROLL_MS - 100, BLINK_MS - 100
    assert (v.flash_until, v.rolling_until, v.blink_until) == (flash, rolling, blink)
    for t in (ticks_add(now, 1), ticks_add(0, -1), 0, flash - 1):
        ctl.tick(t)  # before and across the wrap: nothing is due yet
        assert (v.flash_until, v.rolling_until, v.blink_until) == (flash, rolling, blink), t
    ctl.tick(flash)
    assert (v.flash_until, v.rolling_until, v.blink_until) == (0, rolling, blink)
    ctl.tick(rolling + 1)
    assert (v.flash_until, v.rolling_until, v.blink_until) == (0, 0, blink)
    assert v.dice[0] == 6 and v.dice[1] == 5  # the dice of the passed turn still shown
    ctl.tick(blink - 1)
    assert v.blink_until == blink and v.dice[0] == 6
    ctl.tick(blink)
    assert (v.flash_until, v.rolling_until, v.blink_until) == (0, 0, 0) and v.dice[0] == 0
    ctl.tick(blink + 10)
    assert ctl.game.phase == ROLL and ctl.game.turn == 1 and v.dice[0] == 0
    fakes.done(ctl)


def test_bear_off_to_game_over_and_next_game():
    ctl, rec = setup(RACE_END, dice=(2, 1))
    v = ctl.view
    assert v.movable == mask(1, 0)
    ctl.press("p2", 10)
    assert v.dests & mask(TARGET_OFF)
    ctl.press("OFF", 20)
    assert ctl.game.phase == MOVE and v.off[0] == 14
    ctl.press("p1", 30)
    ctl.press("OFF", 40)
    g = ctl.game
    assert g.phase == OVER and g.winner == 0 and g.result == 2
    assert rec.of("over") == [{"event": "over", "winner": 0, "result": 2, "points": 2,
                               "score": [2, 0], "match_over": False}]
    assert v.winner == 0 and v.result == 2 and v.over_since == 40 and v.off[0] == 15
    assert g.score == [2, 0] and ctl.history_dict()["turns"][0]["play"] == "2/off 1/off"
    ctl.press("UNDO", 50)  # taken back until the next roll
    assert g.phase == MOVE and v.winner == -1 and g.score == [0, 0]
    ctl.press("p1", 60)
    ctl.press("OFF", 70)
    assert g.phase == OVER
    ctl.press("ROLL", 80)
    assert rec.of("new")[-1]["game"] == 2 and g.game_number == 2 and v.game == 2
    assert g.phase == MOVE and rec.of("roll")[-1]["opening"] is True and g.score == [2, 0]
    fakes.done(ctl)


def test_autoplay_forced_play():
    ctl, rec = setup(pos({24: 1, 1: 14}, {7: 2, 3: 13}))
    assert ctl.configure("autoplay", True, 5)[0]
    ctl.roll(10, (6, 5))
    assert ctl.game.phase == DONE
    assert [(s["from"], s["to"]) for s in rec.of("step")] == [(24, 19), (19, 13)]
    fakes.done(ctl)


def test_pass_turn_with_roll():
    ctl, rec = fakes.make(keep=16)
    ctl.roll(10, (3, 1))
    assert ctl.game.turn == 0
    ctl.press("p8", 20)
    ctl.press("p5", 30)
    ctl.press("p6", 40)
    ctl.press("p5", 50)
    assert ctl.game.phase == DONE and ctl.view.movable == 0
    ctl.press("ROLL", 60)
    assert rec.of("turn")[-1]["player"] == 1 and ctl.game.turn == 1 and ctl.view.turn == 1
    assert ctl.history_dict()["turns"] == [{"player": 0, "dice": [3, 1], "play": "8/5 6/5"}]
    # player 1's own 6-point is absolute p19: its checkers there can move
    assert ctl.view.movable & mask(18)
    fakes.done(ctl)


def test_the_apps_roll_button_passes_the_turn_and_the_next_tick_throws():
    """The app's ROLL (frame_first) that passes the turn leaves the throw to the next tick,
    each a step of its own; a press before that tick takes the throw back (ROLL again
    throws at once); the protocol's roll does both at once (above)."""
    ctl, rec = fakes.make(keep=16)
    g = ctl.game
    ctl.roll(10, (3, 1))
    for i, b in enumerate(("p8", "p5", "p6", "p5")):
        ctl.press(b, 20 + 10 * i, True)
    ctl.flush()
    assert g.phase == DONE
    ctl.press("ROLL", 60, True)
    assert g.phase == ROLL and g.turn == 1 and not g.dice
    assert rec.of("turn")[-1]["player"] == 1 and rec.events[-1]["event"] == "turn"
    ctl.flush()  # the app's step after the press's frame: its save, in ROLL
    assert b'"ph":%d' % ROLL in fakes.get(ctl.store.root, "game.json")
    ctl.tick(80)
    assert g.phase == MOVE and g.turn == 1 and g.dice
    assert rec.events[-1]["event"] == "roll" and rec.events[-1]["player"] == 1
    ctl.flush()  # (the frame's own change waits: saver.py)
    ctl.tick(100)  # the throw's save, in the next frame
    assert b'"ph":%d' % MOVE in fakes.get(ctl.store.root, "game.json")
    now = 120
    while g.phase == MOVE:  # player 1 plays; a press before the tick takes the throw back
        now += 10
        fakes.play_step(ctl, now)
    ctl.press("ROLL", now + 10, True)
    ctl.press("UNDO", now + 20, True)  # in ROLL: nothing to undo (flashes), and no throw
    ctl.flush()
    ctl.tick(now + 40)
    assert g.phase == ROLL and g.turn == 0 and not g.dice
    ctl.press("ROLL", now + 60, True)  # nothing to pass: thrown at once
    assert g.phase in (MOVE, ROLL) and rec.of("roll")[-1]["player"] == 0
    fakes.done(ctl)


class IdStore(Store):
    """Checks the "id" field of every game save against the position it should be, as it is
    written: a list of every save's pair grew to a 2 KB block, which this test's heap,
    cut up by the pairs themselves, gave or not by the luck of its layout."""

    def __init__(self, root):
        Store.__init__(self, root)
        self.ctl = None
        self.saves = 0
        self.wrong = []  # (written, expected) of the saves that got it wrong
        self.seen = set()  # the distinct IDs written

    def save_game(self, text):
        n = Store.save_game(self, text)
        data = fakes.get(self.root, "game.json")
        k = data.index(b'"id":"') + 6
        written = data[k : k + 14].decode()
        expected = self.ctl.game.position.position_id()
        self.saves += 1
        if written != expected:
            self.wrong.append((written, expected))
        if len(self.seen) <= 10:
            self.seen.add(written)
        return n


def test_every_save_holds_the_position_id_of_its_turns_start():
    """model/savetext.py keeps the last ID written (the saves of a turn repeat it): a new
    turn's save, a new game's and a set-up's still write their own."""
    store = IdStore(fakes.tmpdir())
    ctl, rec = fakes.make(store=store)
    store.ctl = ctl
    try:
        now = fakes.play_game(ctl)
        ctl.new_game(now)
        for _ in range(6):
            now += 7
            if ctl.game.phase == MOVE:
                fakes.play_step(ctl, now)
            else:
                ctl.press("ROLL", now)
        ctl.game.setup(BLOT_ON_7, 1)
        ctl.changed(now)
        assert store.saves > 40
        assert len(store.seen) > 10  # the turns' IDs change...
        assert not store.wrong, store.wrong[:3]  # ... and each save wrote its own
    finally:
        fakes.done(ctl)
