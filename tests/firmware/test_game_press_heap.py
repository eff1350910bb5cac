# A press allocates little (issue 11): in the positions with the most legal plays, each press
# of a turn (the checker picked up, put down, taken back, the turn passed) with its events,
# view and save stays within a few kilobytes, so the board's heap does not fragment.
import gc

import fakes
from allocs import Allocated
from display.view import button_of_target, target_of
from gammon.play import legal_plays
from gammon.position import Position
from model.game import MOVE, OVER

BOUND = 4096  # bytes a press may allocate, its save included (issue 11's figure)
WORST = "AAAA/3+UUkpJKQ"  # 1-1 has 2,226 plays here (NOTES.md), the most known
SPREAD = "d7cNAABUqqqqAA"  # 1-1 has 1,720
START = "4HPwATDgc/ABMA"  # doubles early in the game: 42-75 plays


def _press(ctl, pt, now):
    """The button of the mover's point `pt` (25 the bar)."""
    return ctl.press(button_of_target(target_of(ctl.game.turn, pt)), now)


def _turn(ctl, allocated, now):
    """Every press of a turn: each checker picked up, put back, picked up and moved to its
    farthest point; UNDO once; ROLL to pass (unless the game is won). The most one
    allocated."""
    g = ctl.game
    worst = 0
    undone = False
    while g.phase == MOVE:
        frm = ctl.movable[0]
        for _ in range(3):  # picked up, put back (a second press), picked up again
            now += 10
            worst = max(worst, allocated(_press, ctl, frm, now))
        assert ctl.sel == frm and ctl.dests
        to = min(ctl.dests)
        n = len(g.steps())
        now += 10
        worst = max(worst, allocated(_press, ctl, to, now))
        assert len(g.steps()) > n  # moved
        if not undone:  # its last single step taken back, once a turn
            undone = True
            m = len(g.steps())
            now += 10
            worst = max(worst, allocated(ctl.press, "UNDO", now))
            assert len(g.steps()) == m - 1 and g.phase == MOVE
    if g.phase != OVER:
        now += 10
        worst = max(worst, allocated(ctl.press, "ROLL", now))  # the turn passes, a throw
    assert worst <= BOUND, worst
    return now


def test_a_press_in_the_positions_of_most_plays_allocates_at_most_4_kb():
    allocated = Allocated()
    for pid, dice in ((WORST, (1, 1)), (SPREAD, (1, 1)), (START, (2, 2)), (START, (1, 1))):
        gc.collect()
        ctl, rec = fakes.make(keep=0)
        g = ctl.game
        g.setup(Position.from_id(pid), 0)
        assert len(legal_plays(Position.from_id(pid), dice)) >= 42
        gc.collect()
        assert ctl.roll(10, dice)[0] and g.phase == MOVE and not g.turn_state.forced
        now = _turn(ctl, allocated, 20)
        # the other side, then turns to a long game's record in the save
        for _ in range(60):
            if g.phase == MOVE:
                now = _turn(ctl, allocated, now)
            elif g.phase != OVER:
                now += 10
                ctl.press("ROLL", now)
            else:
                break
        rec.check()
        assert rec.counts.get("error", 0) == 0 and (g.phase == OVER or len(g.codes) > 20)
        fakes.done(ctl)
        ctl = rec = g = None
    print("most a press allocated: %d bytes" % allocated.most)
