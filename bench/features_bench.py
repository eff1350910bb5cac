# The contact inputs' cost on the MicroPython unix port: the viper kernel
# (native/kernels/features.py) and its plain reference (firmware/gammon/features.py), both
# precompiled by mpy-cross for this machine as `make deploy` compiles them for a board.
#
#   python bench/features_bench.py        (CPython: prints features_figures() as JSON)
#
# features_figures() makes a fixed seeded set of positions of random play (CPython's own
# engine from firmware/), precompiles the two modules, and runs this same file under the
# unix port (`micropython bench/features_bench.py DIR BOARDS`), which times them and prints
# one JSON line. Figures (keys):
#   features_us_mean       both sides' inputs of one position by the kernel, microseconds,
#                          mean over the positions (each position's calls repeated and the
#                          best of 5 rounds taken; an empty loop's own time taken out)
#   features_us_max        the slowest position's, the same way
#   features_ref_us_mean   the plain reference's mean (one call a position, best of 3 rounds)
#   features_heap_bytes    what importing the kernel takes on the heap (its code and its
#                          4 KB escapes table), gc.mem_alloc() before and after
#   features_positions     positions timed
# Never asserts.
import sys

MICROPY = sys.implementation.name == "micropython"
SEED = 30  # issue 30
POSITIONS = 400
CALLS = 64  # calls of the kernel a position per round: each well above the clock's 1 us


def features_figures(count: int = POSITIONS, seed: int = SEED) -> dict:
    """The figures above, as a dict (CPython; runs the unix port from the venv's bin/)."""
    import json
    import os
    import random
    import subprocess
    import tempfile

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sys.path.insert(0, os.path.join(root, "firmware"))
    sys.path.insert(0, os.path.join(root, "native"))
    from gammon import Position, legal_plays

    rnd = random.Random(seed)
    boards = []
    while len(boards) < count:
        p = Position.start()
        while not p.outcome() and len(boards) < count:
            boards.append(p.key())
            plays = legal_plays(p, (rnd.randint(1, 6), rnd.randint(1, 6)))
            p = plays[rnd.randrange(len(plays))].result.swap() if len(plays) else p.swap()
    bin_dir = os.path.dirname(sys.executable)
    with tempfile.TemporaryDirectory() as top:
        modules = (
            ("native", "kernels/__init__.py"),
            ("native", "kernels/compat.py"),
            ("native", "kernels/features.py"),
            ("firmware", "gammon/features.py"),
        )
        os.makedirs(os.path.join(top, "kernels"))
        os.makedirs(os.path.join(top, "ref", "gammon"))
        open(os.path.join(top, "ref", "gammon", "__init__.py"), "w").close()  # no engine
        for base, rel in modules:
            out = os.path.join(top, "ref" if base == "firmware" else "", rel[:-3] + ".mpy")
            subprocess.run(
                [os.path.join(bin_dir, "mpy-cross"), "-march=host", "-o", out,
                 os.path.join(root, base, rel)],
                check=True,
            )
        cases = os.path.join(top, "boards.txt")
        with open(cases, "w") as f:
            f.write("".join(bytes(b).hex() + "\n" for b in boards))
        proc = subprocess.run(
            [os.path.join(bin_dir, "micropython"), "-X", "heapsize=1M",
             os.path.abspath(__file__), top, cases],
            capture_output=True, text=True, check=True, cwd=root,
        )
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _run(top, cases):
    """Under MicroPython: times the kernel from `top` and the reference from top/ref."""
    import gc
    import json
    from array import array
    from binascii import unhexlify
    from time import ticks_diff, ticks_us

    sys.path.insert(0, top + "/ref")
    sys.path.insert(0, top)
    with open(cases) as f:
        boards = [unhexlify(line.strip()) for line in f]
    gc.collect()
    before = gc.mem_alloc()
    from kernels import features

    gc.collect()
    heap = gc.mem_alloc() - before
    out = array("i", bytes(8 * features.COUNT))
    inputs = features.inputs
    best = [1 << 30] * len(boards)
    for _ in range(5):
        for i in range(len(boards)):
            b = boards[i]
            t = ticks_us()
            for _ in range(CALLS):
                pass
            empty = ticks_diff(ticks_us(), t)
            t = ticks_us()
            for _ in range(CALLS):
                inputs(b, out)
            e = ticks_diff(ticks_us(), t) - empty
            if e < best[i]:
                best[i] = e
    from gammon import features as ref

    ref_best = 1 << 30
    for _ in range(3):
        t = ticks_us()
        for b in boards:
            ref.inputs(b, None)
        e = ticks_diff(ticks_us(), t)
        if e < ref_best:
            ref_best = e
    n = len(boards)
    print(json.dumps({
        "features_us_mean": sum(best) / CALLS / n,
        "features_us_max": max(best) / CALLS,
        "features_ref_us_mean": ref_best / n,
        "features_heap_bytes": heap,
        "features_positions": n,
    }))


if MICROPY:
    _run(sys.argv[1], sys.argv[2])
elif __name__ == "__main__":
    import json

    print(json.dumps(features_figures()))
