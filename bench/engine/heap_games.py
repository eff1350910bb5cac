# Plays N random games through the public API and reports the peak heap; MicroPython only.
#   python -m bench.mp --heap 32K [--path DIR] engine.heap_games [N]
import gc
import sys

from gammon import Position, legal_plays
from gammon.dice import Dice, SeededBytes

args = sys.argv[1:]
games = int(args[0]) if args else 100
dice = Dice(SeededBytes(2024))
peak = 0
base = gc.mem_alloc()
moves = 0
for _ in range(games):
    p = Position.start()
    while not p.outcome():
        plays = legal_plays(p, dice.roll())
        used = gc.mem_alloc() - base
        if used > peak:
            peak = used
        if len(plays):
            p = plays[dice.die() * 7 % len(plays)].result
            moves += 1
        p = p.swap() if not p.outcome() else p
        del plays
print("games %d, plays made %d, most heap in use at once %d bytes" % (games, moves, peak))
