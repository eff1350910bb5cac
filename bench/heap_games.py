# Plays N random games through the public API and reports the peak heap; MicroPython only.
#   micropython -X heapsize=32K bench/heap_games.py [N] [--path DIR]
import gc
import sys

args = sys.argv[1:]
if "--path" in args:
    i = args.index("--path")
    sys.path.insert(0, args[i + 1])
    del args[i : i + 2]
else:
    sys.path.insert(0, (sys.argv[0].rsplit("/", 2)[0] or ".") + "/firmware")
    sys.path.insert(0, (sys.argv[0].rsplit("/", 2)[0] or ".") + "/native")
from gammon import Position, legal_plays  # noqa: E402
from gammon.dice import Dice, SeededBytes  # noqa: E402

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
