"""The project's benchmarks, by what they measure: `engine` (the rules engine), `opponent`
(the board's move choice, cube decisions and bear-off table), `board` (the firmware as
deployed: issue 11's figures), `link` (the serial link), `web` (the page), `chip` (the
emulated RP2040: `python -m bench.chip`), `strength` (the board's levels against GNU
Backgammon: `python -m bench.strength`); `python -m bench.run` runs `make bench`'s part.

Importing `bench` is the one place its host-side code finds the project's other folders:
firmware/ and native/ (the board's modules, `gammon` and the rest), host/ (`ledgammon`) and
tests/ (its helpers: mpytools, webkit). The modules run by the MicroPython unix port are
found through MICROPYPATH, which bench.mp sets (they import nothing of the `bench` package).
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
NATIVE = os.path.join(ROOT, "native")
HOST = os.path.join(ROOT, "host")
TESTS = os.path.join(ROOT, "tests")
BUILD = os.path.join(ROOT, "build")

for _path in (NATIVE, FIRMWARE):  # firmware/ first, as on the board
    if _path not in sys.path:
        sys.path.insert(0, _path)
for _path in (HOST, TESTS):  # last: nothing of theirs may stand in for a library's module
    if _path not in sys.path:
        sys.path.append(_path)
