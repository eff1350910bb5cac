# Power-on with a match in the save: its reader (model/savematch.py) is needed once and
# leaves the heap with the rest of the boot code. A module of its own: the match code it
# loads would cut up test_boot's heap before that module's 16 KB save is read.
# Runs under CPython (pytest) and MicroPython (tests/mprun.py).
import gc
import sys

import fakes


def test_when_a_match_save_is_read_its_reader_leaves_the_heap():
    """model.savematch reads a save with a match in it; a boot drops it again, the match's
    own code (model.matchplay) stays for the game."""
    ctl = fakes.make(keep=8)[0]
    root = ctl.store.root
    assert ctl.configure("match_length", 3)[0]
    ctl.new_game(1)  # a match to 3 points from this game
    ctl.roll(2, (6, 1))
    assert ctl.game.mp is not None
    ctl = None
    gc.collect()
    again = fakes.make(root, keep=8)[0]
    assert again.boot_error is None and again.game.mp is not None
    assert again.game.match_length == 3 and again.game.dice == (6, 1)
    for name in ("control.boot", "model.savefile", "model.savecheck", "model.savematch"):
        assert name not in sys.modules, name
    assert "model.matchplay" in sys.modules
    fakes.done(again)
