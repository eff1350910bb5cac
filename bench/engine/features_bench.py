# The contact inputs' cost on the MicroPython unix port: the viper kernel
# (native/kernels/features.py) and its plain reference (firmware/gammon/features.py), both
# precompiled by mpy-cross for this machine as `make deploy` compiles them for a board.
#
#   python -m bench.engine.features_bench   (CPython: prints features_figures() as JSON)
#
# features_figures() makes a fixed seeded set of positions of random play (CPython's own
# engine from firmware/, found through the bench package), precompiles the two modules, and
# runs this same file under the unix port (`micropython features_bench.py BOARDS MODE`, MODE
# viper or plain, the precompiled tree on its MICROPYPATH), which times them and prints one
# JSON line. Figures (keys):
#   features_us_mean       both sides' inputs of one position by the kernel, microseconds,
#                          mean over the positions (each position's calls repeated and the
#                          best of 5 rounds taken; an empty loop's fastest time taken out)
#   features_us_max        the slowest position's, the same way
#   features_ref_us_mean   the plain reference's mean (one call a position, best of 3 rounds)
#   features_plain_us_mean the kernel as the web page runs it (viper stripped by
#                          ledgammon.web.bundle, plain bytecode), timed as the reference is
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

    from gammon import Position, legal_plays

    from bench import ROOT as root
    from bench import mp

    rnd = random.Random(seed)
    boards = []
    while len(boards) < count:
        p = Position.start()
        while not p.outcome() and len(boards) < count:
            boards.append(p.key())
            plays = legal_plays(p, (rnd.randint(1, 6), rnd.randint(1, 6)))
            p = plays[rnd.randrange(len(plays))].result.swap() if len(plays) else p.swap()

    def compile_to(out: str, src: str, march: bool = True) -> None:
        os.makedirs(os.path.dirname(out), exist_ok=True)
        flags = ["-march=host"] if march else []
        subprocess.run([mp.MPY_CROSS] + flags + ["-o", out, src], check=True)

    figures = {}
    with tempfile.TemporaryDirectory() as top:
        viper, plain = os.path.join(top, "viper"), os.path.join(top, "plain")
        for name in ("__init__", "compat", "features"):
            src = os.path.join(root, "native", "kernels", name + ".py")
            compile_to(os.path.join(viper, "kernels", name + ".mpy"), src)
        compile_to(os.path.join(viper, "ref", "gammon", "features.mpy"),
                   os.path.join(root, "firmware", "gammon", "features.py"))
        open(os.path.join(viper, "ref", "gammon", "__init__.py"), "w").close()  # no engine
        from ledgammon.web import bundle

        files = bundle.files(None)  # the page's kernels: plain bytecode, no -march
        for name in ("__init__", "compat", "features", "plain"):
            src = os.path.join(top, name + ".py")
            with open(src, "w") as f:
                f.write(files["kernels/%s.py" % name])
            compile_to(os.path.join(plain, "kernels", name + ".mpy"), src, march=False)
        cases = os.path.join(top, "boards.txt")
        with open(cases, "w") as f:
            f.write("".join(bytes(b).hex() + "\n" for b in boards))
        for tree, mode in ((viper, "viper"), (plain, "plain")):
            proc = subprocess.run(
                [mp.MICROPYTHON, "-X", "heapsize=1M",
                 os.path.abspath(__file__), cases, mode],
                capture_output=True, text=True, check=True, cwd=root,
                env=dict(os.environ, MICROPYPATH="%s:%s/ref" % (tree, tree)),
            )
            figures.update(json.loads(proc.stdout.strip().splitlines()[-1]))
    return figures


def _best_pass(inputs, boards, out, rounds):
    """The fastest of `rounds` passes calling inputs(board, out) once a board, microseconds."""
    from time import ticks_diff, ticks_us

    best = 1 << 30
    for _ in range(rounds):
        t = ticks_us()
        for b in boards:
            inputs(b, out)
        e = ticks_diff(ticks_us(), t)
        if e < best:
            best = e
    return best


def _run(cases, mode):
    """Under MicroPython: times the kernel (and, mode viper, the reference) found on
    MICROPYPATH."""
    import gc
    import json
    from array import array
    from binascii import unhexlify
    from time import ticks_diff, ticks_us

    with open(cases) as f:
        boards = [unhexlify(line.strip()) for line in f]
    n = len(boards)
    gc.collect()
    before = gc.mem_alloc()
    from kernels import features

    gc.collect()
    heap = gc.mem_alloc() - before
    out = array("i", bytes(8 * features.COUNT))
    if mode == "plain":
        plain = _best_pass(features.inputs, boards, out, 3)
        print(json.dumps({"features_plain_us_mean": plain / n}))
        return
    inputs = features.inputs
    empty = 1 << 30  # the loop's own time: its fastest of many runs, taken out of each figure
    for _ in range(200):
        t = ticks_us()
        for _ in range(CALLS):
            pass
        e = ticks_diff(ticks_us(), t)
        if e < empty:
            empty = e
    best = [1 << 30] * n
    for _ in range(5):
        for i in range(n):
            b = boards[i]
            t = ticks_us()
            for _ in range(CALLS):
                inputs(b, out)
            e = ticks_diff(ticks_us(), t)
            if e < best[i]:
                best[i] = e
    best = [e - empty if e > empty else 0 for e in best]
    from gammon import features as ref

    print(json.dumps({
        "features_us_mean": sum(best) / CALLS / n,
        "features_us_max": max(best) / CALLS,
        "features_ref_us_mean": _best_pass(ref.inputs, boards, None, 3) / n,
        "features_heap_bytes": heap,
        "features_positions": n,
    }))


if MICROPY:
    _run(sys.argv[1], sys.argv[2])
elif __name__ == "__main__":
    import json

    print(json.dumps(features_figures()))
