"""Measures the smallest MicroPython heap each firmware test module passes in and prints
test_firmware_micropython.HEAP as it should read: that figure plus MARGIN_KB, rounded up to
STEP_KB. Run it when firmware code grows and a module's figure is met (a MemoryError in
make test), instead of raising one figure by hand: `.venv/bin/python tests/heap_table.py
[module ...]`. Two modules at a time (the machine's cores); about two minutes for all."""

from __future__ import annotations

import re
import sys
from concurrent.futures import ThreadPoolExecutor

import test_firmware_micropython as fw  # tests/: the script's own folder, or pytest's path

STEP_KB = 8
MARGIN_KB = 8  # what a few hundred bytes more code or a changed fragment must not break
RESOLUTION_KB = 4
LARGEST_KB = 512


def passes(top: str, module: str, kb: int) -> bool:
    """True when every test of `module` passes in a heap of `kb` KB."""
    proc = fw.run_module(top, module, "%dK" % kb)
    lines = (proc.stdout + proc.stderr).strip().splitlines()
    return proc.returncode == 0 and bool(lines) and bool(
        re.match(r"^\d+ passed, 0 failed$", lines[-1]))


def smallest(top: str, module: str) -> int | None:
    """The smallest heap (to RESOLUTION_KB) `module` passes in, None if not even LARGEST_KB."""
    lo, hi = 0, LARGEST_KB
    if not passes(top, module, hi):
        return None
    while hi - lo > RESOLUTION_KB:
        mid = (lo + hi) // 2 // RESOLUTION_KB * RESOLUTION_KB
        if passes(top, module, mid):
            hi = mid
        else:
            lo = mid
    return hi


def figure(kb: int) -> int:
    """The table's figure for a module that needs `kb` KB: the margin, rounded up a step."""
    return -(-(kb + MARGIN_KB) // STEP_KB) * STEP_KB


def main(argv: list[str]) -> int:
    top = fw.precompiled_tree()
    modules = argv or fw.MODULES
    default = int(fw.DEFAULT_HEAP[:-1])
    failed = 0
    with ThreadPoolExecutor(2) as pool:
        for module, kb in zip(modules, pool.map(lambda m: smallest(top, m), modules), strict=True):
            if kb is None:
                print("    # %s fails even in %d KB: a defect, not a heap" % (module, LARGEST_KB))
                failed = 1
                continue
            want = figure(kb)
            note = "  # needs %d KB, table says %s" % (kb, fw.HEAP.get(module, fw.DEFAULT_HEAP))
            if want > default:
                print('    "%s": "%dK",%s' % (module, want, note))
            else:
                print("    # %s fits DEFAULT_HEAP (%s):%s" % (module, fw.DEFAULT_HEAP, note))
    return failed


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
