# Power cuts in the middle of the board's own play: the saved steps stay, and on boot the
# board goes on with its play (strong: the very play it had chosen) and finishes the game.
import gc
import json

import fakes
from control.boot import boot
from fakes import SnapStore
from gammon.dice import Dice, SeededBytes
from hw.storage import GAME, SETTINGS, Store
from model.game import MOVE, OVER

FRAME = 20


def person(ctl, now):
    g = ctl.game
    if ctl.busy() or g.phase == OVER:
        return
    if g.phase == MOVE:
        fakes.play_step(ctl, now)
    else:
        ctl.press("ROLL", now)


def run(ctl, now, until, limit=40000):
    for _ in range(limit):
        if until(ctl):
            return now
        now += FRAME
        ctl.tick(now)
        person(ctl, now)
    raise AssertionError("not reached")


def _over(ctl):
    return ctl.game.phase == OVER


def _reference(players, level, seed):
    """The uncut game: (settings text, snaps folder, saves, record of plays)."""
    gc.collect()
    snaps = fakes.tmpdir()
    rec = fakes.Recorder(0)
    ctl = boot(SnapStore(fakes.tmpdir(), snaps), Dice(SeededBytes(seed)), "full", rec, 0)
    ctl.pace_ms = 30
    ctl.configure("players", players)
    ctl.configure("level", level)
    run(ctl, 1000, _over)
    rec.check()
    codes = list(ctl.game.codes)
    settings = fakes.get(ctl.store.root, SETTINGS)
    count = ctl.store.count
    fakes.done(ctl)
    return settings, snaps, count, codes


def _cut_and_resume(players, level, seed, every, finish_every):
    """Boots from every `every`-th save made while the board was playing (its dice thrown,
    steps made or not); each resumed play is checked, every `finish_every`-th game is
    played on to its end. Returns how many were resumed."""
    settings, snaps, count, codes = _reference(players, level, seed)
    resumed = seen = 0
    for k in range(count):
        snap = fakes.get(snaps, str(k))
        d = json.loads(snap)
        if d["ph"] == MOVE and players[d["t"]] == "board":
            seen += 1
        if d["ph"] == MOVE and players[d["t"]] == "board" and seen % every == 1 % every:
            gc.collect()
            root = fakes.tmpdir()
            fakes.put(root, SETTINGS, settings)
            fakes.put(root, GAME, snap)
            rec = fakes.Recorder(0)
            ctl = boot(Store(root), Dice(SeededBytes(k)), "full", rec, 0)
            ctl.pace_ms = 30
            g = ctl.game
            assert ctl.boot_error is None and ctl.game.to_json() == snap.decode(), k
            assert len(g.steps()) == len(d["s"]) and ctl.busy()
            turn = len(g.codes)
            length = g.turn_state.length
            now = run(ctl, 1000, lambda c, n=turn: len(c.game.codes) > n)  # played, recorded
            assert rec.counts["step"] == length - len(d["s"]), k
            if level == "strong":  # the play it had chosen before the cut
                assert g.codes[turn] == codes[turn], k
            if resumed % finish_every == 0:
                run(ctl, now, _over)  # and on to the end (other dice from here)
            rec.check()
            resumed += 1
            fakes.done(ctl)
            ctl = rec = g = None
    fakes.rmtree(snaps)
    return resumed


def test_cut_during_the_board_play_resumes_it():
    assert _cut_and_resume(["human", "board"], "strong", 21, 3, 8) > 20


def test_cut_during_board_against_board_at_the_easy_level():
    assert _cut_and_resume(["board", "board"], "easy", 22, 1, 25) > 60
