# Power cuts replayed: a board booted from each save a game (or a match) left, checked to
# resume it exactly and, played on, to end as the one that was not cut (test_powercut,
# test_match_buttons).
import gc
import os

import fakes
from fakes import SnapStore
from hw.storage import GAME, SETTINGS


def reference(prepare, run=fakes.play_game, layout="full"):
    """Plays the scripted game (or match) once with physical dice from the script, after
    prepare(ctl), every save kept: (settings text, snaps folder, saves, final)."""
    gc.collect()
    snaps = fakes.tmpdir()
    ctl, rec = fakes.make(layout=layout, store=SnapStore(fakes.tmpdir(), snaps), keep=0)
    ctl.configure("physical_dice", True)
    prepare(ctl)
    run(ctl)
    rec.check()
    final = ctl.game.to_json()
    settings = fakes.get(ctl.store.root, SETTINGS)
    count = ctl.store.count
    fakes.done(ctl)
    return settings, snaps, count, final


def resume(settings, snap, keep=2):
    """A board booted from the files a cut left."""
    root = fakes.tmpdir()
    fakes.put(root, SETTINGS, settings)
    fakes.put(root, GAME, snap)
    return fakes.make(root, keep=keep)


def resume_every_save(settings, snaps, count, final, play, run=fakes.play_game, keep=2,
                      tally=None):
    """A board booted from each save resumes it exactly; those saves k with play(k) are
    played on by run(ctl, now) and end as the game that was not cut. Removes the snaps;
    returns tally(ctl) of each board resumed, summed (0 without a tally)."""
    total = 0
    for k in range(count):
        gc.collect()
        snap = fakes.get(snaps, str(k))
        ctl, rec = resume(settings, snap, keep)
        assert ctl.boot_error is None and ctl.game.to_json() == snap.decode(), k
        if tally:
            total += tally(ctl)
        if play(k):
            run(ctl, 10 * k)
            rec.check()
            assert ctl.game.to_json() == final, k
        fakes.done(ctl)
        ctl = rec = None
        os.remove(snaps + "/" + str(k))
    os.rmdir(snaps)
    return total
