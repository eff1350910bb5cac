"""Writes the board's weight file as a Python module for freezing into a MicroPython image
(firmware/manifest.py freezes build/frozen/weights_data.py when it exists): its `bytes`
constant DATA stays in flash, and the firmware's loader (control/loader.py) evaluates from
views of it, no copy in the heap, instead of reading weights.bin from the filesystem.

Usage: python -m ledgammon.train.frozen_weights [--weights FILE] [OUT]
(default firmware/weights-64.bin, the network `deploy --frozen` installs, into
build/frozen/weights_data.py)
"""

from __future__ import annotations

import argparse
import os
import sys

from .. import resources

MODULE = os.path.join("build", "frozen", "weights_data.py")
WEIGHTS = "weights-64.bin"  # deploy.FROZEN_WEIGHTS: every board with the frozen image


def module_text(data: bytes) -> str:
    """The module holding `data` (a weight file's bytes) as DATA."""
    return ("# The board's network for freezing into the image (firmware/manifest.py); written\n"
            "# by host/ledgammon/train/frozen_weights.py from a weight file, not edited.\n"
            "DATA = %r\n" % data)


def write(weights: str, path: str = MODULE) -> int:
    """Checks `weights` is a weight file the board reads (kernels.weights.parse: ValueError
    otherwise) and writes it as the module at `path` (its folder made, atomically); returns
    its size in bytes."""
    from kernels.weights import parse

    with open(weights, "rb") as f:
        data = f.read()
    parse(data, weights)
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    tmp = "%s.%d.tmp" % (path, os.getpid())
    with open(tmp, "w") as f:
        f.write(module_text(data))
    os.replace(tmp, path)
    return len(data)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m ledgammon.train.frozen_weights",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("out", nargs="?", default=MODULE, help="where (default %s)" % MODULE)
    ap.add_argument("--weights", default=None,
                    help="the weight file (default the firmware's %s)" % WEIGHTS)
    args = ap.parse_args(argv)
    weights = args.weights or os.path.join(resources.firmware(), WEIGHTS)
    try:
        size = write(weights, args.out)
    except (OSError, ValueError) as exc:
        print("error: %s" % exc, file=sys.stderr)
        return 1
    print("wrote %s (%d bytes) to %s" % (weights, size, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
