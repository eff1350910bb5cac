"""make bench's rules-engine figures: `legal_plays` over positions of random games under the
MicroPython unix port, CPython and GNU Backgammon's C generator, and the smallest heap in
which 100 random games complete on the firmware precompiled as the board loads it."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time

from gammon import Position, legal_plays

from bench import ROOT, mp
from bench.figures import flat, last_json


def make_cases(path: str, count: int = 2000, seed: int = 1) -> list[tuple[str, tuple[int, int]]]:
    """Positions from random games with random dice, plus the worst doubles known."""
    rng = random.Random(seed)
    cases: list[tuple[str, tuple[int, int]]] = []
    while len(cases) < count:
        p = Position.start()
        while len(cases) < count:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            cases.append((p.position_id(), dice))
            plays = legal_plays(p, dice)
            if plays:
                p = plays[rng.randrange(len(plays))].result
            if p.outcome():
                break
            p = p.swap()
    cases += [("AAAA/3+UUkpJKQ", (1, 1)), ("d7cNAABUqqqqAA", (1, 1))]
    with open(path, "w") as f:
        for pid, (a, b) in cases:
            f.write("%s %d %d\n" % (pid, a, b))
    return cases


def gnubg_figures(cases: list[tuple[str, tuple[int, int]]]) -> dict[str, float] | None:
    try:
        import gnubg
    except ImportError:
        return None
    ctx = gnubg.evalcontext(0, 0, 1, 0, 0.0)
    cube = gnubg.cubeinfo()
    boards = [(gnubg.positionfromid(pid), d) for pid, d in cases]
    for b, d in boards:  # warm gnubg's caches, as the engine's runs are warm too
        gnubg.findbestmoves(b, cube, ctx, d)
    total = 0.0
    plays = 0
    worst = 0.0
    for b, d in boards:
        t = time.perf_counter()
        plays += len(gnubg.findbestmoves(b, cube, ctx, d))
        e = time.perf_counter() - t
        total += e
        worst = max(worst, e)
    return {
        "mean_us": total / len(boards) * 1e6,
        "plays_per_s": plays / total,
        "slowest_us": worst * 1e6,
    }


def engine(figs: dict[str, float]) -> None:
    """legal_plays timed under MicroPython, CPython and gnubg, and the heap random games take."""
    os.makedirs(mp.BENCH_BUILD, exist_ok=True)
    cases_file = os.path.join(mp.BENCH_BUILD, "cases.txt")
    cases = make_cases(cases_file)
    print("== rules engine: legal_plays over %d positions (2,000 from random games," % len(cases))
    print("   random dice, plus the worst doubles known); best of 3 per position ==")
    mpy_fig = last_json(mp.run("engine.engine_bench", [cases_file], "16M"))
    cmd = [sys.executable, "-m", "bench.engine.engine_bench", cases_file]
    cp = last_json(subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT))
    gn = gnubg_figures(cases)
    flat("engine_micropython", mpy_fig, figs)
    flat("engine_cpython", cp, figs)
    if gn:
        flat("engine_gnubg", gn, figs)
    features(figs)
    for name, fig in (("MicroPython unix port", mpy_fig), ("CPython", cp)):
        r = fig["random"]
        print(
            "%-22s mean %6.1f us (single runs, GC included: %.1f)  %d plays/s"
            % (name, r["mean_us"], r["mean_single_us"], r["plays_per_s"])
        )
        print("%-22s   slowest %d us (%s)" % ("", r["slowest_us"], r["slowest"]))
        for pid in ("AAAA/3+UUkpJKQ", "d7cNAABUqqqqAA"):
            print(
                "%-22s   %s 1-1: %d plays in %d us" % ("", pid, fig[pid]["plays"], fig[pid]["us"])
            )
    if gn:
        print(
            "%-22s mean %6.1f us  %9d plays/s  slowest %6d us"
            % ("gnubg (C, from Python)", gn["mean_us"], gn["plays_per_s"], gn["slowest_us"])
        )
        print(
            "ratio MicroPython/gnubg mean time: %.2f   CPython/gnubg: %.2f"
            % (mpy_fig["random"]["mean_us"] / gn["mean_us"],
               cp["random"]["mean_us"] / gn["mean_us"])
        )
    print(
        "targets: mean <= 30 us, slowest <= 1000 us, AAAA/3+UUkpJKQ 1-1 <= 3000 us (MicroPython)"
    )

    mp.compile_firmware(mp.MPY)
    kb, line = mp.smallest_heap("engine.heap_games", ["100"], mp.MPY)
    print("== heap: 100 random games, firmware precompiled with mpy-cross ==")
    print("smallest -X heapsize that completes them: %d KB (target: 32 KB fits)" % kb)
    figs["heap_smallest_kb_engine_games"] = kb
    print("at that size: %s" % line)


def features(figs: dict[str, float]) -> None:
    """The contact inputs (issue 30): the viper kernel, its plain reference and the web
    page's plain bytecode, per position, and the kernel's heap."""
    from bench.engine.features_bench import features_figures

    fig = features_figures()
    figs.update(fig)
    print(
        "== contact inputs (native/kernels/features.py), %d positions of random games =="
        % fig["features_positions"]
    )
    print(
        "viper kernel           mean %5.2f us, slowest %5.2f us (the reference %.0f us, the "
        "page's plain bytecode %.0f us); %d B of heap imported"
        % (fig["features_us_mean"], fig["features_us_max"], fig["features_ref_us_mean"],
           fig["features_plain_us_mean"], fig["features_heap_bytes"])
    )
