# The board's cube decisions (issue 14): their time, what they allocate, what they load.
#
#   python -m bench.mp --heap 96K [--path DIR] opponent.cube_bench [--limit N] CASES WEIGHTS
#
# --path DIR goes first on the path (bench/mp.py): the firmware precompiled with mpy-cross,
# as the board loads it. CASES holds "POSITION_ID D1 D2" lines (make bench's positions from
# real games; the dice are not used). In each position, the player on roll decides before its throw
# (gammon/cube_play.decide: resign, double or throw) and, when it may double, the other
# answers its double (cube_play.answer), as the board's player does (control/autoplay_cube),
# at both levels: in money play (the cube centred, or the roller's at 2) and at a 7-point
# match's score (the scores, the Crawford game and the post-Crawford games taken in turn).
# Each decision is timed whole, its network evaluation and garbage collections included.
# Heap: gc.mem_alloc() before and after importing the cube's modules (its code and the
# match equity table, gammon/met.py), the table's own bytes, and the most one decision
# allocates (the collector off). The last line is the figures as JSON; never asserts.
import gc
import json
import sys

from gammon import Position
from gammon.match import Match
from gammon.opponent import Opponent
from hw.ticks import ticks_diff, ticks_us
from kernels.net import Net

LEVELS = ("strong", "easy")
LENGTH = 7  # the match of issue 14's proof


def load_cube():
    """(bytes the cube's modules take on the heap, the table's bytes, the modules)."""
    gc.collect()
    before = gc.mem_alloc()
    from gammon import cube_easy, cube_play, met, score_values  # noqa: F401 (loaded: counted)

    gc.collect()
    return gc.mem_alloc() - before, len(met.TABLE), cube_play


def state(i):
    """The terms of decision i: money play (cube centred, or the roller's at 2) or a score
    of a 7-point match (Crawford and post-Crawford games among them), before any offer."""
    kind = i % 4
    if kind == 0:
        return Match(0, True, True)
    if kind == 1:
        m = Match(0, True, True)
        m.resume((0, 0), False, False, 1, 2, 0)
        return m
    m = Match(LENGTH, True, True)
    a, b = (i // 4) % LENGTH, (i // 28) % LENGTH
    crawford = LENGTH - 1 in (a, b) and a != b and kind == 2
    post = LENGTH - 1 in (a, b) and a != b and not crawford
    m.resume((a, b), crawford, post, 2, 1, -1)
    return m


def decisions(cube_play, net, position, i, level):
    """[(kind, microseconds, result)] of the decisions made in `position` (decision i)."""
    out = []
    m = state(i)
    t = ticks_us()
    what = cube_play.decide(net, position, m, 0, level)
    out.append(("decide", ticks_diff(ticks_us(), t), what))
    if m.may_double(0):
        m.double(0)
        t = ticks_us()
        what = cube_play.answer(net, position, m, 0, level)
        out.append(("answer", ticks_diff(ticks_us(), t), what))
    return out


def allocated(cube_play, net, position, i, level):
    """Bytes the decisions in `position` allocate, the collector off."""
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    try:
        decisions(cube_play, net, position, i, level)
        return gc.mem_alloc() - before
    finally:
        gc.enable()


def main(args):
    limit = None
    if "--limit" in args:
        at = args.index("--limit")
        limit = int(args[at + 1])
        del args[at : at + 2]
    if len(args) != 2:
        print("usage: python -m bench.mp [--path DIR] opponent.cube_bench [--limit N] CASES"
              " WEIGHTS")
        return 2
    net = Opponent(Net(args[1])).net
    heap, table, cube_play = load_cube()
    total = slowest = n = i = alloc = 0
    counts = {}
    with open(args[0]) as f:  # a line at a time: a list of 400 IDs wants a block of 4 KB
        for line in f:
            if limit is not None and i >= limit:
                break
            if not line.strip():
                continue
            position = Position.from_id(line.split()[0])
            for level in LEVELS:
                for kind, us, what in decisions(cube_play, net, position, i, level):
                    n += 1
                    total += us
                    slowest = max(slowest, us)
                    key = "%s %s" % (kind, what[0] if type(what) is tuple else what)
                    counts[key] = counts.get(key, 0) + 1
                if i % 8 == 0:
                    alloc = max(alloc, allocated(cube_play, net, position, i, level))
            i += 1
    mean = total / n if n else 0.0
    print("cube decisions: %d in %d positions, %s" % (n, i, counts))
    print("  %.3f ms mean, %.3f ms slowest (target: at most 5 ms, issue 14)"
          % (mean / 1000, slowest / 1000))
    print("  the cube's code and table on the heap %d bytes (the table %d bytes); one"
          " decision allocates at most %d bytes" % (heap, table, alloc))
    fig = {
        "cube_decisions": n,
        "cube_decision_us_mean": round(mean, 1),
        "cube_decision_us_max": slowest,
        "cube_decision_alloc_max_bytes": alloc,
        "cube_heap_bytes": heap,
        "cube_table_bytes": table,
    }
    print(json.dumps(fig))
    return 0


sys.exit(main(sys.argv[1:]))
