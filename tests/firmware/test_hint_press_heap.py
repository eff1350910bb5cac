# A HINT press allocates little (issue 11's 4 KB a press): ROLL held during a person's play
# against the board, the first time too (control/hint.py loaded by it), and on a person's
# cube decision (control/hint_cube.py), each with the frame after it (the controller's tick:
# the thinking's first slice; the LEDs drawn), as bench/board/board_bench.py counts a press.
import gc
import sys

import fakes
from allocs import Allocated
from control import loader
from display.renderer import Renderer
from gammon.position import Position
from hw.boards import pico
from hw.output import FakeStrip
from kernels.compat import MICROPY, unload
from model.game import MOVE, ROLL

BOUND = 4096  # bytes a press may allocate with its frame (issue 11's figure)
START = "4HPwATDgc/ABMA"
SPREAD = "d7cNAABUqqqqAA"  # 1-1 has 1,720 plays here (NOTES.md)
# a race player 0 leads by far (the board's money double: a pass), in each side's own points
RACE = ({1: 3, 2: 3, 3: 3, 4: 3, 5: 3}, {6: 5, 8: 5, 13: 5})


def _race():
    a = [0] * 25
    b = [0] * 25
    for k, n in RACE[0].items():
        a[k - 1] = n
    for k, n in RACE[1].items():
        b[k - 1] = n
    return Position(a, b)


def _board(cube=False):
    """A person (player 0) against the board, its player loaded first while the heap is
    whole, as the board does: (ctl, rec, renderer, strip)."""
    gc.collect()
    loader.opponent()
    strip = FakeStrip(pico.LED_COUNT)
    ctl, rec = fakes.make(keep=4)
    assert ctl.configure("players", ["human", "board"])[0]
    if cube:
        assert ctl.configure("cube", True)[0]
        ctl.new_game(0)
    r = Renderer(pico, strip, 0)
    return ctl, rec, r, strip


def _held(ctl, r, now):
    """ROLL held (its press came 800 ms before) and the frame after it."""
    ctl.long_press("ROLL", now)
    ctl.tick(now + 20)
    r.render(ctl.view, now + 20)


def test_a_hint_press_with_its_frame_allocates_at_most_4_kb():
    """The first HINT of a game against the board loads control/hint.py in the press: with
    it too the press and its frame stay within 4 KB; the later ones take far less."""
    unload("control.hint")  # (a test module before may have loaded it)
    ctl, rec, r, strip = _board()
    g = ctl.game
    allocated = Allocated()
    now = 100
    first = None
    for pid, dice in ((START, (6, 1)), (SPREAD, (5, 3)), (START, (2, 2)), (SPREAD, (1, 1))):
        g.setup(Position.from_id(pid), 0)
        ctl.changed(now)
        assert ctl.roll(now + 10, dice)[0] and g.phase == MOVE and not ctl.busy()
        r.render(ctl.view, now + 10)
        ctl.press("ROLL", now + 20)  # refused: the play is not complete
        assert ("control.hint" in sys.modules) == (first is not None)
        n = allocated(_held, ctl, r, now + 820)
        first = n if first is None else first
        assert ctl.hinting is not None  # thinking, a slice a frame
        while ctl.hinting is not None:
            now += 20
            ctl.tick(now + 820)
        assert ctl.hint is not None  # lit
        assert n <= BOUND, (pid, dice, n)
        now += 2000
    if MICROPY:
        assert allocated.most == first  # the first, with the module's code, is the most
    rec.check()
    assert not rec.of("error", "no_player") and not rec.of("error", "internal")
    print("most a HINT press allocated: %d bytes (the first)" % allocated.most)
    fakes.done(ctl)


def test_a_cube_hint_press_with_its_frame_allocates_at_most_4_kb():
    """ROLL held on the cube page before the throw and while the board's double waits: the
    advice lit at once (one evaluation), the first one loading control/hint_cube.py."""
    unload("control.hint")
    unload("control.hint_cube")
    ctl, rec, r, strip = _board(cube=True)
    # the board weighs its cube before each of its throws: its cube code is loaded in its game
    from control import autoplay_cube  # noqa: F401
    from control.cube_actions import act
    from gammon import cube_play  # noqa: F401

    g = ctl.game
    v = ctl.view
    allocated = Allocated()
    g.setup(_race(), 0)  # the person to roll, far ahead
    ctl.changed(100)
    ctl.press("DOUBLE", 110)  # the page
    r.render(v, 110)
    ctl.press("ROLL", 120)  # refused on the page
    assert g.phase == ROLL and ctl.page is not None
    n = allocated(_held, ctl, r, 920)
    assert v.advice and v.advice_of == 0 and "control.hint" not in sys.modules
    assert n <= BOUND, n
    ctl.press("UNDO", 1000)  # closes the page, and the advice with it
    g.setup(_race().swap(), 1)  # the board far ahead, to roll: it doubles
    ctl.changed(1100)
    assert act(ctl, "double", 1110, None, True)[0] and ctl.offered_to() == 0
    r.render(v, 1110)
    ctl.press("ROLL", 1120)  # refused: the double is to be answered
    n = allocated(_held, ctl, r, 1920)
    assert v.advice and v.advice_of == 0
    assert n <= BOUND, n
    rec.check()
    print("most a cube HINT press allocated: %d bytes" % allocated.most)
    fakes.done(ctl)
