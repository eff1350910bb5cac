# Issue 27's engine probe, as a program outside the firmware uses gammon's public API: 100
# random games, each turn read back from its Position ID, its legal plays listed and a
# random play's result written as a Position ID again. tests/test_micropython.py runs it
# precompiled in a 32 KB MicroPython heap (issue 2's budget for the engine alone).
#   MICROPYPATH=<engine .mpy>:<firmware .mpy> micropython -X heapsize=32K -m probe_games
import gc

from gammon import Position, legal_plays
from gammon.dice import Dice, SeededBytes


def play(games, seed):
    """Plays `games` games; (plays made, most heap allocated at once, garbage included)."""
    dice = Dice(SeededBytes(seed))
    gc.collect()
    base = gc.mem_alloc()
    peak = moves = 0
    for _ in range(games):
        pid = Position.start().position_id()
        while True:
            p = Position.from_id(pid)
            if p.outcome():
                break
            plays = legal_plays(p, dice.roll())
            peak = max(peak, gc.mem_alloc() - base)
            if len(plays):
                p = plays[dice.die() * 7 % len(plays)].result
                moves += 1
            pid = (p if p.outcome() else p.swap()).position_id()
            del plays
    return moves, peak


moves, peak = play(100, 2024)
print("probe: 100 games, %d plays made, at most %d bytes allocated at once" % (moves, peak))
