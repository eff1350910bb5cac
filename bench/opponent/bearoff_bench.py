# The bear-off table on the board: a look-up's time, the heap the reader takes, and the
# board's move in bear-offs with the table and with the network alone.
#
#   python -m bench.opponent.bearoff_bench   (the host: makes the table if missing,
#                                             precompiles the firmware, runs the below)
#   python -m bench.mp --heap 96K [--path DIR] opponent.bearoff_bench WEIGHTS TABLE [N]
#
# N bear-off positions (default 300: both sides home, one off each, a roll with more than one
# play) come from a fixed LCG, the same on both interpreters. Times are the unix port's
# (about 180 times that on an RP2040, NOTES.md). Prints lines, then the figures as JSON.
import gc
import sys

if sys.implementation.name != "micropython":  # the host: bench/opponent/figures.py
    from bench.opponent.figures import bearoff_main

    sys.exit(bearoff_main())

from array import array

from gammon import Position, legal_plays
from hw.ticks import ticks_diff, ticks_us


class Lcg:
    def __init__(self, seed):
        self.x = seed

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x3FFFFFFF
        return (self.x >> 8) % n


def side(rng):
    counts = [0] * 25
    for _ in range(1 + rng.below(14)):
        counts[min(rng.below(6), rng.below(6))] += 1
    return counts


def cases(n, seed=1):
    """The same `n` (position, dice) each time, one at a time (a list of them would take
    more of the heap than the choices)."""
    rng = Lcg(seed)
    made = 0
    while made < n:
        pos = Position(side(rng), side(rng))
        dice = (1 + rng.below(6), 1 + rng.below(6))
        if len(legal_plays(pos, dice)) > 1:
            made += 1
            yield pos, dice


def timed_choices(opp, items, level):
    """(mean us, slowest us) of one choice a position."""
    from gammon.opponent import chance

    total = 0
    worst = 0
    k = 0
    for pos, dice in items:
        rand = chance(k) if level == "easy" else None
        k += 1
        gc.collect()
        t = ticks_us()
        opp.choose(pos, dice, level, rand)
        dt = ticks_diff(ticks_us(), t)
        total += dt
        worst = max(worst, dt)
    return total // k, worst


def main(args):
    weights, path = args[0], args[1]
    n = int(args[2]) if len(args) > 2 else 300
    figs = {}
    from gammon.opponent import Opponent
    from kernels.net import Net

    net = Net(weights)
    gc.collect()
    before = gc.mem_alloc()
    from gammon.bearoff import ROLLS
    from gammon.endgame import load

    gc.collect()
    code = gc.mem_alloc() - before
    endgame = load(net, path=path)  # with the first-off table: gammons too
    f = endgame.table._file
    gc.collect()
    data = gc.mem_alloc() - before - code
    figs["bearoff_heap_code_bytes"] = code
    figs["bearoff_heap_reader_bytes"] = data
    print("heap: the reader's and the endgame's code %d bytes, the two tables on a file with"
          " their Endgame %d bytes (the tables themselves stay in the file)" % (code, data))
    table = endgame.table
    out = array("I", bytes(4 * ROLLS))
    rng = Lcg(7)
    idx = [rng.below(table.positions) for _ in range(2000)]
    gc.collect()
    t = ticks_us()
    for i in idx:
        table.rolls(i, out)
    us = ticks_diff(ticks_us(), t) / len(idx)
    figs["bearoff_lookup_us"] = us
    print("a distribution read by seek from the file: %.1f us (2,000 random positions)" % us)
    spent = 0
    for pos, _ in cases(n):
        b = pos.key()
        endgame._roll_index = endgame._other_index = -1  # both sides read again
        t = ticks_us()
        endgame.equity(b, 0)
        spent += ticks_diff(ticks_us(), t)
    us = spent / n
    figs["bearoff_equity_us"] = us
    print("a bear-off's equity from the table (two look-ups and the sum): %.1f us" % us)
    plain = Opponent(net)
    tabled = Opponent(net, endgame)
    for level in ("strong", "easy"):
        for name, opp in (("network", plain), ("table", tabled)):
            mean, worst = timed_choices(opp, cases(n), level)
            figs["bearoff_%s_%s_mean_us" % (level, name)] = mean
            figs["bearoff_%s_%s_max_us" % (level, name)] = worst
            print("%s move in %d bear-offs, %s: %.2f ms mean, %.2f ms slowest" % (
                level, n, name, mean / 1000, worst / 1000))
    f.close()
    import json

    print(json.dumps(figs))


main(sys.argv[1:])
