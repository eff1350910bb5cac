# The board's own player (autoplay.py) through the controller: board against board, a person
# against the board with buttons, every board step lit before it is made and paced, presses
# refused during its turn, physical dice, a failing choice, settings files old and new.
# (HINT: test_hint.py; power cuts: test_autoplay_powercut.py; pins and LEDs: test_autoplay_app.)
import gc
import sys

import fakes
from control.boot import boot
from control.loader import weights_path
from display.view import TARGET_DICE, target_of
from gammon.dice import Dice, SeededBytes
from gammon.opponent import shared
from gammon.play import legal_plays
from hw.storage import SETTINGS, Store
from hw.ticks import ticks_diff
from model.game import DONE, MOVE, OPENING, OVER, ROLL

FRAME = 20  # ms between ticks, as the render task
MICROPY = sys.implementation.name == "micropython"


class Watch:
    """Events, each board step checked as it is made: its checker selected and its
    destination lit, for at least 2/3 of the pace; each board play checked when complete:
    the strong level's choice (`expect`), or one of the legal plays."""

    def __init__(self, expect=True):
        self.expect = expect
        self.ctl = None
        self.counts = {}
        self.errors = []
        self.board_steps = 0
        self.board_plays = 0
        self.lit_at = None
        self.chosen = None
        self.last = None  # the last event

    def __call__(self, ev):
        kind = ev["event"]
        self.counts[kind] = self.counts.get(kind, 0) + 1
        self.last = ev
        if kind == "error":
            self.errors.append(ev)
        ctl = self.ctl
        if ctl is None or "player" not in ev or not ctl.by_board(ev["player"]):
            return
        g = ctl.game
        if kind == "roll" and g.phase == MOVE:
            self.chosen = None
            if self.expect:
                self.chosen = shared(weights_path()).choose(g.position, g.dice, "strong")
            else:
                self.chosen = legal_plays(g.position, g.dice)
        elif kind == "step":
            v = ctl.view
            p = ev["player"]
            assert v.selected == target_of(p, ev["from"]), (ev, v.selected)
            assert v.dests == 1 << target_of(p, ev["to"]), (ev, v.dests)
            assert v.movable == 0 and v.cursor == -1
            assert self.lit_at is not None
            assert ticks_diff(self.now, self.lit_at) >= ctl.pace_ms * 2 // 3 - FRAME
            self.board_steps += 1
            if g.phase != MOVE:  # the play is complete
                play = g.turn_state.play
                if self.expect:
                    assert play == self.chosen, (str(play), str(self.chosen))
                else:
                    assert play in self.chosen
                self.chosen = None
                self.board_plays += 1

    def frame(self, now):
        """After each tick: when the board's selection appeared."""
        self.now = now
        v = self.ctl.view
        if v.selected < 0:
            self.lit_at = None
        elif self.lit_at is None:
            self.lit_at = now

    def check(self):
        assert not self.errors, self.errors[:3]


def make(players, seed=1, layout="full", level="strong", pace=None, expect=True, root=None):
    gc.collect()
    watch = Watch(expect)
    watch.now = 0
    ctl = boot(Store(root or fakes.tmpdir()), Dice(SeededBytes(seed)), layout, watch, 0)
    if pace:
        ctl.pace_ms = pace
    watch.ctl = ctl
    assert ctl.configure("players", players)[0] and ctl.configure("level", level)[0]
    return ctl, watch


def person(ctl, now):
    """A person at the board: presses the lit buttons when it is not the board's to act."""
    g = ctl.game
    if ctl.busy() or g.phase == OVER or ctl.view.rolling_until:
        return
    if g.phase == MOVE:
        if not ctl.by_board(g.turn):
            fakes.play_step(ctl, now)
    elif ctl.throw.entry:
        fakes.enter_script(ctl, now)
    elif g.phase in (OPENING, ROLL, DONE):
        ctl.press("ROLL", now)


def run(ctl, watch, act=None, now=1000, limit=60000, until=None):
    """Ticks every FRAME ms; `act(ctl, now)` after each tick (a person). Until game over,
    or until(ctl) is true; returns the time reached."""
    g = ctl.game
    for _ in range(limit):
        if g.phase == OVER or (until and until(ctl)):
            return now
        now += FRAME
        watch.now = now
        ctl.tick(now)
        watch.frame(now)
        if act:
            act(ctl, now)
    raise AssertionError("the game did not end: phase %d" % g.phase)


def test_board_against_board_plays_a_whole_game_alone():
    ctl, watch = make(["board", "board"], seed=3, expect=False)  # strong, legal plays
    g = ctl.game
    assert ctl.busy() and ctl.state(False)["bot"] == "roll"
    now = run(ctl, watch)
    watch.check()
    assert g.phase == OVER and ctl.view.off[g.winner] == 15
    assert watch.counts.get("press", 0) == 0  # nobody touched it
    assert watch.board_plays + watch.counts.get("nomove", 0) == len(g.codes)
    assert watch.board_steps == watch.counts["step"] > len(g.codes)
    # paced: a roll animation and a pace per step, at least
    assert now - 1000 >= ctl.pace_ms * watch.board_steps
    assert not ctl.busy() and ctl.state(False)["bot"] is None
    for turn in ctl.history_dict(False)["turns"]:
        assert turn["play"] or turn["dice"]
    # game over: ROLL from a person starts the next game, which the board plays on alone
    ctl.press("ROLL", now + 10)
    assert g.game_number == 2 and g.phase == MOVE and ctl.busy()
    fakes.done(ctl)


def test_person_against_board_with_buttons():
    """Player 0 presses buttons, the board plays player 1 at its strong level, each play
    its choice; presses during the board's turn flash red and change nothing; UNDO cannot
    take back the board's play."""
    ctl, watch = make(["human", "board"], seed=5, pace=300)
    g = ctl.game
    refused = [0, 0]

    def act(ctl, now):
        v = ctl.view
        if ctl.busy() and v.selected >= 0 and refused[0] < 40:
            before = g.to_json()
            button = "p%d" % (v.selected + 1) if v.selected < 24 else "ROLL"
            ctl.press(button, now)  # the board's checker itself: refused
            ctl.press("UNDO", now)
            assert g.to_json() == before
            assert watch.last["event"] == "error" and watch.last["code"] == "wrong_phase"
            assert v.flash_target == TARGET_DICE and v.flash_until
            assert ctl.roll(now)[1]["code"] == "wrong_phase"
            assert ctl.move("24/23", now)[1]["code"] == "wrong_phase"
            assert ctl.undo(now)[1]["code"] == "illegal"
            watch.errors = []
            refused[0] += 1
        elif g.phase == DONE and ctl.by_board(g.turn) and refused[1] < 10:
            ok, e = ctl.undo(now)  # the board's play is complete: still not a person's
            assert not ok and e["code"] == "illegal" and len(g.steps()) == g.turn_state.length
            ctl.press("UNDO", now)
            assert watch.last["event"] == "error" and watch.last["code"] == "illegal"
            watch.errors = []
            refused[1] += 1
        person(ctl, now)

    run(ctl, watch, act)
    watch.check()
    assert refused[0] == 40 and refused[1] == 10
    assert watch.board_plays >= 10 and watch.counts["over"] == 1
    for turn in ctl.history_dict(False)["turns"]:
        assert turn["player"] in (0, 1)
    fakes.done(ctl)


def test_board_as_player_0_at_the_easy_level_in_the_minimal_layout():
    ctl, watch = make(
        ["board", "human"], seed=7, layout="minimal", level="easy", pace=60, expect=False
    )
    run(ctl, watch, person)
    watch.check()
    g = ctl.game
    assert g.phase == OVER and watch.board_plays >= 10
    fakes.done(ctl)


def test_the_board_throws_its_own_dice_with_physical_dice():
    """The person enters their dice; the board's are thrown electronically."""
    ctl, watch = make(["human", "board"], seed=9, pace=50, level="easy", expect=False)
    assert ctl.configure("physical_dice", True)[0]
    g = ctl.game
    entries = [0, 0]

    def act(ctl, now):
        if ctl.throw.entry:
            entries[ctl.throw.entry.player()] += 1
            assert ctl.throw.entry.player() == 0 or g.phase == OPENING
        person(ctl, now)

    run(ctl, watch, act)
    watch.check()
    assert entries[0] > 10 and watch.board_plays > 5
    fakes.done(ctl)


def test_the_menu_works_and_pauses_the_board():
    ctl, watch = make(["board", "board"], seed=11, pace=100, level="easy", expect=False)
    g = ctl.game
    now = run(ctl, watch, until=lambda c: len(g.codes) >= 3 and c.view.selected >= 0)
    made = len(g.steps())
    ctl.press("MENU", now)
    assert ctl.menu_item == 0 and watch.last["event"] == "menu"
    for _ in range(50):  # 1 s: nothing moves
        now += FRAME
        ctl.tick(now)
    assert len(g.steps()) == made and ctl.view.selected == -1
    ctl.press("MENU", now)  # brightness: a setting changes while the board plays
    ctl.press("ROLL", now)
    for _ in range(20):  # on through the other items: the menu closes after the last
        if ctl.menu_item < 0:
            break
        ctl.press("MENU", now)
    assert ctl.menu_item == -1
    assert ctl.configure("players", ["board", "human"])[0]  # the board keeps one side
    run(ctl, watch, person)
    watch.check()
    assert g.phase == OVER and watch.counts["config"] == 4
    fakes.done(ctl)


def test_a_person_takes_over_a_side_in_the_middle_of_its_play():
    ctl, watch = make(["board", "board"], seed=13, pace=100)
    g = ctl.game
    now = run(ctl, watch, until=lambda c: g.phase == MOVE and len(g.steps()) == 1)
    side = g.turn
    players = ["board", "board"]
    players[side] = "human"
    assert ctl.configure("players", players)[0]
    assert not ctl.busy() and ctl.view.movable and ctl.state(False)["bot"] is None
    assert ctl.undo(now)[0]  # the person may take the step back: the side is theirs now
    assert ctl.configure("players", ["human", "human"])[0] and ctl.bot is None
    fakes.done(ctl)


class Broken:
    """A chooser whose first `fails` choices fail after a few slices of thinking, as a bug
    or a MemoryError would; `real` makes the later ones."""

    def __init__(self, fails=1000, real=None):
        self.fails = fails
        self.real = real
        self.slices = 0
        self.done = False

    def think(self, position, dice, level="strong", rand=None, keeps=None):
        if self.fails <= 0:
            return self.real.think(position, dice, level, rand, keeps)
        self.fails -= 1
        self.slices = 0
        return self

    def step(self, evaluations=32):
        self.slices += 1
        if self.slices > 2:
            raise OSError("no weights")
        return False


def test_a_failing_choice_is_reported_and_the_side_goes_back_to_a_person():
    """No quiet first legal play: the error says so, the LEDs flag it, the setting and
    `state` show the side as a person's, and the person finishes the game."""
    ctl, watch = make(["human", "board"], seed=15, pace=40, expect=False)
    ctl.bot.opp = Broken()
    run(ctl, watch, person)
    assert [e["code"] for e in watch.errors] == ["no_player"], watch.errors
    assert "no weights" in watch.errors[0]["message"]
    assert watch.board_plays == 0 and ctl.game.phase == OVER
    assert ctl.settings.players == ["human", "human"] and ctl.bot is None
    assert ctl.view.error == 2 and ctl.state(False)["bot"] is None
    assert ctl.state(False)["settings"]["players"] == ["human", "human"]
    fakes.done(ctl)


def test_a_player_that_fails_for_want_of_memory_gives_the_side_back_even_if_no_save_fits():
    """A heap too full for the board's player is too full for the settings' text as well:
    the side still goes back (the save's failure an error event), and nothing escapes the
    tick that would stop the render task."""
    ctl, watch = make(["human", "board"], seed=15, pace=40, expect=False)
    ctl.bot.opp = Broken()

    def no_room(text):
        raise MemoryError("no room")

    ctl.store.save_settings = no_room  # the flash is fine; the heap is not
    run(ctl, watch, person)
    assert [e["code"] for e in watch.errors] == ["no_player", "storage"], watch.errors
    assert ctl.settings.players == ["human", "human"] and ctl.game.phase == OVER
    fakes.done(ctl)


def test_board_against_board_gives_back_only_the_failing_side():
    ctl, watch = make(["board", "board"], seed=16, pace=40, expect=False)
    g = ctl.game
    run(ctl, watch, until=lambda c: len(g.codes) >= 2 and g.phase == MOVE)
    side = g.turn
    ctl.bot.opp = Broken(1, ctl.bot.opp)
    run(ctl, watch, person)  # the person plays the failing side from then on
    assert [e["code"] for e in watch.errors] == ["no_player"]
    players = ["board", "board"]
    players[side] = "human"
    assert ctl.settings.players == players and ctl.bot is not None
    assert g.phase == OVER
    fakes.done(ctl)


def test_settings_files_old_and_new():
    gc.collect()
    root = fakes.tmpdir()
    # written before "level" existed: loads, the level is the default
    fakes.put(
        root,
        SETTINGS,
        b'{"v":1,"brightness":64,"autoplay":true,"physical_dice":false,'
        b'"palette":1,"players":["human","human"]}',
    )
    ctl, rec = fakes.make(root)
    s = ctl.settings
    assert ctl.boot_error is None and s.level == "strong" and s.brightness == 64 and s.autoplay
    assert ctl.bot is None
    assert ctl.configure("players", ["board", "human"])[0] and ctl.configure("level", "easy")[0]
    ctl = rec = s = None
    gc.collect()
    ctl, rec = fakes.make(root)  # round trip
    s = ctl.settings
    assert s.players == ["board", "human"] and s.level == "easy" and s.brightness == 64
    assert ctl.bot is not None and ctl.busy() is False  # the opening is the person's ROLL
    assert ctl.state(False)["settings"]["level"] == "easy"
    ctl = rec = s = None
    # a bad level or players keeps the default; the rest still loads
    fakes.put(root, SETTINGS, b'{"v":1,"level":"hard","players":["board"],"palette":2}')
    gc.collect()
    ctl, rec = fakes.make(root)
    s = ctl.settings
    assert s.level == "strong" and s.players == ["human", "human"] and s.palette == 2
    assert ctl.bot is None and ctl.boot_error is None
    fakes.done(ctl)


class _Game:
    """What order.Order reads of a game."""

    def __init__(self, position, dice, turn):
        self.position = position
        self.dice = dice
        self.turn_state = turn


def test_a_play_s_own_order_is_the_searched_one():
    """order.fit takes a play's own order without trying its steps (no step made, none
    bearing off): the order the search over the turn finds, for every play of many turns;
    the same in slices (order.Order, on a turn of its own)."""
    from control import order
    from gammon import Position
    from gammon.turn import Turn

    dice = Dice(SeededBytes(41))
    opp = shared(weights_path())
    position = Position.start()
    quick = 0
    for _ in range(40 if MICROPY else 12):
        roll = dice.roll()
        plays = legal_plays(position, roll)
        t = Turn(position, roll)
        for i in range(0, len(plays), 1 + len(plays) // 12):
            play = plays[i]
            got = order.fit(t, play, [])
            rest = [(s[0], s[1]) for s in play.steps]
            searched = []
            search = order._search(t, rest, play.result, searched)
            for _ in search:  # each step tried (the generator's end: an order found)
                pass
            if all(hop[1] for hop in rest):
                assert got == searched == rest, (str(play), got, searched)
                quick += 1
            else:
                assert got == searched, (str(play), got, searched)
            assert not t.steps and len(searched) == len(rest)
            sliced = order.Order(_Game(position, roll, t), play, [])
            while not sliced.step():
                pass
            assert sliced.hops == got
        play = opp.choose(position, roll, "easy", lambda n: n // 3)
        if play is None:
            position = position.swap()
        elif play.result.outcome():
            position = Position.start()
        else:
            position = play.result.swap()
    assert quick > 50


def _thinking(ctl):
    g = ctl.game
    return g.phase == MOVE and ctl.bot.doing(ctl) == "think" and ctl.bot.plan is not None


def test_presses_are_taken_while_the_board_thinks():
    """Its checkers that can move glow while it thinks over several frames; MENU opens
    the menu at once and pauses the thinking, which goes on to the very play it would have
    made; UNDO is refused at once; a new game from the menu drops the plan."""
    ctl, watch = make(["human", "board"], seed=19, pace=60)
    g = ctl.game
    v = ctl.view
    now = run(ctl, watch, person, until=lambda c: _thinking(c) and c.bot.plan.choice.slices > 2)
    want = shared(weights_path()).choose(g.position, g.dice, "strong")
    run(ctl, watch, until=_thinking)  # the comparison started the choice again: its slices
    mask = 0
    for pt in g.turn_state.movable():
        mask |= 1 << target_of(g.turn, pt)
    assert v.movable == mask != 0 and v.selected == -1  # the glow of thinking
    before = g.to_json()
    ctl.press("UNDO", now)
    assert watch.last["code"] == "wrong_phase" and v.flash_until and g.to_json() == before
    watch.errors = []
    ctl.press("MENU", now)
    assert ctl.menu_item == 0 and watch.last["event"] == "menu"
    plan = ctl.bot.plan
    slices = plan.choice.slices
    for _ in range(20):
        now += FRAME
        ctl.tick(now)
    assert ctl.bot.plan is plan and plan.choice.slices == slices  # paused
    while ctl.menu_item >= 0:
        ctl.press("MENU", now)
    run(ctl, watch, until=lambda c: c.bot.doing(c) == "move")
    assert ctl.bot.plan is None and ctl.bot.key is not None
    steps = [(s[0], s[1]) for s in want.steps]
    assert sorted(ctl.bot.hops) == sorted(steps)  # the play it had chosen before the menu
    run(ctl, watch, person, until=lambda c: len(g.codes) >= 5 and _thinking(c))
    game = g.game_number
    ctl.press("MENU", now)
    ctl.press("ROLL", now)  # the menu's first item: a new game
    assert g.game_number == game + 1 and ctl.menu_item == -1
    assert not ctl.busy()  # the opening is the person's ROLL; the old plan is never made
    run(ctl, watch, person)
    watch.check()
    fakes.done(ctl)
