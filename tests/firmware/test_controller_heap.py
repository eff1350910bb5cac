# Complete games in the smallest heap: run alone under `micropython -X heapsize=64K`
# (tests/test_firmware_micropython.py), with nothing loaded but the engine, the game logic and
# fakes. Nothing here may import report, notation or the menu.
import gc

import fakes
from model.game import OVER


def test_games_in_both_layouts():
    for layout, seed in (("full", 1), ("minimal", 2), ("full", 3)):
        gc.collect()
        ctl, rec = fakes.make(layout=layout, seed=seed, keep=0)
        fakes.play_game(ctl)
        rec.check()
        assert ctl.game.phase == OVER and rec.counts["over"] == 1
        assert rec.counts.get("error", 0) == 0 and ctl.view.off[ctl.game.winner] == 15
        fakes.done(ctl)
        ctl = rec = None
