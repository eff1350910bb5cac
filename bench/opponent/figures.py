"""make bench's figures of the board's opponent: its move choice and its cube decisions
under the MicroPython unix port, on the firmware precompiled as the board loads it, in a
small board's heap, in positions met in games of GNU Backgammon 0-ply against itself."""

from __future__ import annotations

import json
import os
import random
import sys

from gammon import Position

from bench import mp

CASES = os.path.join(mp.BENCH_BUILD, "opponent_cases.txt")  # opponent() writes, cube() reads


def game_cases(path: str, count: int = 400, seed: int = 3) -> int:
    """Positions and rolls met in games of GNU Backgammon 0-ply against itself (seeded dice),
    written as "position_id d1 d2" lines; returns how many games they took."""
    from bench.strength.match import opening
    from bench.strength.players import GnubgPlayer

    rng = random.Random(seed)
    player = GnubgPlayer()
    games = 1
    p, dice = Position.start(), opening(rng)
    with open(path, "w") as f:
        for _ in range(count):
            f.write("%s %d %d\n" % (p.position_id(), dice[0], dice[1]))
            play = player.choose(p, dice, 0)
            p = play.result if play else p
            if p.outcome():
                p, dice, games = Position.start(), opening(rng), games + 1
            else:
                p, dice = p.swap(), (rng.randint(1, 6), rng.randint(1, 6))
    return games


def opponent(figs: dict[str, float], heap: str = "64K") -> None:
    """The board's opponent under MicroPython, precompiled, in a small board's heap."""
    os.makedirs(mp.BENCH_BUILD, exist_ok=True)
    cases = CASES
    games = game_cases(cases)
    mp.compile_firmware(mp.MPY)
    weights = os.path.join("firmware", "weights.bin")  # the runs start in ROOT
    print(
        "== the board's opponent: move choice on the MicroPython unix port (-X heapsize=%s),"
        % heap
    )
    print("   positions from %d games of gnubg 0-ply against itself ==" % games, flush=True)
    script = "opponent.opponent_bench"
    # each board's network (deploy.WEIGHTS: the Pico's 40 units, the 64 of the boards with
    # room), its choices' times and one evaluation's: opponent_40_* and opponent_64_*
    for units, name, need in ((40, "weights.bin", heap), (64, "weights-64.bin", "96K")):
        print("-- the %d-unit network (firmware/%s) --" % (units, name), flush=True)
        proc = mp.run(script, [cases, os.path.join("firmware", name)], need, mp.MPY)
        lines = proc.stdout.rstrip().splitlines()
        done = proc.returncode == 0 and lines and lines[-1].startswith("{")
        print("\n".join(lines[:-1] if done else lines), flush=True)
        print(proc.stderr, end="", file=sys.stderr, flush=True)
        if done:
            for k, v in json.loads(lines[-1]).items():
                figs["opponent_%d_%s" % (units, k)] = v
    mp.run(script, ["--alloc", cases, weights], "4M", mp.MPY, capture=False)
    kb, _ = mp.smallest_heap(script, ["--worst", weights], mp.MPY)
    print(
        "smallest -X heapsize that loads the engine and the opponent and chooses in the"
        " worst-case positions at both levels: %d KB" % kb
    )
    figs["heap_smallest_kb_opponent_worst"] = kb
    print("targets: strong mean <= 5 ms, slowest <= 20 ms; weights <= 32 KB", flush=True)


def cube(figs: dict[str, float], heap: str = "96K") -> None:
    """The board's cube decisions (issue 14) on opponent()'s positions: time, allocation,
    and what the cube's code and table take on the heap."""
    weights = os.path.join("firmware", "weights.bin")
    print(
        "== the board's cube decisions on the MicroPython unix port (-X heapsize=%s), in"
        " the same positions ==" % heap,
        flush=True,
    )
    proc = mp.run("opponent.cube_bench", [CASES, weights], heap, mp.MPY)
    lines = proc.stdout.rstrip().splitlines()
    print("\n".join(lines[:-1]) if lines and lines[-1].startswith("{") else proc.stdout)
    print(proc.stderr, end="", file=sys.stderr, flush=True)
    if proc.returncode == 0 and lines and lines[-1].startswith("{"):
        figs.update(json.loads(lines[-1]))


def bearoff_run(compiled: bool = False) -> tuple[str, dict[str, float] | None]:
    """The bear-off table's bench (bench/opponent/bearoff_bench.py) on the unix port, on the
    firmware precompiled as the board loads it (mp.MPY, compiled first unless `compiled`: make
    bench's opponent() did): (its output, its figures or None)."""
    from ledgammon.train.bearoff_table import OUT, ensure

    from bench import ROOT

    table = ensure(os.path.join(ROOT, OUT))
    tree = mp.MPY
    if not compiled:
        mp.compile_firmware(tree)
    args = [os.path.join("firmware", "weights.bin"), table]
    proc = mp.run("opponent.bearoff_bench", args, "96K", tree)
    lines = proc.stdout.strip().splitlines()
    figs = None
    if proc.returncode == 0 and lines and lines[-1].startswith("{"):
        figs = json.loads(lines[-1])
    return proc.stdout + proc.stderr, figs


def bearoff(figs: dict[str, float]) -> None:
    """make bench's bear-off figures: a look-up's time, the reader's heap, the board's move
    in bear-offs by the table and by the network (bearoff_* keys)."""
    print("== the bear-off table: look-ups, heap, the board's move in 300 bear-offs ==",
          flush=True)
    out, fig = bearoff_run(compiled=True)  # opponent() compiled mp.MPY
    print("\n".join(x for x in out.splitlines() if not x.startswith("{")), flush=True)
    if fig:
        figs.update(fig)


def bearoff_main() -> int:
    """`python -m bench.opponent.bearoff_bench`: the figures printed, and kept in
    build/bench-bearoff.json."""
    from bench import BUILD

    out, figs = bearoff_run()
    print(out, end="")
    if figs is None:
        return 1
    with open(os.path.join(BUILD, "bench-bearoff.json"), "w") as f:
        json.dump(figs, f, indent=1)
    return 0
