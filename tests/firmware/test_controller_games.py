# Whole games to the end with buttons alone, in both layouts (seeded electronic dice).
import gc

import fakes
from model.game import OVER


def _games(layout, seeds):
    for seed in seeds:
        gc.collect()
        ctl, rec = fakes.make(layout=layout, seed=seed, keep=0)
        fakes.play_game(ctl)
        rec.check()
        g = ctl.game
        v = ctl.view
        assert g.phase == OVER and v.winner == g.winner and v.result == g.result
        assert 1 <= g.result <= 3 and v.off[g.winner] == 15 and v.off[1 - g.winner] < 15
        assert rec.counts["over"] == 1 and rec.counts["roll"] == len(g.codes)
        assert rec.counts["step"] >= len(g.codes) - rec.counts.get("nomove", 0)
        assert rec.counts.get("error", 0) == 0  # the scripted player only presses lit targets
        n = len(g.codes)
        h = ctl.history_dict(False)
        assert h["winner"] == g.winner and h["result"] == g.result
        count = 0
        for turn in h["turns"]:  # one at a time: the whole list would not fit the heap
            assert turn["player"] == (g.first + count) % 2 and len(turn["dice"]) == 2
            count += 1
        assert count == n
        h = turn = None
        # one save a roll and one a move (a move of several dice is one press, one save)
        assert rec.counts["roll"] < ctl.store.writes <= rec.counts["step"] + rec.counts["roll"]
        fakes.done(ctl)
        ctl = rec = g = v = None


def test_games_full_layout():
    _games("full", (1, 2, 3))


def test_games_minimal_layout():
    _games("minimal", (1, 4, 5))


def test_the_board_counts_stay_whole():
    """After every press the view holds fifteen checkers a side (board, bar, off)."""
    gc.collect()
    ctl, rec = fakes.make(layout="minimal", seed=9, keep=0)
    v = ctl.view
    now = 100
    for _ in range(400):
        if ctl.game.phase == OVER:
            break
        now += 5
        fakes.play_step(ctl, now) if ctl.game.phase == 2 else ctl.press("ROLL", now)
        for p, pts in ((0, v.pts0), (1, v.pts1)):
            assert sum(pts) + v.bar[p] + v.off[p] == 15
    rec.check()
    fakes.done(ctl)
