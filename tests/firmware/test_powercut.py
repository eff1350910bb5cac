# Power cuts: after every save of a game, and in the middle of a save, the board resumes.
# Dice are entered as physical dice from a script that depends only on the saved record,
# so a resumed game meets the same dice as the game that was not cut.
import gc
import os

import cuts
import fakes
from cuts import resume_every_save
from gammon.position import Position
from hw.storage import GAME, SETTINGS
from model.game import OVER

# A set-up game near the end (a blot each and some contact left): about 30 turns.
LATE = "3HljAAi4ezYAAg"


def reference(layout, start=None):
    """Plays the scripted game once (from `start` if given); returns (settings text, snaps
    folder, saves, final)."""

    def prepare(ctl):
        if start:
            ctl.game.setup(Position.from_id(start), 0)
            ctl.changed(0)

    return cuts.reference(prepare, fakes.play_game, layout)


def test_cut_after_every_save_resumes_and_finishes_alike():
    settings, snaps, count, final = reference("full", LATE)
    assert count > 100
    resume_every_save(settings, snaps, count, final, lambda k: True)


def test_cut_after_every_save_of_a_whole_game():
    """From the opening: every save resumes exactly; some are played to the end."""
    settings, snaps, count, final = reference("minimal")
    assert count > 200
    resume_every_save(settings, snaps, count, final, lambda k: k % 40 == 7)


def test_cut_inside_a_save_resumes_the_newest_whole_save():
    """A cut while the tmp is written resumes the step before; a cut after the tmp is whole
    (before its rename) resumes the tmp, the newer state, and finishes the rename."""
    settings, snaps, count, final = reference("full")
    for k in range(0, count - 1, 9):
        before = fakes.get(snaps, str(k))
        after = fakes.get(snaps, str(k + 1))
        for tmp in (after[: len(after) // 2], after[:1], after[:-1], after):
            gc.collect()
            root = fakes.tmpdir()
            fakes.put(root, SETTINGS, settings)
            fakes.put(root, GAME, before)
            fakes.put(root, GAME + ".tmp", tmp)
            ctl, rec = fakes.make(root)
            newest = after if tmp == after else before
            assert ctl.boot_error is None and ctl.game.to_json() == newest.decode(), k
            assert sorted(os.listdir(root)) == [GAME, SETTINGS]  # the leftover is gone
            assert fakes.get(root, GAME) == newest
            fakes.done(ctl)
            ctl = rec = None
        # FAT: the old file removed, the cut before the rename: the whole temp file counts
        gc.collect()
        root = fakes.tmpdir()
        fakes.put(root, SETTINGS, settings)
        fakes.put(root, GAME + ".tmp", after)
        ctl, rec = fakes.make(root)
        assert ctl.game.to_json() == after.decode() and fakes.get(root, GAME) == after
        if k % 27 == 0:
            fakes.play_game(ctl)
            rec.check()
            assert ctl.game.phase == OVER and ctl.game.to_json() == final
        fakes.done(ctl)
        ctl = rec = None
    for k in range(count):
        os.remove(snaps + "/" + str(k))
    os.rmdir(snaps)


def test_a_whole_tmp_beside_a_broken_file_wins():
    """game.json cut short (or junk) beside a whole tmp: the tmp, the newer save, is resumed
    and put in place; nothing is reported (a game near its end keeps this test short)."""
    settings, snaps, count, final = reference("full", LATE)
    for k in range(0, count - 1, 7):
        before = fakes.get(snaps, str(k))
        after = fakes.get(snaps, str(k + 1))
        for broken in (before[: len(before) // 2], b"", b"\xff" * 9):
            gc.collect()
            root = fakes.tmpdir()
            fakes.put(root, SETTINGS, settings)
            fakes.put(root, GAME, broken)
            fakes.put(root, GAME + ".tmp", after)
            ctl = fakes.make(root)[0]
            assert ctl.boot_error is None and ctl.game.to_json() == after.decode(), k
            assert sorted(os.listdir(root)) == [GAME, SETTINGS] and fakes.get(root, GAME) == after
            fakes.done(ctl)
            ctl = None
    for k in range(count):
        os.remove(snaps + "/" + str(k))
    os.rmdir(snaps)
