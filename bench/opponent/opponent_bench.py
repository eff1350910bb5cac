# The board's opponent: time to choose a move at each level, network evaluations, weights, heap.
#
#   python -m bench.mp --heap 64K [--path DIR] opponent.opponent_bench CASES WEIGHTS
#
#   python -m bench.mp --heap 1M [--path DIR] opponent.opponent_bench --alloc CASES WEIGHTS
#   python -m bench.mp --heap NK [--path DIR] opponent.opponent_bench --worst WEIGHTS
#
# --path DIR goes first on the path (bench/mp.py): the firmware precompiled with mpy-cross, as
# the board loads it. CASES holds "POSITION_ID D1 D2" lines (make bench writes positions met in
# real games); each is chosen once per level, garbage collections included, as a game meets it.
# The worst-case positions known (1-1 in AAAA/3+UUkpJKQ and d7cNAABUqqqqAA) are timed apart,
# slowest of 3. Heap: gc.mem_alloc() before and after importing the opponent's modules and
# loading the weights; --alloc: the most a single choice allocates (GC off, so an upper bound of
# what it holds at once, and more than a small heap holds); --worst only chooses in the
# worst-case positions, for make bench to find the smallest heap that can. Prints lines of text;
# never asserts.
import gc
import json
import os
import sys

# chance.py (beside this), the easy level's chance as bench.strength gives it, is imported
# before the measures: it is the bench's, not the board's
from chance import chance

ARGS = sys.argv[1:]

gc.collect()
_BASE = gc.mem_alloc()
from gammon import Position  # noqa: E402
from hw.ticks import ticks_diff, ticks_us  # noqa: E402

WORST = (("AAAA/3+UUkpJKQ", (1, 1)), ("d7cNAABUqqqqAA", (1, 1)))
LEVELS = ("strong", "easy")


def load_opponent(weights):
    """(opponent, bytes its modules took, bytes the weights and buffers took)."""
    gc.collect()
    before = gc.mem_alloc()
    from gammon.opponent import Opponent
    from kernels.net import Net

    gc.collect()
    loaded = gc.mem_alloc()
    opponent = Opponent(Net(weights))
    gc.collect()
    return opponent, loaded - before, gc.mem_alloc() - loaded


def choose(opponent, chance, position, dice, level, seed):
    """(microseconds, evaluations) of one choice."""
    rand = chance(seed) if level == "easy" else None
    t = ticks_us()
    opponent.choose(position, dice, level, rand)
    return ticks_diff(ticks_us(), t), opponent.evaluations


def allocated(opponent, chance, position, dice, level):
    """Bytes one choice allocates, the collector off."""
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    try:
        choose(opponent, chance, position, dice, level, 1)
        return gc.mem_alloc() - before
    finally:
        gc.enable()
        gc.collect()


def game_positions(opponent, chance, path):
    """Per level: [count, total us, slowest us, its case, total evaluations, most], streaming
    the cases file (a small heap does not hold them all)."""
    stats = {level: [0, 0, 0, "", 0, 0] for level in LEVELS}
    for n, (pid, position, dice) in enumerate(read_cases(path)):
        for level in LEVELS:
            us, evals = choose(opponent, chance, position, dice, level, n + 1)
            s = stats[level]
            s[0] += 1
            s[1] += us
            if us > s[2]:
                s[2], s[3] = us, "%s %d-%d" % (pid, dice[0], dice[1])
            s[4] += evals
            s[5] = max(s[5], evals)
    return stats


def read_cases(path):
    with open(path) as f:
        for line in f:
            pid, d1, d2 = line.split()
            yield pid, Position.from_id(pid), (int(d1), int(d2))


def timings(opponent, chance, cases):
    """Prints each level's times; returns them as figures: per level its mean and slowest
    choice (us), its evaluations, and the time of one evaluation (the choice's time over its
    evaluations: the network's cost with the search's share)."""
    figs = {}
    stats = game_positions(opponent, chance, cases)
    for level in LEVELS:
        n, total, slowest, where, evals, most = stats[level]
        print(
            "%-6s over %d game positions: mean %.2f ms, slowest %.2f ms (%s); "
            "evaluations mean %.0f, most %d; %.1f us an evaluation"
            % (level, n, total / n / 1000, slowest / 1000, where, evals / n, most,
               total / max(evals, 1))
        )
        figs[level + "_mean_us"] = total // n
        figs[level + "_max_us"] = slowest
        figs[level + "_evals_mean"] = evals / n
        figs[level + "_us_per_eval"] = total / max(evals, 1)
    for pid, dice in WORST:
        position = Position.from_id(pid)
        for level in LEVELS:
            try:
                runs = [choose(opponent, chance, position, dice, level, 7) for _ in range(3)]
            except MemoryError:
                print("%-6s %s %d-%d: MemoryError" % (level, pid, dice[0], dice[1]))
                continue
            print(
                "%-6s %s %d-%d: slowest of 3 %.2f ms, %d evaluations"
                % (level, pid, dice[0], dice[1], max(r[0] for r in runs) / 1000, runs[0][1])
            )
    return figs


def allocations(opponent, chance, cases):
    """The most one choice allocates, over every 10th game position and the worst ones."""
    sample = [(p, d) for n, (_, p, d) in enumerate(read_cases(cases)) if n % 10 == 0]
    sample += [(Position.from_id(pid), dice) for pid, dice in WORST]
    for level in LEVELS:
        most = max(allocated(opponent, chance, p, d, level) for p, d in sample)
        print("%-6s a single choice allocates at most %d bytes (GC off)" % (level, most))


def main():
    mode = ARGS.pop(0) if ARGS and ARGS[0] in ("--alloc", "--worst") else ""
    if len(ARGS) != (1 if mode == "--worst" else 2):
        print("usage: python -m bench.mp [--path DIR] opponent.opponent_bench [--alloc] CASES"
              " WEIGHTS")
        print("       python -m bench.mp [--path DIR] opponent.opponent_bench --worst WEIGHTS")
        return 2
    weights = ARGS[-1]
    gc.collect()
    engine = gc.mem_alloc() - _BASE
    opponent, modules, data = load_opponent(weights)

    if mode == "--worst":  # the smallest heap that runs this: see bench/run.py
        for pid, dice in WORST:
            for level in LEVELS:
                choose(opponent, chance, Position.from_id(pid), dice, level, 7)
        print("chose in the worst-case positions at both levels")
    elif mode == "--alloc":
        allocations(opponent, chance, ARGS[0])
    else:
        print("weights: %s, %d bytes" % (weights, os.stat(weights)[6]))
        print(
            "heap: the rules engine %d bytes; the opponent adds %d (modules %d, weights and "
            "buffers %d)" % (engine, modules + data, modules, data)
        )
        figs = timings(opponent, chance, ARGS[0])
        figs["weights_bytes"] = os.stat(weights)[6]
        print(json.dumps(figs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
