# A tiny test runner for tests/engine/test_*.py that runs under MicroPython (and CPython).
#
#   micropython -X heapsize=64K tests/mprun.py [--path DIR]... [test_module ...]
#
# --path puts DIR first on sys.path: tests/test_micropython.py passes a folder of the
# firmware precompiled with mpy-cross, which is how the board loads it (source compiled on
# the device needs far more heap).
# Imports each module in turn (firmware/ and tests/engine on sys.path), calls every
# function whose name starts with test_, prints a traceback per failure and ends with
# "N passed, M failed"; exits 1 when anything failed. Each module is dropped after its run
# so a small heap holds one test module at a time.
import gc
import os
import sys
import time


def _ticks_ms():
    if hasattr(time, "ticks_ms"):
        return time.ticks_ms()
    return int(time.time() * 1000)


def _dirname(path):
    i = path.rfind("/")
    if i < 0:
        return "."
    return path[:i] or "/"


def _join(a, b):
    return a + "/" + b if a else b


def _setup():
    tests = _dirname(sys.argv[0] if sys.argv and sys.argv[0] else __file__)
    root = _dirname(tests) if tests != "." else ".."
    engine = _join(tests, "engine")
    for path in (_join(root, "native"), _join(root, "firmware"), engine):
        if path not in sys.path:
            sys.path.insert(0, path)
    return engine


def _modules(engine, names):
    if names:
        return [n[:-3] if n.endswith(".py") else n for n in names]
    names = os.listdir(engine)
    return sorted(f[:-3] for f in names if f.startswith("test_") and f.endswith(".py"))


def run_module(name):
    """Runs the tests of one module; returns (passed, failed)."""
    from testloop import print_exception, run_tests  # tests/engine: on sys.path by now

    try:
        mod = __import__(name)
    except Exception as exc:  # an import error fails the whole module
        print("ERROR importing %s" % name)
        print_exception(exc)
        return 0, 1
    start = _ticks_ms()
    passed, failed = run_tests(mod, name)
    print("%s: %d passed, %d failed in %d ms" % (name, passed, failed, _ticks_ms() - start))
    del mod
    for key in list(sys.modules):
        if key == name or key == "oracle_data":
            del sys.modules[key]
    gc.collect()
    return passed, failed


def main(args):
    engine = _setup()
    args = list(args)
    while "--path" in args:
        i = args.index("--path")
        sys.path.insert(0, args[i + 1])
        del args[i : i + 2]
    passed = failed = 0
    for name in _modules(engine, args):
        p, f = run_module(name)
        passed += p
        failed += f
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
