# Times legal_plays over a fixed set of positions; runs under MicroPython and CPython.
#   python -m bench.mp --heap 16M engine.engine_bench CASES_FILE   (lines: "position_id d1 d2")
#   python -m bench.engine.engine_bench CASES_FILE
# Prints one JSON line of figures.
import json
import sys

from gammon import Position, legal_plays
from hw.ticks import ticks_diff, ticks_us


def load(path):
    cases = []
    with open(path) as f:
        for line in f:
            pid, d1, d2 = line.split()
            cases.append((Position.from_id(pid), (int(d1), int(d2))))
    return cases


def run(cases, repeat):
    total = 0
    first = 0
    plays = 0
    worst = 0
    worst_case = None
    for p, dice in cases:
        best = 1 << 30
        for i in range(repeat):
            t = ticks_us()
            n = len(legal_plays(p, dice))
            e = ticks_diff(ticks_us(), t)
            if i == 0:
                first += e  # as a game meets it, garbage collections included
            if e < best:
                best = e
        total += best
        plays += n
        if best > worst:
            worst = best
            worst_case = "%s %d-%d" % (p.position_id(), dice[0], dice[1])
    return {
        "positions": len(cases),
        "mean_us": total / len(cases),
        "mean_single_us": first / len(cases),
        "plays_per_s": int(plays * 1000000 / max(total, 1)),
        "slowest_us": worst,
        "slowest": worst_case,
    }


def main():
    cases = load(sys.argv[1])
    out = {"impl": sys.implementation.name, "random": run(cases, 3)}
    for pid in ("AAAA/3+UUkpJKQ", "d7cNAABUqqqqAA"):
        p = Position.from_id(pid)
        best = 1 << 30
        for _ in range(5):
            t = ticks_us()
            n = len(legal_plays(p, (1, 1)))
            best = min(best, ticks_diff(ticks_us(), t))
        out[pid] = {"plays": n, "us": best}
    print(json.dumps(out))


main()
