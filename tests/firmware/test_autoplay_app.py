# A person against the board on the whole firmware (App, renderer, key matrix on fake pins):
# every board step is lit on the LED frame before it is made (its checker and destination),
# and ROLL held during the person's play lights the hint on the LEDs.
import gc

import fakes
from app import App
from control.boot import boot
from display.glyphs import segment_pixels, slot_names, target_segment
from display.renderer import Renderer
from display.view import button_of_target
from fake_matrix import matrix_keys
from gammon.dice import Dice, SeededBytes
from hw.boards import pico
from hw.output import FakeStrip
from hw.storage import Store
from model.game import MOVE, OVER

POLL = 5
FRAME = 20
T0 = 1000


class Board:
    """The firmware on fake pins and a fake strip, run by hand: inputs every 5 ms, a frame
    every 20 ms. `check(now)` runs after every frame."""

    def __init__(self, players, seed, pace=700):
        gc.collect()
        self.rec = fakes.Recorder(4)
        self.ctl = boot(Store(fakes.tmpdir()), Dice(SeededBytes(seed)), "full", self.rec, 0)
        self.ctl.configure("players", players)
        self.ctl.pace_ms = pace
        self.strip = FakeStrip(pico.LED_COUNT, pico.LED_ORDER)
        self.matrix, keys = matrix_keys(pico)
        self.app = App(
            pico,
            "full",
            self.ctl,
            Renderer(pico, self.strip, T0),
            keys,
            clock=lambda: self.now,
            poll_ms=POLL,
            frame_ms=FRAME,
        )
        # the same view drawn without its highlights, to see what they light
        self.plain = Renderer(pico, FakeStrip(pico.LED_COUNT, pico.LED_ORDER), T0)
        self.now = T0
        self.lit_steps = {}  # (player, from target, to target) -> frames it was shown in
        self.check = None

    def run(self, ms):
        end = self.now + ms
        while self.now < end:
            self.now += POLL
            self.app.inputs.poll(self.now)
            if self.now % FRAME == 0:
                self.app.frame(self.now)
                if self.check:
                    self.check(self.now)

    def tap(self, name, hold=40):
        self.matrix.hold(pico.KEYMAP, name)
        self.run(hold)
        self.matrix.hold(pico.KEYMAP)
        self.run(40)

    def highlighted(self):
        """Names of the segments whose LEDs the view's highlights change now."""
        v = self.ctl.view
        keep = (v.movable, v.dests, v.selected)
        v.movable, v.dests, v.selected = 0, 0, -1
        self.plain.render(v, self.now)
        v.movable, v.dests, v.selected = keep
        lit = self.strip.buf
        base = self.plain.strip.buf
        out = []
        for name in slot_names():
            for i in segment_pixels(pico, name):
                if lit[3 * i : 3 * i + 3] != base[3 * i : 3 * i + 3]:
                    out.append(name)
                    break
        return out


def _watch_board_steps(b):
    """After each frame of the board's turn with a step shown: the LEDs light exactly the
    step's checker (always) and its destination (when its blink is on), nothing else."""
    ctl = b.ctl

    def check(now):
        v = ctl.view
        if not ctl.busy() or v.selected < 0:
            return
        turn = ctl.game.turn
        dest = 0
        while not v.dests >> dest & 1:
            dest += 1
        src_seg = target_segment(v.selected, turn)
        dst_seg = target_segment(dest, turn)
        shown = b.highlighted()
        assert src_seg in shown and len(shown) <= 2, (src_seg, dst_seg, shown)
        assert shown[0] in (src_seg, dst_seg) and shown[-1] in (src_seg, dst_seg)
        key = (turn, v.selected, dest)
        n = b.lit_steps.get(key, 0)
        b.lit_steps[key] = n + 1 if dst_seg in shown else n

    return check


def _person_turn(b):
    """The person's part with the matrix buttons: ROLL, or a lit checker then a lit place."""
    ctl = b.ctl
    v = ctl.view
    g = ctl.game
    if g.phase == MOVE:
        movable = fakes.bits(v.movable)
        h = fakes.state_hash(ctl)
        b.tap(button_of_target(movable[h % len(movable)]))
        dests = fakes.bits(v.dests)
        b.tap(button_of_target(dests[(h // 7) % len(dests)]))
    else:
        b.tap("ROLL")


def test_person_against_the_board_on_pins_and_leds():
    b = Board(["human", "board"], seed=31)
    b.check = _watch_board_steps(b)
    g = b.ctl.game
    steps = 0
    for _ in range(20000):
        if g.phase == OVER:
            break
        if b.ctl.busy():
            b.run(FRAME)
            continue
        _person_turn(b)
        steps = b.rec.counts.get("step", 0)
    assert g.phase == OVER, g.phase
    b.rec.check()
    assert b.rec.counts.get("error", 0) == 0 and steps > 40
    # every step of the board was shown, its destination lit in some frame
    board_steps = 0
    for turn in b.ctl.history_dict(False)["turns"]:
        if turn["player"] == 1 and turn["play"]:
            board_steps += 1
    assert board_steps > 10 and len(b.lit_steps) >= board_steps
    assert all(n > 0 for n in b.lit_steps.values()), [k for k in b.lit_steps if not b.lit_steps[k]]
    fakes.done(b.ctl)


def test_roll_held_lights_the_hint_on_the_leds():
    b = Board(["human", "board"], seed=33)
    ctl = b.ctl
    g = ctl.game
    while not (g.phase == MOVE and not ctl.busy()):
        if ctl.busy():
            b.run(FRAME)
        else:
            b.tap("ROLL")
    assert not b.highlighted() or ctl.view.movable  # the person's checkers glow
    b.tap("ROLL", 300)  # a short press: the usual red flash, no hint
    assert ctl.hint is None and b.rec.of("error")[-1]["code"] == "wrong_phase"
    b.tap("ROLL", 900)  # held: the hint, thought out a slice a frame while the LEDs go on
    for _ in range(500):
        if ctl.hinting is None:
            break
        b.run(FRAME)
    assert ctl.hint is not None
    src, dst = ctl.hint
    want = []
    for t in range(26):
        if (src | dst) >> t & 1:
            want.append(target_segment(t, g.turn))
    shown = b.highlighted()
    for _ in range(20):  # destinations blink: both phases within 512 ms
        b.run(FRAME)
        for name in b.highlighted():
            if name not in shown:
                shown.append(name)
    assert sorted(shown) == sorted(want), (shown, want)
    b.tap("UNDO")  # the next press ends it
    assert ctl.hint is None
    fakes.done(ctl)
