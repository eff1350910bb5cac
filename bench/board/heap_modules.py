# Where the heap of a game against the board goes, module by module; runs under MicroPython.
#
#   MICROPYPATH=.frozen:DIR micropython -X heapsize=4096K -m heap_modules
#
# DIR is bench/board/targets.py's deploy tree (the firmware as `make deploy` compiles it, with
# board_bench beside it). One game of board_bench's heap mode, every import of it measured in
# heap: each module's own share (its code, its qstrs, what its import allocates; a module's
# imports counted apart), then what stays in use after the imports, with the app built, at
# the busiest moment between two steps and after the game; the qstrs the firmware made and
# how many more fit before MicroPython allocates its next qstr pool (which doubles: 1,280
# entries, ~14 KB at once on this port, when the 1,260 of the first six are full). One JSON
# line, after qstr_info's. A module's share depends on the order of loading (a qstr or a
# pool is charged to the first module that needs it); the totals do not.
import builtins
import gc
import json
import sys

import micropython

_import = builtins.__import__
_stack = []  # the heap the imports under way took for their own imports
_own = {}  # module -> bytes of its own
_order = []


def _full(name, args):
    """The dotted name of an import (relative ones resolved from the importer's globals)."""
    if len(args) >= 4 and args[3]:
        g = args[0]
        pkg = g.get("__name__", "")
        if not g.get("__path__"):
            pkg = pkg.rpartition(".")[0]
        return pkg + "." + name if name else pkg
    return name


def _counted(name, *args):
    full = _full(name, args)
    if full in sys.modules:
        return _import(name, *args)
    gc.collect()
    m0 = gc.mem_alloc()
    _stack.append(0)
    try:
        mod = _import(name, *args)
    finally:
        theirs = _stack.pop()
    gc.collect()
    took = gc.mem_alloc() - m0
    if _stack:
        _stack[-1] += took
    if full in sys.modules and full not in _own:
        _own[full] = took - theirs
        _order.append(full)
    return mod


def _in_use():
    gc.collect()
    return gc.mem_alloc()


def _headroom(limit=2000):
    """How many new qstrs fit before the next pool is allocated (a jump of over 4 KB)."""

    class Names:
        pass

    o = Names()
    before = _in_use()
    for i in range(limit):
        name = "zq_%d" % i
        setattr(o, name, None)  # interns the name: a new qstr
        delattr(o, name)
        if i % 4 == 3:
            now = _in_use()
            if now - before > 4096:
                return i - 3
            before = now
    return limit


def main():
    base = _in_use()
    builtins.__import__ = _counted
    try:
        import board_bench

        imports = _in_use() - base
        rig = board_bench.Rig(1, '["human","board"]', board_bench.FAST_PACE)
        built = _in_use() - base
        peak = [0]

        def step(kind, func, *args):
            func(*args)
            used = _in_use()
            if used > peak[0]:
                peak[0] = used

        if hasattr(board_bench, "_call"):  # each step of the game, the heap looked at after it
            board_bench._call = step
        if not board_bench.play_game(rig):
            raise RuntimeError("the game did not end")
        errors = rig.sink.errors + rig.sink.refused
        rig.close()
        after = _in_use() - base
        del rig
    finally:
        builtins.__import__ = _import
    micropython.qstr_info()  # its line (n_qstr=..., n_total_bytes=...): targets.py reads it
    table = sorted(((_own[m], m) for m in _order), reverse=True)
    out = {
        "modules": [[m, n] for n, m in table],
        "imports_bytes": sum(_own.values()),
        "in_use_after_imports": imports,
        "in_use_app_built": built,
        "in_use_peak_between_steps": peak[0] - base,
        "in_use_after_game": after,
        "bench_bytes": _own.get("board_bench", 0),
        "errors": errors,
        "qstr_headroom": _headroom(),
    }
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
