# Runs a module's test functions one by one on MicroPython or CPython: the loop of both
# MicroPython runners (tests/mprun.py, and tests/test_firmware_micropython.py's RUNNER).
import gc
import sys

try:
    print_exception = sys.print_exception
except AttributeError:  # CPython
    import traceback

    def print_exception(exc):
        traceback.print_exception(type(exc), exc, exc.__traceback__)


def run_tests(mod, name):
    """Calls every test_ function of module `mod` (named `name`), a collection before each, a
    traceback for each failure; returns (passed, failed)."""
    passed = failed = 0
    for test in sorted(k for k in dir(mod) if k.startswith("test_") and callable(getattr(mod, k))):
        gc.collect()
        try:
            getattr(mod, test)()
            passed += 1
        except Exception as exc:
            failed += 1
            print("FAIL %s.%s" % (name, test))
            print_exception(exc)
    return passed, failed
