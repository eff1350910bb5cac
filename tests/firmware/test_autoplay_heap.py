# A whole game of the board against itself through the controller in the smallest heap: run
# alone by tests/test_firmware_micropython.py with nothing loaded but the engine, the game
# logic, the board's player and its weights (HEAP there gives the figure).
import gc

import fakes
from model.game import OVER


def test_board_against_board_in_a_small_heap():
    gc.collect()
    ctl, rec = fakes.make(seed=17, keep=0)
    ctl.pace_ms = 1
    assert ctl.configure("players", ["board", "board"])[0]
    now = 0
    while ctl.game.phase != OVER and now < 10000000:
        now += 20
        ctl.tick(now)
    rec.check()
    assert ctl.game.phase == OVER and rec.counts["over"] == 1 and rec.counts["step"] > 40
    assert rec.counts.get("error", 0) == 0 and rec.counts.get("press", 0) == 0
    fakes.done(ctl)
