# The start of a bench script that MicroPython (or CPython) runs from its file: firmware/ and
# native/ on sys.path, found from bench/ itself, and `--path DIR` (the firmware precompiled with
# mpy-cross, as the board loads it) before them. MicroPython and CPython; nothing else imported.
import sys

_i = __file__.rfind("/")
HERE = __file__[:_i] if _i >= 0 else "."


def setup(also=()):
    """Puts firmware/ and native/ first on sys.path, the folders `also` (relative to bench/)
    last, and the folder of `--path DIR` before all; returns the other arguments."""
    sys.path.insert(0, HERE + "/../firmware")
    sys.path.insert(0, HERE + "/../native")
    for folder in also:
        sys.path.append(HERE + "/" + folder)
    args = sys.argv[1:]
    if "--path" in args:
        at = args.index("--path")
        sys.path.insert(0, args[at + 1])
        del args[at : at + 2]
    return args
